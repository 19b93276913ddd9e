//===- ConvPoolGradientTest.cpp - Gradients of conv2d and pooling ---------===//
//
// conv2d with respect to both operands, max_pool2d and avg_pool2d, checked
// against central differences; the max-pool subgradient at ties (the first
// maximum in row-major window order) and at padding (never receives) is
// checked exactly. The backprop ops' own rules (grad of grad) are checked
// the same way.
//
//===----------------------------------------------------------------------===//

#include "GradientChecker.h"

#include <algorithm>
#include <numeric>
#include <random>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Shape = std::vector<int64_t>;

std::string tensorType(const Shape &shape) {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + "f64>";
}

std::string i64Array(const Shape &values) {
  std::string text = "array<i64: ";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + ">";
}

/// The windowed output size: (in + pads - dilated window) / stride + 1.
int64_t outputSize(int64_t in, int64_t window, int64_t stride, int64_t padLow,
                   int64_t padHigh, int64_t dilation = 1) {
  return (in + padLow + padHigh - (dilation * (window - 1) + 1)) / stride + 1;
}

/// The values -1 + 2k/n for k = 0..n-1 in a seeded random order: distinct
/// and 2/n apart, far more than the finite-difference step, so no window
/// maximum changes within a step.
Tensor distinctTensor(const Shape &shape, unsigned seed) {
  int64_t n = 1;
  for (int64_t dim : shape)
    n *= dim;
  std::vector<double> values(n);
  for (int64_t k = 0; k < n; ++k)
    values[k] = -1 + 2.0 * k / n;
  std::shuffle(values.begin(), values.end(), std::mt19937(seed));
  return *Tensor::fromVector<double>(values, shape);
}

struct ConvCase {
  Shape input, filter, strides, padding, dilations;
};

Shape convOutput(const ConvCase &c) {
  return {c.input[0],
          outputSize(c.input[1], c.filter[0], c.strides[0], c.padding[0],
                     c.padding[1], c.dilations[0]),
          outputSize(c.input[2], c.filter[1], c.strides[1], c.padding[2],
                     c.padding[3], c.dilations[1]),
          c.filter[3]};
}

std::string convAttrs(const ConvCase &c) {
  return "strides = " + i64Array(c.strides) +
         ", padding = " + i64Array(c.padding) +
         ", dilations = " + i64Array(c.dilations);
}

const std::vector<ConvCase> kConvCases = {
    // Stride 1, no padding, 2 -> 3 channels.
    {{1, 5, 5, 2}, {3, 3, 2, 3}, {1, 1}, {0, 0, 0, 0}, {1, 1}},
    // Stride 2, asymmetric padding, batch 2, 3 -> 4 channels.
    {{2, 6, 5, 3}, {3, 2, 3, 4}, {2, 2}, {1, 0, 2, 1}, {1, 1}},
    // Dilation 2 with asymmetric padding.
    {{1, 6, 6, 2}, {2, 3, 2, 2}, {1, 1}, {0, 1, 1, 0}, {2, 2}},
    // Different strides and dilations per dim, batch 2.
    {{2, 7, 6, 2}, {2, 2, 2, 3}, {2, 1}, {2, 1, 0, 1}, {2, 1}},
    // Stride 3 leaves input rows and columns 2 and 5 outside every window:
    // their gradient is zero.
    {{1, 6, 6, 1}, {2, 2, 1, 2}, {3, 3}, {0, 0, 0, 0}, {1, 1}},
};

TEST(ConvPoolGradients, Conv2DInputAndFilter) {
  for (auto [i, c] : llvm::enumerate(kConvCases)) {
    Shape output = convOutput(c);
    std::string op = "%y = trace.conv2d %arg0, %arg1 {" + convAttrs(c) +
                     "} : (" + tensorType(c.input) + ", " +
                     tensorType(c.filter) + ") -> " + tensorType(output);
    SCOPED_TRACE(op);
    EXPECT_TRUE(checkOpGradients(
        op, {tensorType(c.input), tensorType(c.filter)}, tensorType(output),
        {randomTensor(c.input, 10 + i), randomTensor(c.filter, 20 + i)}));
  }
}

struct PoolCase {
  Shape input, window, strides, padding;
};

/// The pooling ops' attributes for `c`: window, strides and padding.
std::string poolAttrs(const PoolCase &c) {
  return "window = " + i64Array(c.window) +
         ", strides = " + i64Array(c.strides) +
         ", padding = " + i64Array(c.padding);
}

