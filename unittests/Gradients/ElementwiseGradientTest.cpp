//===- ElementwiseGradientTest.cpp - Gradients of elementwise ops ---------===//

#include "GradientChecker.h"

#include <cmath>
#include <limits>

using namespace tracec;
using namespace tracec::testing;

namespace {

const std::string kMatrix = "tensor<3x4xf64>";

/// Every unary op on inputs inside its domain (log, sqrt, rsqrt, log1p need
/// positive values).
TEST(ElementwiseGradients, UnaryOps) {
  struct Case {
    const char *op;
    double low, high;
  };
  for (Case c : {Case{"neg", -2, 2}, {"abs", 0.1, 2}, {"exp", -2, 2},
                 {"log", 0.2, 3}, {"log1p", -0.5, 3}, {"sqrt", 0.2, 3},
                 {"rsqrt", 0.2, 3}, {"tanh", -2, 2}, {"sigmoid", -3, 3},
                 {"relu", 0.1, 2}, {"gelu", -3, 3}, {"erf", -2, 2},
                 {"sin", -3, 3}, {"cos", -3, 3}, {"sign", 0.1, 2},
                 {"floor", 0.1, 0.9}}) {
    SCOPED_TRACE(c.op);
    std::string op = std::string("%y = trace.") + c.op + " %arg0 : " + kMatrix;
    EXPECT_TRUE(checkOpGradients(op, {kMatrix}, kMatrix,
                                 {randomTensor({3, 4}, 1, c.low, c.high)}));
  }
  // Negative inputs exercise abs's and relu's other side.
  EXPECT_TRUE(checkOpGradients("%y = trace.abs %arg0 : " + kMatrix, {kMatrix},
                               kMatrix, {randomTensor({3, 4}, 2, -2, -0.1)}));
  EXPECT_TRUE(checkOpGradients("%y = trace.relu %arg0 : " + kMatrix, {kMatrix},
                               kMatrix, {randomTensor({3, 4}, 2, -2, -0.1)}));
}

TEST(ElementwiseGradients, BinaryOpsWithBroadcasting) {
  // Same shape, a broadcast row, a size-1 column, and a scalar: the
  // cotangent of a broadcast operand is summed back to its shape.
  struct Shapes {
    std::vector<int64_t> lhs, rhs, result;
    std::string lhsType, rhsType, resultType;
  };
  std::vector<Shapes> shapes = {
      {{3, 4}, {3, 4}, {3, 4}, kMatrix, kMatrix, kMatrix},
      {{3, 4}, {4}, {3, 4}, kMatrix, "tensor<4xf64>", kMatrix},
      {{3, 1}, {1, 4}, {3, 4}, "tensor<3x1xf64>", "tensor<1x4xf64>", kMatrix},
      {{}, {2, 3, 4}, {2, 3, 4}, "tensor<f64>", "tensor<2x3x4xf64>",
       "tensor<2x3x4xf64>"}};
  for (const char *op :
       {"add", "sub", "mul", "div", "rem", "pow", "max", "min"}) {
    for (const Shapes &s : shapes) {
      SCOPED_TRACE(std::string(op) + " " + s.lhsType + ", " + s.rhsType);
      // pow needs a positive base; div and rem a divisor away from 0 (rem
      // jumps where lhs / rhs is an integer: the seeded draws keep clear of
      // those by far more than the difference step).
      Tensor lhs = randomTensor(s.lhs, 3, 0.5, 2);
      Tensor rhs = randomTensor(s.rhs, 4, 0.5, 2);
      std::string text = std::string("%y = trace.") + op + " %arg0, %arg1 : (" +
                         s.lhsType + ", " + s.rhsType + ") -> " + s.resultType;
      EXPECT_TRUE(checkOpGradients(text, {s.lhsType, s.rhsType}, s.resultType,
                                   {lhs, rhs}));
    }
  }
}

TEST(ElementwiseGradients, SelectAndCast) {
  std::string source = R"mlir(
func.func @f(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<f64> {
  %c = trace.gt %x, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  %s = trace.select %c, %x, %y : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %h = trace.cast %s : tensor<4xf64> to tensor<4xf32>
  %e = trace.exp %h : tensor<4xf32>
  %d = trace.cast %e : tensor<4xf32> to tensor<4xf64>
  %p = trace.mul %d, %x : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %r = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf64> -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  // The f32 round trip limits the precision: check only the select
  // routing here, through values whose f32 error stays under tolerance.
  auto grads = evaluateGradients(
      source, "f",
      {*Tensor::fromVector<double>({1, -1, 0.5, 2}, {4}),
       *Tensor::fromVector<double>({0, 0, 1, 1}, {4})},
      {0, 1});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // x wins at 0, 3; y wins at 1, 2. d/dx = [e^x (1 + x)] where x wins, e^y
  // elsewhere; d/dy = x e^y where y wins.
  std::vector<double> dx = (*grads)[0].toVector<double>();
  std::vector<double> dy = (*grads)[1].toVector<double>();
  EXPECT_NEAR(dx[0], std::exp(1.0) * 2, 1e-5);
  EXPECT_NEAR(dx[1], std::exp(0.0), 1e-6);
  EXPECT_NEAR(dx[2], std::exp(1.0), 1e-5);
  EXPECT_NEAR(dx[3], std::exp(2.0) * 3, 1e-4);
  EXPECT_NEAR(dy[0], 0, 1e-12);
  EXPECT_NEAR(dy[1], -1 * std::exp(0.0), 1e-6);
  EXPECT_NEAR(dy[2], 0.5 * std::exp(1.0), 1e-5);
  EXPECT_NEAR(dy[3], 0, 1e-12);
}

/// stop_gradient is the identity forward and blocks the gradient: finite
/// differences cannot see that, so it is checked exactly.
TEST(ElementwiseGradients, StopGradientBlocksTheGradient) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>) -> tensor<f64> {
  %s = trace.stop_gradient %x : tensor<3xf64>
  %p = trace.mul %s, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %t = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %t : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(
      source, "f", {*Tensor::fromVector<double>({1, -2, 3}, {3})}, {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // d/dx sum(stop(x) * x) = stop(x) = x, not 2x.
  EXPECT_EQ((*grads)[0].toVector<double>(), std::vector<double>({1, -2, 3}));
}

/// The subgradients chosen at kinks, checked exactly.
TEST(ElementwiseGradients, KinksFollowTheDocumentedChoice) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>, %y: tensor<3xf64>) -> tensor<f64> {
  %r = trace.relu %x : tensor<3xf64>
  %m = trace.max %x, %y : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %a = trace.abs %x : tensor<3xf64>
  %s1 = trace.add %r, %m : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s2 = trace.add %s1, %a : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %t = trace.reduce_sum %s2 {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %t : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(
      source, "f",
      {*Tensor::fromVector<double>({0, 0, 2}, {3}),
       *Tensor::fromVector<double>({0, 1, 2}, {3})},
      {0, 1});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // relu'(0) = 0, abs'(0) = 0, max ties split 0.5 / 0.5.
  EXPECT_EQ((*grads)[0].toVector<double>(), std::vector<double>({0.5, 0, 2.5}));
  EXPECT_EQ((*grads)[1].toVector<double>(), std::vector<double>({0.5, 1, 0.5}));
}

/// pow(x, y) where the formulas y x^(y-1) and x^y log(x) are 0 * inf or log
/// of a non-positive number: PyTorch's and JAX's convention. The expected
/// values are torch.autograd's (PyTorch 1.13, f64, torch.pow(x, y).backward()
/// for each pair):
///   (x, y)      d/dx    d/dy
///   (0, 0)      0       0
///   (0, 2)      0       0
///   (0, 0.5)    inf     0
///   (0, -1)     -inf    -inf
///   (-2, 0)     0       nan
///   (-2, 3)     12      nan
///   (2, 0)      0       log(2)
///   (3, 2)      6       9 log(3)
TEST(ElementwiseGradients, PowAtZeroAndNegativeBasesFollowsPyTorch) {
  std::string source = R"mlir(
func.func @f(%x: tensor<8xf64>, %y: tensor<8xf64>) -> tensor<f64> {
  %p = trace.pow %x, %y : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
  %t = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<8xf64> -> tensor<f64>
  return %t : tensor<f64>
}
)mlir";
  double inf = std::numeric_limits<double>::infinity();
  auto grads = evaluateGradients(
      source, "f",
      {*Tensor::fromVector<double>({0, 0, 0, 0, -2, -2, 2, 3}, {8}),
       *Tensor::fromVector<double>({0, 2, 0.5, -1, 0, 3, 0, 2}, {8})},
      {0, 1});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  std::vector<double> dx = (*grads)[0].toVector<double>();
  std::vector<double> dy = (*grads)[1].toVector<double>();
  std::vector<double> expectedDx = {0, 0, inf, -inf, 0, 12, 0, 6};
  for (size_t i = 0; i < expectedDx.size(); ++i)
    EXPECT_DOUBLE_EQ(dx[i], expectedDx[i]) << "d/dx at " << i;
  EXPECT_EQ(dy[0], 0);
  EXPECT_EQ(dy[1], 0);
  EXPECT_EQ(dy[2], 0);
  EXPECT_EQ(dy[3], -inf);
  EXPECT_TRUE(std::isnan(dy[4])) << dy[4];
  EXPECT_TRUE(std::isnan(dy[5])) << dy[5];
  EXPECT_NEAR(dy[6], 0.6931471805599453, 1e-12);
  EXPECT_NEAR(dy[7], 9.887510598012987, 1e-12);
}

TEST(LinearAlgebraGradients, MatmulEveryLayout) {
  struct Case {
    std::string attrs, lhsType, rhsType, resultType;
    std::vector<int64_t> lhs, rhs;
  };
  for (const Case &c : std::vector<Case>{
           {"", "tensor<3x4xf64>", "tensor<4x2xf64>", "tensor<3x2xf64>", {3, 4}, {4, 2}},
           {"{transpose_a}", "tensor<4x3xf64>", "tensor<4x2xf64>", "tensor<3x2xf64>", {4, 3}, {4, 2}},
           {"{transpose_b}", "tensor<3x4xf64>", "tensor<2x4xf64>", "tensor<3x2xf64>", {3, 4}, {2, 4}},
           {"{transpose_a, transpose_b}", "tensor<4x3xf64>", "tensor<2x4xf64>", "tensor<3x2xf64>", {4, 3}, {2, 4}},
           {"", "tensor<5x3x4xf64>", "tensor<4x2xf64>", "tensor<5x3x2xf64>", {5, 3, 4}, {4, 2}},
           {"", "tensor<2x1x3x4xf64>", "tensor<3x4x2xf64>", "tensor<2x3x3x2xf64>", {2, 1, 3, 4}, {3, 4, 2}}}) {
    SCOPED_TRACE(c.attrs + " " + c.lhsType + " @ " + c.rhsType);
    std::string text = "%y = trace.matmul %arg0, %arg1 " + c.attrs + " : (" +
                       c.lhsType + ", " + c.rhsType + ") -> " + c.resultType;
    EXPECT_TRUE(checkOpGradients(text, {c.lhsType, c.rhsType}, c.resultType,
                                 {randomTensor(c.lhs, 5), randomTensor(c.rhs, 6)}));
  }
}

TEST(ReductionGradients, SumAndMean) {
  for (const char *op : {"reduce_sum", "reduce_mean"}) {
    SCOPED_TRACE(op);
    std::string x = "tensor<2x3x4xf64>";
    EXPECT_TRUE(checkOpGradients(std::string("%y = trace.") + op +
                                     " %arg0 {axes = array<i64: 0, -1>} : " +
                                     x + " -> tensor<3xf64>",
                                 {x}, "tensor<3xf64>",
                                 {randomTensor({2, 3, 4}, 7)}));
    EXPECT_TRUE(checkOpGradients(std::string("%y = trace.") + op +
                                     " %arg0 {axes = array<i64: 1>, keepdims} : " +
                                     x + " -> tensor<2x1x4xf64>",
                                 {x}, "tensor<2x1x4xf64>",
                                 {randomTensor({2, 3, 4}, 8)}));
    EXPECT_TRUE(checkOpGradients(std::string("%y = trace.") + op +
                                     " %arg0 {axes = array<i64: 0, 1, 2>} : " +
                                     x + " -> tensor<f64>",
                                 {x}, "tensor<f64>",
                                 {randomTensor({2, 3, 4}, 9)}));
  }
}

} // namespace
