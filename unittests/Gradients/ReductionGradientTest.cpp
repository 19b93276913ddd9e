//===- ReductionGradientTest.cpp - reduce_max/min/prod, softmax -----------===//

#include "GradientChecker.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace tracec;
using namespace tracec::testing;

namespace {

/// Values 0.1 apart in a shuffled order: every reduction has a unique
/// extremum, far from a tie compared to the finite-difference step.
Tensor distinctTensor(std::vector<int64_t> shape, unsigned seed) {
  int64_t count = std::accumulate(shape.begin(), shape.end(), int64_t{1},
                                  std::multiplies<int64_t>());
  std::vector<double> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = 0.1 * static_cast<double>(i) - 0.05 * static_cast<double>(count);
  std::shuffle(values.begin(), values.end(), std::mt19937(seed));
  return *Tensor::fromVector<double>(values, shape);
}

struct ReductionCase {
  std::vector<int64_t> shape;
  std::string inputType, attrs, resultType;
};

/// Negative axes, several axes, keepdims, size-1 dims, everything reduced.
const std::vector<ReductionCase> kReductions = {
    {{2, 3, 4}, "tensor<2x3x4xf64>", "{axes = array<i64: 0, -1>}", "tensor<3xf64>"},
    {{2, 3, 4}, "tensor<2x3x4xf64>", "{axes = array<i64: 1>, keepdims}", "tensor<2x1x4xf64>"},
    {{2, 3, 4}, "tensor<2x3x4xf64>", "{axes = array<i64: -2, -3>, keepdims}", "tensor<1x1x4xf64>"},
    {{2, 3, 4}, "tensor<2x3x4xf64>", "{axes = array<i64: 0, 1, 2>}", "tensor<f64>"},
    {{5}, "tensor<5xf64>", "{axes = array<i64: -1>}", "tensor<f64>"},
    {{3, 1}, "tensor<3x1xf64>", "{axes = array<i64: -1>}", "tensor<3xf64>"},
    {{3, 1}, "tensor<3x1xf64>", "{axes = array<i64: 0>, keepdims}", "tensor<1x1xf64>"},
    {{1, 4}, "tensor<1x4xf64>", "{axes = array<i64: 0>}", "tensor<4xf64>"},
};

TEST(ReductionGradients, MaxAndMinAwayFromTies) {
  for (const char *op : {"reduce_max", "reduce_min"}) {
    for (auto [k, c] : llvm::enumerate(kReductions)) {
      SCOPED_TRACE(std::string(op) + " " + c.inputType + " " + c.attrs);
      std::string text = std::string("%y = trace.") + op + " %arg0 " + c.attrs +
                         " : " + c.inputType + " -> " + c.resultType;
      EXPECT_TRUE(checkOpGradients(text, {c.inputType}, c.resultType,
                                   {distinctTensor(c.shape, 10 + k)}));
    }
  }
}

TEST(ReductionGradients, ProdMatchesFiniteDifferences) {
  for (auto [k, c] : llvm::enumerate(kReductions)) {
    SCOPED_TRACE(std::string("reduce_prod ") + c.inputType + " " + c.attrs);
    std::string text = "%y = trace.reduce_prod %arg0 " + c.attrs + " : " +
                       c.inputType + " -> " + c.resultType;
    EXPECT_TRUE(checkOpGradients(text, {c.inputType}, c.resultType,
                                 {randomTensor(c.shape, 20 + k, 0.5, 1.5)}));
  }
}

TEST(ReductionGradients, LogSumExpMatchesFiniteDifferences) {
  for (auto [k, c] : llvm::enumerate(kReductions)) {
    SCOPED_TRACE(std::string("reduce_logsumexp ") + c.inputType + " " +
                 c.attrs);
    std::string text = "%y = trace.reduce_logsumexp %arg0 " + c.attrs + " : " +
                       c.inputType + " -> " + c.resultType;
    EXPECT_TRUE(checkOpGradients(text, {c.inputType}, c.resultType,
                                 {randomTensor(c.shape, 30 + k, -3.0, 3.0)}));
  }
  // Large elements: the shifted form neither overflows nor loses the
  // gradient (softmax over the axes).
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.reduce_logsumexp %arg0 {axes = array<i64: 1>} : "
      "tensor<2x3xf64> -> tensor<2xf64>",
      {"tensor<2x3xf64>"}, "tensor<2xf64>",
      {*Tensor::fromVector<double>({800, 801, 799, -800, -801, -799}, {2, 3})}));
}

