//===- ShapeGradientTest.cpp - Gradients of the shape ops -----------------===//

#include "GradientChecker.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

/// One op applied to a single f64 operand.
struct UnaryCase {
  std::vector<int64_t> shape;
  std::string inputType, attrs, resultType;
};

::testing::AssertionResult checkUnary(const std::string &op, const UnaryCase &c,
                                      unsigned seed) {
  std::string text = "%y = trace." + op + " %arg0 " + c.attrs + " : " +
                     c.inputType + " -> " + c.resultType;
  return checkOpGradients(text, {c.inputType}, c.resultType,
                          {randomTensor(c.shape, seed)});
}

TEST(ShapeGradients, Reshape) {
  for (auto [k, c] : llvm::enumerate(std::vector<UnaryCase>{
           {{2, 3, 4}, "tensor<2x3x4xf64>", "", "tensor<6x4xf64>"},
           {{2, 3, 4}, "tensor<2x3x4xf64>", "", "tensor<24xf64>"},
           {{6}, "tensor<6xf64>", "", "tensor<3x1x2xf64>"},
           {{1, 1}, "tensor<1x1xf64>", "", "tensor<f64>"},
           {{}, "tensor<f64>", "", "tensor<1x1x1xf64>"}})) {
    SCOPED_TRACE(c.inputType + " -> " + c.resultType);
    EXPECT_TRUE(checkUnary("reshape", c, 100 + k));
  }
}

TEST(ShapeGradients, Transpose) {
  // [1, 2, 0] and [2, 0, 1] are each other's inverse: using the forward
  // permutation instead of its inverse fails.
  for (auto [k, c] : llvm::enumerate(std::vector<UnaryCase>{
           {{3, 4}, "tensor<3x4xf64>", "{perm = array<i64: 1, 0>}", "tensor<4x3xf64>"},
           {{2, 3, 4}, "tensor<2x3x4xf64>", "{perm = array<i64: 1, 2, 0>}", "tensor<3x4x2xf64>"},
           {{2, 3, 4}, "tensor<2x3x4xf64>", "{perm = array<i64: 2, 0, 1>}", "tensor<4x2x3xf64>"},
           {{2, 1, 3}, "tensor<2x1x3xf64>", "{perm = array<i64: 0, 2, 1>}", "tensor<2x3x1xf64>"},
           {{2, 3, 4, 5}, "tensor<2x3x4x5xf64>", "{perm = array<i64: 3, 0, 2, 1>}", "tensor<5x2x4x3xf64>"}})) {
    SCOPED_TRACE(c.inputType + " " + c.attrs);
    EXPECT_TRUE(checkUnary("transpose", c, 110 + k));
  }
}

TEST(ShapeGradients, BroadcastTo) {
  for (auto [k, c] : llvm::enumerate(std::vector<UnaryCase>{
           {{4}, "tensor<4xf64>", "", "tensor<3x4xf64>"},
           {{3, 1}, "tensor<3x1xf64>", "", "tensor<2x3x4xf64>"},
           {{1, 1}, "tensor<1x1xf64>", "", "tensor<1x5xf64>"},
           {{}, "tensor<f64>", "", "tensor<2x3xf64>"},
           {{2, 3}, "tensor<2x3xf64>", "", "tensor<2x3xf64>"}})) {
    SCOPED_TRACE(c.inputType + " -> " + c.resultType);
    EXPECT_TRUE(checkUnary("broadcast_to", c, 120 + k));
  }
}

