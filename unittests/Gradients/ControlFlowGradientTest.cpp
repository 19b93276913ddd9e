//===- ControlFlowGradientTest.cpp - Gradients through scf and calls ------===//

#include "GradientChecker.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

/// A recurrent loop: h <- tanh(h @ W + b), three times, with the matmul in
/// the body and W, b captured from above.
TEST(ControlFlowGradients, ForLoopWithMatmul) {
  std::string source = R"mlir(
func.func @f(%h0: tensor<2x3xf64>, %w: tensor<3x3xf64>, %b: tensor<3xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %h = scf.for %i = %c0 to %c3 step %c1 iter_args(%hi = %h0) -> (tensor<2x3xf64>) {
    %m = trace.matmul %hi, %w : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<2x3xf64>
    %a = trace.add %m, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
    %t = trace.tanh %a : tensor<2x3xf64>
    scf.yield %t : tensor<2x3xf64>
  }
  %sq = trace.mul %h, %h : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %s = trace.reduce_sum %sq {axes = array<i64: 0, 1>} : tensor<2x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradients(source, "f",
                             {randomTensor({2, 3}, 11), randomTensor({3, 3}, 12),
                              randomTensor({3}, 13)},
                             {0, 1, 2}));
}

/// A loop whose trip count is an argument (dynamic), accumulating into a
/// carried sum; zero trips leave only the initial value.
TEST(ControlFlowGradients, ForLoopWithDynamicTripCount) {
  std::string source = R"mlir(
func.func @f(%x: tensor<4xf64>, %n: tensor<i64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %zero = trace.constant dense<0.0> : tensor<4xf64>
  %acc, %p = scf.for %i = %c0 to %ni step %c1 iter_args(%s = %zero, %q = %x) -> (tensor<4xf64>, tensor<4xf64>) {
    %q2 = trace.mul %q, %x : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    %s2 = trace.add %s, %q : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    scf.yield %s2, %q2 : tensor<4xf64>, tensor<4xf64>
  }
  %r = trace.reduce_sum %acc {axes = array<i64: 0>} : tensor<4xf64> -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  for (int64_t n : {0, 1, 4}) {
    SCOPED_TRACE(n);
    EXPECT_TRUE(checkGradients(source, "f",
                               {randomTensor({4}, 14, 0.5, 1.5),
                                Tensor::scalar<int64_t>(n)},
                               {0}));
  }
}

/// A conditional: the branches compute different functions of x and of a
/// captured y.
TEST(ControlFlowGradients, Conditional) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>, %y: tensor<3xf64>, %flag: tensor<i1>) -> tensor<f64> {
  %c = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %c -> tensor<3xf64> {
    %e = trace.exp %x : tensor<3xf64>
    %m = trace.mul %e, %y : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.yield %m : tensor<3xf64>
  } else {
    %s = trace.sin %x : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  }
  %t = trace.mul %r, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %t {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  for (bool flag : {true, false}) {
    SCOPED_TRACE(flag);
    EXPECT_TRUE(checkGradients(
        source, "f",
        {randomTensor({3}, 15), randomTensor({3}, 16), Tensor::scalar<bool>(flag)},
        {0, 1}));
  }
}

/// A call chain f -> g -> h, with h called twice.
TEST(ControlFlowGradients, CallChain) {
  std::string source = R"mlir(
func.func private @h(%a: tensor<3xf64>) -> tensor<3xf64> {
  %t = trace.tanh %a : tensor<3xf64>
  return %t : tensor<3xf64>
}
func.func private @g(%a: tensor<3xf64>, %b: tensor<3xf64>) -> tensor<3xf64> {
  %p = trace.mul %a, %b : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %q = func.call @h(%p) : (tensor<3xf64>) -> tensor<3xf64>
  %r = func.call @h(%q) : (tensor<3xf64>) -> tensor<3xf64>
  return %r : tensor<3xf64>
}
func.func @f(%x: tensor<3xf64>, %y: tensor<3xf64>) -> tensor<f64> {
  %g = func.call @g(%x, %y) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %g {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradients(source, "f",
                             {randomTensor({3}, 17), randomTensor({3}, 18)},
                             {0, 1}));
}

/// One argument used three times: the three contributions are summed.
TEST(ControlFlowGradients, ArgumentUsedThreeTimes) {
  std::string source = R"mlir(
func.func @f(%x: tensor<2x2xf64>) -> tensor<f64> {
  %a = trace.mul %x, %x : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %b = trace.sin %x : tensor<2x2xf64>
  %c = trace.add %a, %b : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1>} : tensor<2x2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  auto grads = evaluateGradients(
      source, "f", {*Tensor::fromVector<double>({0, 1, -1, 2}, {2, 2})}, {0});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  std::vector<double> expected;
  for (double x : {0.0, 1.0, -1.0, 2.0})
    expected.push_back(2 * x + std::cos(x));
  std::vector<double> got = (*grads)[0].toVector<double>();
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(got[i], expected[i], 1e-12) << i;
  EXPECT_TRUE(checkGradients(source, "f", {randomTensor({2, 2}, 19)}, {0}));
}

} // namespace