/// The product of the other elements, with zeros among them: rows with no
/// zero, one zero, two zeros (the product is multilinear, so finite
/// differences hold there too).
TEST(ReductionGradients, ProdWithZeros) {
  Tensor x = *Tensor::fromVector<double>(
      {2, -3, 0.5, 4, /**/ 1.5, 0, 2, -1, /**/ 0, 3, 0, 2}, {3, 4});
  EXPECT_TRUE(checkOpGradients(
      "%y = trace.reduce_prod %arg0 {axes = array<i64: 1>} : tensor<3x4xf64> "
      "-> tensor<3xf64>",
      {"tensor<3x4xf64>"}, "tensor<3xf64>", {x}));
  std::string source = R"mlir(
func.func @f(%x: tensor<3x4xf64>) -> tensor<f64> {
  %p = trace.reduce_prod %x {axes = array<i64: 1>} : tensor<3x4xf64> -> tensor<3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(source, "f", {x}, {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  EXPECT_EQ((*grads)[0].toVector<double>(),
            std::vector<double>({-6, 4, -24, -3,  // -12 / x_i
                                 0, -3, 0, 0,     // only the zero's
                                 0, 0, 0, 0}));   // two zeros: none
}

/// Ties split the cotangent evenly among the tied elements.
TEST(ReductionGradients, MaxTiesSplitEvenly) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3x3xf64>) -> tensor<f64> {
  %m = trace.reduce_max %x {axes = array<i64: -1>} : tensor<3x3xf64> -> tensor<3xf64>
  %w = trace.constant dense<[1.0, 3.0, 2.0]> : tensor<3xf64>
  %p = trace.mul %m, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(
      source, "f",
      {*Tensor::fromVector<double>({1, 3, 3, 2, 2, 2, -1, 4, 0}, {3, 3})}, {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // Row 0: two tied maxima share weight 1; row 1: three share weight 3;
  // row 2: a unique maximum takes weight 2.
  EXPECT_EQ((*grads)[0].toVector<double>(),
            std::vector<double>({0, 0.5, 0.5, 1, 1, 1, 0, 2, 0}));
}

TEST(ReductionGradients, MinTiesSplitEvenlyOverSeveralAxes) {
  std::string source = R"mlir(
func.func @f(%x: tensor<2x2x2xf64>) -> tensor<f64> {
  %m = trace.reduce_min %x {axes = array<i64: 0, -1>, keepdims} : tensor<2x2x2xf64> -> tensor<1x2x1xf64>
  %w = trace.constant dense<[[[2.0], [5.0]]]> : tensor<1x2x1xf64>
  %p = trace.mul %m, %w : (tensor<1x2x1xf64>, tensor<1x2x1xf64>) -> tensor<1x2x1xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0, 1, 2>} : tensor<1x2x1xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  // x[i][j][k]; group j = 0 holds x[0][0][*], x[1][0][*] = 1, 4, 1, 1 (three
  // tied minima); group j = 1 holds 7, 2, 3, 2 (two tied minima).
  auto grads = evaluateGradients(
      source, "f",
      {*Tensor::fromVector<double>({1, 4, 7, 2, 1, 1, 3, 2}, {2, 2, 2})}, {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  std::vector<double> dx = (*grads)[0].toVector<double>();
  std::vector<double> expected = {2.0 / 3, 0, 0, 2.5, 2.0 / 3, 2.0 / 3, 0, 2.5};
  ASSERT_EQ(dx.size(), expected.size());
  for (size_t i = 0; i < dx.size(); ++i)
    EXPECT_DOUBLE_EQ(dx[i], expected[i]) << "element " << i;
}

struct SoftmaxCase {
  std::vector<int64_t> shape;
  std::string type;
  int64_t axis;
};

TEST(ReductionGradients, SoftmaxAndLogSoftmax) {
  std::vector<SoftmaxCase> cases = {
      {{3, 4}, "tensor<3x4xf64>", -1}, {{3, 4}, "tensor<3x4xf64>", 0},
      {{2, 3, 4}, "tensor<2x3x4xf64>", 1}, {{2, 3, 4}, "tensor<2x3x4xf64>", -3},
      {{5}, "tensor<5xf64>", 0},          {{3, 1}, "tensor<3x1xf64>", -1},
      {{1, 4}, "tensor<1x4xf64>", -1},
  };
  for (const char *op : {"softmax", "log_softmax"}) {
    for (auto [k, c] : llvm::enumerate(cases)) {
      SCOPED_TRACE(std::string(op) + " " + c.type + " axis " +
                   std::to_string(c.axis));
      std::string text = std::string("%y = trace.") + op +
                         " %arg0 {axis = " + std::to_string(c.axis) + "} : " +
                         c.type;
      EXPECT_TRUE(checkOpGradients(text, {c.type}, c.type,
                                   {randomTensor(c.shape, 20 + k, -2, 2)}));
    }
  }
  // The default axis is -1.
  EXPECT_TRUE(checkOpGradients("%y = trace.softmax %arg0 : tensor<2x3xf64>",
                               {"tensor<2x3xf64>"}, "tensor<2x3xf64>",
                               {randomTensor({2, 3}, 30, -2, 2)}));
}

/// Softmax outputs sum to 1 along the axis, so a cotangent constant along
/// it has no effect: the gradient of sum(softmax(x)) is exactly zero, and
/// that of sum(log_softmax(x)) is 1 - n * softmax(x).
TEST(ReductionGradients, SoftmaxNormalization) {
  std::string source = R"mlir(
func.func @f(%x: tensor<2x3xf64>) -> tensor<f64> {
  %s = trace.softmax %x {axis = 1} : tensor<2x3xf64>
  %t = trace.reduce_sum %s {axes = array<i64: 0, 1>} : tensor<2x3xf64> -> tensor<f64>
  return %t : tensor<f64>
}
func.func @g(%x: tensor<2x3xf64>) -> tensor<f64> {
  %s = trace.log_softmax %x {axis = 1} : tensor<2x3xf64>
  %t = trace.reduce_sum %s {axes = array<i64: 0, 1>} : tensor<2x3xf64> -> tensor<f64>
  return %t : tensor<f64>
}
)mlir";
  std::vector<double> x = {0.5, -1, 2, 0, 0, 0};
  Tensor input = *Tensor::fromVector<double>(x, {2, 3});
  auto f = evaluateGradients(source, "f", {input}, {0});
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  for (double v : (*f)[0].toVector<double>())
    EXPECT_NEAR(v, 0, 1e-15);
  auto g = evaluateGradients(source, "g", {input}, {0});
  ASSERT_TRUE(bool(g)) << llvm::toString(g.takeError());
  std::vector<double> dx = (*g)[0].toVector<double>();
  for (int row = 0; row < 2; ++row) {
    double total = 0;
    for (int j = 0; j < 3; ++j)
      total += std::exp(x[row * 3 + j]);
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(dx[row * 3 + j], 1 - 3 * std::exp(x[row * 3 + j]) / total,
                  1e-14);
  }
}

} // namespace