TEST(ShapeGradients, Concat) {
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.concat %arg0, %arg1 {axis = 0} : (tensor<2x3xf64>, "
      "tensor<1x3xf64>) -> tensor<3x3xf64>",
      {"tensor<2x3xf64>", "tensor<1x3xf64>"}, "tensor<3x3xf64>",
      {randomTensor({2, 3}, 130), randomTensor({1, 3}, 131)}));
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.concat %arg0, %arg1, %arg2 {axis = -1} : (tensor<2x1x2xf64>, "
      "tensor<2x1x3xf64>, tensor<2x1x1xf64>) -> tensor<2x1x6xf64>",
      {"tensor<2x1x2xf64>", "tensor<2x1x3xf64>", "tensor<2x1x1xf64>"},
      "tensor<2x1x6xf64>",
      {randomTensor({2, 1, 2}, 132), randomTensor({2, 1, 3}, 133),
       randomTensor({2, 1, 1}, 134)}));
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.concat %arg0, %arg1 {axis = 1} : (tensor<2x3x2xf64>, "
      "tensor<2x2x2xf64>) -> tensor<2x5x2xf64>",
      {"tensor<2x3x2xf64>", "tensor<2x2x2xf64>"}, "tensor<2x5x2xf64>",
      {randomTensor({2, 3, 2}, 135), randomTensor({2, 2, 2}, 136)}));
  // One value twice: both slices flow into it.
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.concat %arg0, %arg0 {axis = 0} : (tensor<3xf64>, "
      "tensor<3xf64>) -> tensor<6xf64>",
      {"tensor<3xf64>"}, "tensor<6xf64>", {randomTensor({3}, 137)}));
}

TEST(ShapeGradients, SliceWithUnitStrides) {
  for (auto [k, c] : llvm::enumerate(std::vector<UnaryCase>{
           {{4, 5}, "tensor<4x5xf64>", "{start = array<i64: 1, 0>, limit = array<i64: 3, 5>}", "tensor<2x5xf64>"},
           {{1, 5}, "tensor<1x5xf64>", "{start = array<i64: 0, 1>, limit = array<i64: 1, 4>}", "tensor<1x3xf64>"},
           {{2, 3, 4}, "tensor<2x3x4xf64>", "{start = array<i64: 1, 1, 3>, limit = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 1>}", "tensor<1x2x1xf64>"},
           {{6}, "tensor<6xf64>", "{start = array<i64: 0>, limit = array<i64: 6>}", "tensor<6xf64>"}})) {
    SCOPED_TRACE(c.inputType + " " + c.attrs);
    EXPECT_TRUE(checkUnary("slice", c, 140 + k));
  }
}

/// Strided slices: the cotangent lands on every stride-th element and the
/// positions in between get zeros; finite differences check both.
TEST(ShapeGradients, SliceWithStrides) {
  for (auto [k, c] : llvm::enumerate(std::vector<UnaryCase>{
           // Elements 1, 4, 7 of 10.
           {{10}, "tensor<10xf64>", "{start = array<i64: 1>, limit = array<i64: 9>, strides = array<i64: 3>}", "tensor<3xf64>"},
           // The stride divides the extent exactly: elements 0, 2.
           {{4}, "tensor<4xf64>", "{start = array<i64: 0>, limit = array<i64: 4>, strides = array<i64: 2>}", "tensor<2xf64>"},
           // A stride larger than the extent takes one element.
           {{6}, "tensor<6xf64>", "{start = array<i64: 2>, limit = array<i64: 4>, strides = array<i64: 5>}", "tensor<1xf64>"},
           {{5, 7}, "tensor<5x7xf64>", "{start = array<i64: 0, 2>, limit = array<i64: 5, 7>, strides = array<i64: 2, 2>}", "tensor<3x3xf64>"},
           {{2, 6, 5}, "tensor<2x6x5xf64>", "{start = array<i64: 0, 1, 0>, limit = array<i64: 2, 6, 5>, strides = array<i64: 1, 2, 4>}", "tensor<2x3x2xf64>"},
           {{3, 1, 8}, "tensor<3x1x8xf64>", "{start = array<i64: 1, 0, 1>, limit = array<i64: 3, 1, 8>, strides = array<i64: 3, 2, 3>}", "tensor<1x1x3xf64>"}})) {
    SCOPED_TRACE(c.inputType + " " + c.attrs);
    EXPECT_TRUE(checkUnary("slice", c, 150 + k));
  }
}

