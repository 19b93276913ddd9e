//===- GradientSliceTest.cpp - The slice that gradients() replays ---------===//
//
// sliceGradients over an eager tape's ids (sliceTape): the records on a
// path from a source to a y, which sources a y reaches, intermediates,
// stops and values that carry no gradient.
//
//===----------------------------------------------------------------------===//

#include "tracec/Frontend/GradientSlice.h"

#include <gtest/gtest.h>

using namespace tracec;

namespace {

using Ids = std::vector<int64_t>;

TEST(GradientSlice, OnlyTheRecordsBetweenSourcesAndYs) {
  // r0: a = f(x); r1: c = g(b) (b independent); r2: y = a + c; r3: z = h(x)
  std::vector<Ids> in = {{1}, {3}, {2, 4}, {1}};
  std::vector<Ids> out = {{2}, {4}, {5}, {6}};
  TapeSlice s = sliceTape(in, out, /*ys=*/{5}, /*sources=*/{1},
                          /*stops=*/{}, /*noGradient=*/{});
  EXPECT_EQ(s.records, (Ids{0, 2})); // c is an external of the replay
  EXPECT_EQ(s.reached, (Ids{1}));
  // With b a source too, r1 joins.
  TapeSlice both = sliceTape(in, out, {5}, {1, 3}, {}, {});
  EXPECT_EQ(both.records, (Ids{0, 1, 2}));
  EXPECT_EQ(both.reached, (Ids{1, 3}));
  EXPECT_TRUE(s.intermediate.empty());
}

TEST(GradientSlice, IntermediateSourcesPassTheGradientOn) {
  // r0: h = f(w); r1: y = g(h). gradients(y, {w, h}): w gets the gradient
  // through h, so r0 is replayed and h is an intermediate.
  std::vector<Ids> in = {{1}, {2}};
  std::vector<Ids> out = {{2}, {3}};
  TapeSlice both = sliceTape(in, out, {3}, {1, 2}, {}, {});
  EXPECT_EQ(both.records, (Ids{0, 1}));
  EXPECT_EQ(both.reached, (Ids{1, 2}));
  EXPECT_EQ(both.intermediate, (Ids{2}));
  // With h alone, the slice ends at h.
  TapeSlice h = sliceTape(in, out, {3}, {2}, {}, {});
  EXPECT_EQ(h.records, (Ids{1}));
  EXPECT_EQ(h.reached, (Ids{2}));
  EXPECT_TRUE(h.intermediate.empty());
  // A y that is a source reaches itself.
  TapeSlice self = sliceTape(in, out, {2}, {2}, {}, {});
  EXPECT_TRUE(self.records.empty());
  EXPECT_EQ(self.reached, (Ids{2}));
}

TEST(GradientSlice, StopsAndValuesWithoutGradient) {
  // r0: a = f(x); r1: i = argmax(a) (no gradient); r2: y = g(a, i)
  std::vector<Ids> in = {{1}, {2}, {2, 3}};
  std::vector<Ids> out = {{2}, {3}, {4}};
  TapeSlice s = sliceTape(in, out, {4}, {1}, {}, /*noGradient=*/{3});
  EXPECT_EQ(s.records, (Ids{0, 2})); // i is an external of the replay
  EXPECT_EQ(s.reached, (Ids{1}));
  // Stopping a cuts x off; a stopped source is no source.
  TapeSlice stopped = sliceTape(in, out, {4}, {1}, /*stops=*/{2}, {3});
  EXPECT_TRUE(stopped.records.empty());
  EXPECT_TRUE(stopped.reached.empty());
  TapeSlice self = sliceTape(in, out, {4}, {1}, /*stops=*/{1}, {3});
  EXPECT_TRUE(self.reached.empty());
}

TEST(GradientSlice, LongChainsDoNotRecurse) {
  // 200000 records, each reading the previous value: a recursive walk
  // would overflow the stack.
  const int64_t n = 200000;
  std::vector<Ids> in, out;
  for (int64_t r = 0; r < n; ++r) {
    in.push_back({r});
    out.push_back({r + 1});
  }
  TapeSlice s = sliceTape(in, out, {n}, {0}, {}, {});
  ASSERT_EQ(s.records.size(), size_t(n));
  EXPECT_EQ(s.records.front(), 0);
  EXPECT_EQ(s.records.back(), n - 1);
  EXPECT_EQ(s.reached, (Ids{0}));
}

} // namespace
