//===- RandomTest.cpp - Random numbers and prints through the C++ JIT -----===//

#include "tracec/Runtime/Executable.h"
#include "tracec/ABI/tracec_print.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) { return llvm::toString(std::move(error)); }

constexpr const char *kModule = R"mlir(
func.func @draw() -> tensor<64xf32> {
  %0, %c = trace.random_uniform {seed = 2024} : tensor<64xf32>
  return %0 : tensor<64xf32>
}
func.func @show(%x: tensor<2xf32>) -> tensor<2xf32> {
  %p0 = trace.print %x {message = "x is"} : tensor<2xf32>
  %y = trace.mul %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %p1 = trace.print %y {message = "x*x is"} : tensor<2xf32>
  return %y : tensor<2xf32>
}
)mlir";

class RandomTest : public ::testing::Test {
protected:
  /// A fresh compile of the module: every counter starts at 0.
  std::unique_ptr<Executable> compile() {
    auto module = compiler.parseString(kModule, "random.mlir");
    EXPECT_TRUE(bool(module)) << errorText(module.takeError());
    if (!module)
      return nullptr;
    auto compiled = Executable::compile(*module);
    EXPECT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    return compiled ? std::move(*compiled) : nullptr;
  }

  /// The next `n` draws of @draw.
  static std::vector<std::vector<float>> draws(const Executable &exe, int n) {
    auto draw = exe.function("draw");
    EXPECT_TRUE(bool(draw)) << errorText(draw.takeError());
    std::vector<std::vector<float>> values;
    for (int i = 0; i < n && draw; ++i) {
      auto results = (*draw)({});
      EXPECT_TRUE(bool(results)) << errorText(results.takeError());
      values.push_back(results ? (*results)[0].toVector<float>()
                               : std::vector<float>());
    }
    return values;
  }

  Compiler compiler;
};

TEST_F(RandomTest, FreshCompilesRepeatTheSequenceAndCallsAdvanceIt) {
  auto first = compile(), second = compile();
  ASSERT_TRUE(first && second);
  auto a = draws(*first, 3), b = draws(*second, 3);
  EXPECT_EQ(a, b);
  EXPECT_NE(a[0], a[1]);
  EXPECT_NE(a[1], a[2]);
  for (float x : a[0]) {
    EXPECT_GE(x, 0.0f);
    EXPECT_LT(x, 1.0f);
  }
}

// Concurrent calls take distinct runs of the counter: together they draw
// exactly the runs a sequential caller sees, in some order.
TEST_F(RandomTest, ConcurrentCallsDrawDistinctRuns) {
  constexpr int kThreads = 4, kCallsPerThread = 25;
  auto sequential = compile(), concurrent = compile();
  ASSERT_TRUE(sequential && concurrent);
  auto expected = draws(*sequential, kThreads * kCallsPerThread);

  auto draw = concurrent->function("draw");
  ASSERT_TRUE(bool(draw)) << errorText(draw.takeError());
  std::vector<std::vector<std::vector<float>>> perThread(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCallsPerThread; ++i) {
        auto results = (*draw)({});
        perThread[t].push_back(results ? (*results)[0].toVector<float>()
                                       : std::vector<float>());
        if (!results)
          llvm::consumeError(results.takeError());
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  std::vector<std::vector<float>> got;
  for (auto &values : perThread)
    got.insert(got.end(), values.begin(), values.end());
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);
}

TEST_F(RandomTest, PrintWritesMessagesAndTensorsInOrder) {
  auto exe = compile();
  ASSERT_TRUE(exe);
  auto show = exe->function("show");
  ASSERT_TRUE(bool(show)) << errorText(show.takeError());
  Tensor x = *Tensor::fromVector<float>({1.5f, -2.0f}, {2});
  testing::internal::CaptureStdout();
  auto results = (*show)({x});
  std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(bool(results)) << errorText(results.takeError());
  EXPECT_EQ(out, "x is [ 1.5 -2. ]\nx*x is [2.25 4.  ]\n");
}

// The callback's C ABI, called directly as compiled code calls it.
TEST(PrintCallbackTest, FormatsEveryDtypeLikeNumPy) {
  const int64_t shape[] = {2, 2};
  const int32_t ints[] = {1, -20, 300, 4};
  const bool mask[] = {true, false};
  const double scalar = 0.5;
  testing::internal::CaptureStdout();
  tracec_print_tensor("m", TRACEC_DTYPE_I32, 2, shape, ints);
  tracec_print_tensor("", TRACEC_DTYPE_I1, 1, shape, mask);
  tracec_print_tensor("s", TRACEC_DTYPE_F64, 0, nullptr, &scalar);
  tracec_print_tensor("bad", 99, 0, nullptr, &scalar);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "m [[  1 -20]\n [300   4]]\n[ True False]\ns 0.5\n"
            "bad <tensor of unknown dtype code 99>\n");
}

} // namespace