TEST(ShapeGradients, Pad) {
  for (auto [k, c] : llvm::enumerate(std::vector<UnaryCase>{
           {{3}, "tensor<3xf64>", "{low = array<i64: 2>, high = array<i64: 1>}", "tensor<6xf64>"},
           {{2, 3}, "tensor<2x3xf64>", "{low = array<i64: 1, 0>, high = array<i64: 0, 2>, value = 1.5}", "tensor<3x5xf64>"},
           {{1, 2, 1}, "tensor<1x2x1xf64>", "{low = array<i64: 0, 1, 2>, high = array<i64: 1, 0, 3>}", "tensor<2x3x6xf64>"},
           {{2, 2}, "tensor<2x2xf64>", "{low = array<i64: 0, 0>, high = array<i64: 0, 0>}", "tensor<2x2xf64>"}})) {
    SCOPED_TRACE(c.inputType + " " + c.attrs);
    EXPECT_TRUE(checkUnary("pad", c, 160 + k));
  }
}

TEST(ShapeGradients, Gather) {
  // Repeated indices.
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.gather %arg0, %arg1 : (tensor<5x3xf64>, tensor<4xi64>) -> "
      "tensor<4x3xf64>",
      {"tensor<5x3xf64>", "tensor<4xi64>"}, "tensor<4x3xf64>",
      {randomTensor({5, 3}, 170),
       *Tensor::fromVector<int64_t>({0, 3, 3, 1}, {4})}));
  // 2-D i32 indices along a middle axis, out of range on both sides (9
  // clamps to 4, -2 to 0).
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.gather %arg0, %arg1 {axis = 1} : (tensor<2x5x3xf64>, "
      "tensor<2x2xi32>) -> tensor<2x2x2x3xf64>",
      {"tensor<2x5x3xf64>", "tensor<2x2xi32>"}, "tensor<2x2x2x3xf64>",
      {randomTensor({2, 5, 3}, 171),
       *Tensor::fromVector<int32_t>({4, 0, 9, -2}, {2, 2})}));
  // A scalar index along the last axis (a negative axis).
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.gather %arg0, %arg1 {axis = -1} : (tensor<3x4xf64>, "
      "tensor<i64>) -> tensor<3xf64>",
      {"tensor<3x4xf64>", "tensor<i64>"}, "tensor<3xf64>",
      {randomTensor({3, 4}, 172), Tensor::scalar<int64_t>(2)}));
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.gather %arg0, %arg1 : (tensor<4xf64>, tensor<6xi32>) -> "
      "tensor<6xf64>",
      {"tensor<4xf64>", "tensor<6xi32>"}, "tensor<6xf64>",
      {randomTensor({4}, 173),
       *Tensor::fromVector<int32_t>({1, 1, 1, -5, 7, 2}, {6})}));
  // A size-1 gathered dim: every index clamps to 0.
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.gather %arg0, %arg1 {axis = -1} : (tensor<3x1xf64>, "
      "tensor<3xi64>) -> tensor<3x3xf64>",
      {"tensor<3x1xf64>", "tensor<3xi64>"}, "tensor<3x3xf64>",
      {randomTensor({3, 1}, 174),
       *Tensor::fromVector<int64_t>({0, 1, -1}, {3})}));
}