Shape poolOutput(const PoolCase &c) {
  return {c.input[0],
          outputSize(c.input[1], c.window[0], c.strides[0], c.padding[0],
                     c.padding[1]),
          outputSize(c.input[2], c.window[1], c.strides[1], c.padding[2],
                     c.padding[3]),
          c.input[3]};
}

std::string poolOp(const char *name, const PoolCase &c) {
  return std::string("%y = trace.") + name + " %arg0 {" + poolAttrs(c) +
         "} : " + tensorType(c.input) + " -> " + tensorType(poolOutput(c));
}

const std::vector<PoolCase> kPoolCases = {
    // Non-overlapping windows.
    {{1, 4, 4, 2}, {2, 2}, {2, 2}, {0, 0, 0, 0}},
    // Overlapping windows: one element can be the maximum of several.
    {{2, 5, 4, 3}, {3, 3}, {1, 1}, {0, 0, 0, 0}},
    // Padding on every side, stride 2.
    {{1, 5, 5, 2}, {3, 3}, {2, 2}, {1, 1, 1, 1}},
    // Asymmetric padding, window 3x2, strides [1, 2], batch 2.
    {{2, 4, 5, 2}, {3, 2}, {1, 2}, {0, 2, 1, 0}},
};

TEST(ConvPoolGradients, MaxPool2D) {
  for (auto [i, c] : llvm::enumerate(kPoolCases)) {
    std::string op = poolOp("max_pool2d", c);
    SCOPED_TRACE(op);
    EXPECT_TRUE(checkOpGradients(op, {tensorType(c.input)},
                                 tensorType(poolOutput(c)),
                                 {distinctTensor(c.input, 30 + i)}));
  }
}

/// All-negative inputs: a padding element counted as 0 would win the edge
/// windows and swallow their gradient.
TEST(ConvPoolGradients, MaxPool2DNegativeInputsWithPadding) {
  PoolCase c{{1, 4, 4, 2}, {3, 3}, {1, 1}, {1, 1, 2, 1}};
  Tensor input = distinctTensor(c.input, 40);
  for (int64_t i = 0; i < input.numElements(); ++i)
    input.data<double>()[i] = input.data<double>()[i] - 2; // in [-3, -1)
  std::string op = poolOp("max_pool2d", c);
  EXPECT_TRUE(checkOpGradients(op, {tensorType(c.input)},
                               tensorType(poolOutput(c)), {input}));
}

TEST(ConvPoolGradients, AvgPool2D) {
  std::vector<PoolCase> cases = kPoolCases;
  // Padding larger than the stride, so counts vary across the border.
  cases.push_back({{1, 5, 6, 3}, {3, 3}, {1, 2}, {2, 1, 2, 2}});
  for (auto [i, c] : llvm::enumerate(cases)) {
    std::string op = poolOp("avg_pool2d", c);
    SCOPED_TRACE(op);
    EXPECT_TRUE(checkOpGradients(op, {tensorType(c.input)},
                                 tensorType(poolOutput(c)),
                                 {randomTensor(c.input, 50 + i)}));
  }
}

/// sum(max_pool2d(x) * w) for w = 1, 10, 100, 1000 over the 2x2 output:
/// each input element's gradient shows which windows it won.
std::string weightedMaxPool(const std::string &attrs, const Shape &input) {
  return "func.func @f(%x: " + tensorType(input) +
         ") -> tensor<f64> {\n"
         "  %p = trace.max_pool2d %x {" +
         attrs + "} : " + tensorType(input) +
         " -> tensor<1x2x2x1xf64>\n"
         "  %w = trace.constant dense<[[[[1.0], [10.0]], [[100.0], "
         "[1000.0]]]]> : tensor<1x2x2x1xf64>\n"
         "  %m = trace.mul %p, %w : (tensor<1x2x2x1xf64>, "
         "tensor<1x2x2x1xf64>) -> tensor<1x2x2x1xf64>\n"
         "  %s = trace.reduce_sum %m {axes = array<i64: 0, 1, 2, 3>} : "
         "tensor<1x2x2x1xf64> -> tensor<f64>\n"
         "  return %s : tensor<f64>\n"
         "}\n";
}