/// Repeated and clamped indices accumulate: d/dparams of sum(gather) counts
/// how often each row is taken after clamping.
TEST(ShapeGradients, GatherAccumulatesClampedIndices) {
  std::string source = R"mlir(
func.func @f(%p: tensor<3x2xf64>, %i: tensor<5xi64>) -> tensor<f64> {
  %g = trace.gather %p, %i : (tensor<3x2xf64>, tensor<5xi64>) -> tensor<5x2xf64>
  %s = trace.reduce_sum %g {axes = array<i64: 0, 1>} : tensor<5x2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(
      source, "f",
      {randomTensor({3, 2}, 180),
       *Tensor::fromVector<int64_t>({0, 0, 5, -1, 2}, {5})},
      {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // Rows taken: 0, 0, 2 (5 clamped), 0 (-1 clamped), 2.
  EXPECT_EQ((*grads)[0].toVector<double>(),
            std::vector<double>({3, 3, 0, 0, 2, 2}));
}

TEST(ShapeGradients, ScatterAdd) {
  // Repeated and out-of-range indices along axis 0 (7 clamps to 4).
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.scatter_add %arg0, %arg1, %arg2 : (tensor<5x3xf64>, "
      "tensor<4xi64>, tensor<4x3xf64>) -> tensor<5x3xf64>",
      {"tensor<5x3xf64>", "tensor<4xi64>", "tensor<4x3xf64>"},
      "tensor<5x3xf64>",
      {randomTensor({5, 3}, 190), *Tensor::fromVector<int64_t>({0, 3, 3, 7}, {4}),
       randomTensor({4, 3}, 191)}));
  // 2-D i32 indices along a middle axis, clamped on both sides.
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.scatter_add %arg0, %arg1, %arg2 {axis = 1} : "
      "(tensor<2x5x3xf64>, tensor<2x2xi32>, tensor<2x2x2x3xf64>) -> "
      "tensor<2x5x3xf64>",
      {"tensor<2x5x3xf64>", "tensor<2x2xi32>", "tensor<2x2x2x3xf64>"},
      "tensor<2x5x3xf64>",
      {randomTensor({2, 5, 3}, 192),
       *Tensor::fromVector<int32_t>({4, 0, 9, -2}, {2, 2}),
       randomTensor({2, 2, 2, 3}, 193)}));
  // The last axis: one element per index.
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.scatter_add %arg0, %arg1, %arg2 {axis = -1} : "
      "(tensor<3x4xf64>, tensor<5xi32>, tensor<3x5xf64>) -> tensor<3x4xf64>",
      {"tensor<3x4xf64>", "tensor<5xi32>", "tensor<3x5xf64>"},
      "tensor<3x4xf64>",
      {randomTensor({3, 4}, 194),
       *Tensor::fromVector<int32_t>({1, -1, 3, 3, 9}, {5}),
       randomTensor({3, 5}, 195)}));
}

/// An embedding-style update: sum(scatter_add(t, i, u)^2) depends on u
/// through the rows it lands on, so repeated indices couple their updates.
TEST(ShapeGradients, ScatterAddRepeatedRowsCouple) {
  std::string source = R"mlir(
func.func @f(%t: tensor<3x2xf64>, %i: tensor<3xi64>, %u: tensor<3x2xf64>) -> tensor<f64> {
  %s = trace.scatter_add %t, %i, %u : (tensor<3x2xf64>, tensor<3xi64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %q = trace.mul %s, %s : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %r = trace.reduce_sum %q {axes = array<i64: 0, 1>} : tensor<3x2xf64> -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(
      source, "f",
      {*Tensor::fromVector<double>({1, 2, 3, 4, 5, 6}, {3, 2}),
       *Tensor::fromVector<int64_t>({2, 2, 0}, {3}),
       *Tensor::fromVector<double>({1, 1, 2, 2, 3, 3}, {3, 2})},
      {0, 2});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // s = [[4, 5], [3, 4], [8, 9]]: dt = 2s; du_k = 2 s[i_k].
  EXPECT_EQ((*grads)[0].toVector<double>(),
            std::vector<double>({8, 10, 6, 8, 16, 18}));
  EXPECT_EQ((*grads)[1].toVector<double>(),
            std::vector<double>({16, 18, 16, 18, 8, 10}));
}

} // namespace