/// On ties the FIRST maximum in row-major window order receives the
/// window's gradient.
TEST(ConvPoolGradients, MaxPool2DTiesGoToTheFirstMaximum) {
  // 3x3 input, 2x2 windows at stride 1:
  //   2 2 1      window (0,0): 2 2 / 2 0 -> (0,0)
  //   2 0 2      window (0,1): 2 1 / 0 2 -> (0,1)
  //   1 2 2      window (1,0): 2 0 / 1 2 -> (1,0)
  //              window (1,1): 0 2 / 2 2 -> (1,2)
  auto grads = evaluateGradients(
      weightedMaxPool("window = array<i64: 2, 2>", {1, 3, 3, 1}), "f",
      {*Tensor::fromVector<double>({2, 2, 1, 2, 0, 2, 1, 2, 2}, {1, 3, 3, 1})},
      {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  EXPECT_EQ((*grads)[0].toVector<double>(),
            std::vector<double>({1, 10, 0, 100, 0, 1000, 0, 0, 0}));
}

/// Padding never receives, and ties among the real elements of a partly
/// padded window still go to the first one.
TEST(ConvPoolGradients, MaxPool2DPaddingNeverReceives) {
  // A 2x2 input of equal negative values, padded by 1 at the top and the
  // left; every 2x2 window holds (0,0), which is first among its real
  // elements in all four windows.
  auto grads = evaluateGradients(
      weightedMaxPool(
          "window = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>",
          {1, 2, 2, 1}),
      "f", {*Tensor::fromVector<double>({-3, -3, -3, -3}, {1, 2, 2, 1})}, {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  EXPECT_EQ((*grads)[0].toVector<double>(),
            std::vector<double>({1111, 0, 0, 0}));
}

/// avg_pool2d's gradient exactly: each window's weight over its non-padding
/// count, summed per element.
TEST(ConvPoolGradients, AvgPool2DPaddingCounts) {
  // 2x2 input, 2x2 windows at stride 1 with padding [1, 0, 1, 0]: the
  // windows hold 1, 2, 2 and 4 real elements.
  std::string source = R"mlir(
func.func @f(%x: tensor<1x2x2x1xf64>) -> tensor<f64> {
  %p = trace.avg_pool2d %x {window = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : tensor<1x2x2x1xf64> -> tensor<1x2x2x1xf64>
  %w = trace.constant dense<[[[[1.0], [10.0]], [[100.0], [1000.0]]]]> : tensor<1x2x2x1xf64>
  %m = trace.mul %p, %w : (tensor<1x2x2x1xf64>, tensor<1x2x2x1xf64>) -> tensor<1x2x2x1xf64>
  %s = trace.reduce_sum %m {axes = array<i64: 0, 1, 2, 3>} : tensor<1x2x2x1xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(
      source, "f", {*Tensor::fromVector<double>({1, 2, 3, 4}, {1, 2, 2, 1})},
      {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // (0,0) is in all four windows, (0,1) in windows (0,1) and (1,1), (1,0)
  // in (1,0) and (1,1), (1,1) only in (1,1).
  std::vector<double> expected = {1 + 10.0 / 2 + 100.0 / 2 + 1000.0 / 4,
                                  10.0 / 2 + 1000.0 / 4, 100.0 / 2 + 1000.0 / 4,
                                  1000.0 / 4};
  std::vector<double> actual = (*grads)[0].toVector<double>();
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_DOUBLE_EQ(actual[i], expected[i]) << "element " << i;
}

/// The backprop ops are differentiable themselves (grad of grad).
TEST(ConvPoolGradients, Conv2DBackpropOps) {
  for (auto [i, c] : llvm::enumerate(kConvCases)) {
    Shape output = convOutput(c);
    std::string inputOp = "%y = trace.conv2d_backprop_input %arg0, %arg1 {" +
                          convAttrs(c) + ", input_shape = " +
                          i64Array(c.input) + "} : (" + tensorType(c.filter) +
                          ", " + tensorType(output) + ") -> " +
                          tensorType(c.input);
    SCOPED_TRACE(inputOp);
    EXPECT_TRUE(checkOpGradients(
        inputOp, {tensorType(c.filter), tensorType(output)},
        tensorType(c.input),
        {randomTensor(c.filter, 60 + i), randomTensor(output, 70 + i)}));
    std::string filterOp = "%y = trace.conv2d_backprop_filter %arg0, %arg1 {" +
                           convAttrs(c) + ", filter_shape = " +
                           i64Array(c.filter) + "} : (" + tensorType(c.input) +
                           ", " + tensorType(output) + ") -> " +
                           tensorType(c.filter);
    SCOPED_TRACE(filterOp);
    EXPECT_TRUE(checkOpGradients(
        filterOp, {tensorType(c.input), tensorType(output)},
        tensorType(c.filter),
        {randomTensor(c.input, 80 + i), randomTensor(output, 90 + i)}));
  }
}

TEST(ConvPoolGradients, AvgPool2DGradOp) {
  for (auto [i, c] : llvm::enumerate(kPoolCases)) {
    Shape output = poolOutput(c);
    std::string op =
        "%y = trace.avg_pool2d_grad %arg0 {input_shape = " + i64Array(c.input) +
        ", " + poolAttrs(c) + "} : " + tensorType(output) + " -> " +
        tensorType(c.input);
    SCOPED_TRACE(op);
    EXPECT_TRUE(checkOpGradients(op, {tensorType(output)}, tensorType(c.input),
                                 {randomTensor(output, 100 + i)}));
  }
}

/// max_pool2d_grad is linear in dy (adjoint: max_pool2d_select) and
/// piecewise constant in x (its gradient is zero while no window's maximum
/// changes: x's values are 2/n apart, far more than the step).
TEST(ConvPoolGradients, MaxPool2DGradOp) {
  for (auto [i, c] : llvm::enumerate(kPoolCases)) {
    Shape output = poolOutput(c);
    std::string op = "%y = trace.max_pool2d_grad %arg0, %arg1 {" +
                     poolAttrs(c) + "} : (" + tensorType(c.input) + ", " +
                     tensorType(output) + ") -> " + tensorType(c.input);
    SCOPED_TRACE(op);
    EXPECT_TRUE(checkOpGradients(
        op, {tensorType(c.input), tensorType(output)}, tensorType(c.input),
        {distinctTensor(c.input, 110 + i), randomTensor(output, 120 + i)}));
  }
}

/// max_pool2d_select(x, t) is linear in t (adjoint: max_pool2d_grad) and
/// piecewise constant in x.
TEST(ConvPoolGradients, MaxPool2DSelectOp) {
  for (auto [i, c] : llvm::enumerate(kPoolCases)) {
    Shape output = poolOutput(c);
    std::string op = "%y = trace.max_pool2d_select %arg0, %arg1 {" +
                     poolAttrs(c) + "} : (" + tensorType(c.input) + ", " +
                     tensorType(c.input) + ") -> " + tensorType(output);
    SCOPED_TRACE(op);
    EXPECT_TRUE(checkOpGradients(
        op, {tensorType(c.input), tensorType(c.input)}, tensorType(output),
        {distinctTensor(c.input, 130 + i), randomTensor(c.input, 140 + i)}));
  }
}

/// A third derivative through max_pool2d (max_pool2d -> max_pool2d_grad ->
/// max_pool2d_select -> max_pool2d_grad): f(x) = sum(max_pool2d(x)^4),
/// h(x, v) = sum(f'(x) * v) and k(x, v, u) = sum(dh/dx * u), whose
/// gradient with respect to x is f''' contracted with v and u. All three
/// gradients of k against central differences.
TEST(ConvPoolGradients, MaxPool2DThirdDerivative) {
  PoolCase c = kPoolCases[2];
  std::string in = tensorType(c.input), out = tensorType(poolOutput(c));
  std::string attrs = poolAttrs(c);
  std::string sum = "{axes = array<i64: 0, 1, 2, 3>} : ";
  std::string source =
      "func.func @f(%x: " + in + ") -> tensor<f64> {\n"
      "  %p = trace.max_pool2d %x {" + attrs + "} : " + in + " -> " + out +
      "\n  %p2 = trace.mul %p, %p : (" + out + ", " + out + ") -> " + out +
      "\n  %p4 = trace.mul %p2, %p2 : (" + out + ", " + out + ") -> " + out +
      "\n  %s = trace.reduce_sum %p4 " + sum + out + " -> tensor<f64>\n"
      "  return %s : tensor<f64>\n}\n"
      "func.func @h(%x: " + in + ", %v: " + in + ") -> tensor<f64> {\n"
      "  %g = trace.grad @f(%x) {wrt = array<i64: 0>} : (" + in + ") -> " +
      in + "\n  %m = trace.mul %g, %v : (" + in + ", " + in + ") -> " + in +
      "\n  %s = trace.reduce_sum %m " + sum + in + " -> tensor<f64>\n"
      "  return %s : tensor<f64>\n}\n"
      "func.func @k(%x: " + in + ", %v: " + in + ", %u: " + in +
      ") -> tensor<f64> {\n"
      "  %g:2 = trace.grad @h(%x, %v) {wrt = array<i64: 0, 1>} : (" + in +
      ", " + in + ") -> (" + in + ", " + in + ")\n"
      "  %m = trace.mul %g#0, %u : (" + in + ", " + in + ") -> " + in +
      "\n  %s = trace.reduce_sum %m " + sum + in + " -> tensor<f64>\n"
      "  return %s : tensor<f64>\n}\n";
  EXPECT_TRUE(checkGradients(source, "k",
                             {distinctTensor(c.input, 150),
                              randomTensor(c.input, 151),
                              randomTensor(c.input, 152)},
                             {0, 1, 2}));
}

} // namespace
