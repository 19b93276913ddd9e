//===- HigherOrderGradientTest.cpp - grad of grad -------------------------===//

#include "GradientChecker.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

/// d2/dx2 tanh(x) = -2 tanh(x) (1 - tanh(x)^2), from grad of grad.
TEST(HigherOrderGradients, SecondDerivativeOfTanh) {
  std::string source = R"mlir(
func.func @f(%x: tensor<f64>) -> tensor<f64> {
  %t = trace.tanh %x : tensor<f64>
  return %t : tensor<f64>
}
func.func @df(%x: tensor<f64>) -> tensor<f64> {
  %g = trace.grad @f(%x) {wrt = array<i64: 0>} : (tensor<f64>) -> tensor<f64>
  return %g : tensor<f64>
}
)mlir";
  for (double x : {-1.5, -0.3, 0.0, 0.7, 2.0}) {
    SCOPED_TRACE(x);
    auto grads = evaluateGradients(source, "df", {Tensor::scalar<double>(x)}, {0});
    ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
    double t = std::tanh(x);
    EXPECT_NEAR((*grads)[0].elementAsDouble(0), -2 * t * (1 - t * t), 1e-12);
    // And against central differences of the first derivative.
    EXPECT_TRUE(checkGradients(source, "df", {Tensor::scalar<double>(x)}, {0}));
  }
}

/// A Hessian-vector product by reverse-over-reverse: H v = grad_x (grad_x
/// f(x) . v), for f(x) = sum(exp(W x) * x) with a full Hessian.
TEST(HigherOrderGradients, HessianVectorProduct) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>, %w: tensor<3x3xf64>) -> tensor<f64> {
  %xc = trace.reshape %x : tensor<3xf64> -> tensor<3x1xf64>
  %wx = trace.matmul %w, %xc : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %flat = trace.reshape %wx : tensor<3x1xf64> -> tensor<3xf64>
  %e = trace.exp %flat : tensor<3xf64>
  %p = trace.mul %e, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @gv(%x: tensor<3xf64>, %w: tensor<3x3xf64>, %v: tensor<3xf64>) -> tensor<f64> {
  %g = trace.grad @f(%x, %w) {wrt = array<i64: 0>} : (tensor<3xf64>, tensor<3x3xf64>) -> tensor<3xf64>
  %p = trace.mul %g, %v : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  Tensor x = randomTensor({3}, 21, -0.5, 0.5);
  Tensor w = randomTensor({3, 3}, 22, -0.5, 0.5);
  Tensor v = randomTensor({3}, 23);
  auto hv = evaluateGradients(source, "gv", {x, w, v}, {0});
  ASSERT_TRUE(bool(hv)) << llvm::toString(hv.takeError());

  // The Hessian of f(x) = sum_i exp((Wx)_i) x_i, computed by hand:
  // d f / d x_k = exp(u_k) + sum_i exp(u_i) x_i W_ik, u = W x
  // H_kl = exp(u_k) W_kl + exp(u_l) W_lk + sum_i exp(u_i) x_i W_ik W_il
  std::vector<double> xs = x.toVector<double>(), ws = w.toVector<double>(),
                      vs = v.toVector<double>();
  auto W = [&](int i, int j) { return ws[i * 3 + j]; };
  double u[3];
  for (int i = 0; i < 3; ++i)
    u[i] = W(i, 0) * xs[0] + W(i, 1) * xs[1] + W(i, 2) * xs[2];
  for (int k = 0; k < 3; ++k) {
    double expected = 0;
    for (int l = 0; l < 3; ++l) {
      double h = std::exp(u[k]) * W(k, l) + std::exp(u[l]) * W(l, k);
      for (int i = 0; i < 3; ++i)
        h += std::exp(u[i]) * xs[i] * W(i, k) * W(i, l);
      expected += h * vs[l];
    }
    EXPECT_NEAR((*hv)[0].elementAsDouble(k), expected, 1e-10) << k;
  }
  // Also against central differences of grad . v.
  EXPECT_TRUE(checkGradients(source, "gv", {x, w, v}, {0}));
}

/// Reverse-over-reverse through a loop: the gradient's forward function
/// tapes the carried values in an scf.for, its backward function reads
/// them back; differentiating both again gives H v, checked against central
/// differences of grad . v, at a static trip count and at one known only at
/// run time (the tapes are `?` rows).
TEST(HigherOrderGradients, HessianVectorProductThroughALoop) {
  for (bool dynamicTrips : {false, true}) {
    SCOPED_TRACE(dynamicTrips ? "dynamic trips" : "static trips");
    std::string trips = dynamicTrips ? "%n = tensor.dim %x, %c0 : tensor<?xf64>"
                                     : "%n = arith.constant 3 : index";
    std::string type = dynamicTrips ? "tensor<?xf64>" : "tensor<3xf64>";
    std::string source = R"mlir(
func.func @loss(%x: TYPE, %w: tensor<3x3xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  TRIPS
  %z = trace.constant dense<[0.5, -0.25, 1.0]> : tensor<3xf64>
  %y = scf.for %i = %c0 to %n step %c1 iter_args(%h = %z) -> (tensor<3xf64>) {
    %r = trace.reshape %h : tensor<3xf64> -> tensor<1x3xf64>
    %m = trace.matmul %r, %w : (tensor<1x3xf64>, tensor<3x3xf64>) -> tensor<1x3xf64>
    %t = trace.tanh %m : tensor<1x3xf64>
    %f = trace.reshape %t : tensor<1x3xf64> -> tensor<3xf64>
    %g = trace.mul %f, %h : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.yield %g : tensor<3xf64>
  }
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @gv(%x: TYPE, %w: tensor<3x3xf64>, %v: tensor<3x3xf64>) -> tensor<f64> {
  %g = trace.grad @loss(%x, %w) {wrt = array<i64: 1>} : (TYPE, tensor<3x3xf64>) -> tensor<3x3xf64>
  %p = trace.mul %g, %v : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0, 1>} : tensor<3x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
    for (auto [from, to] : {std::pair<std::string, std::string>{"TRIPS", trips},
                            {"TYPE", type}})
      for (size_t at; (at = source.find(from)) != std::string::npos;)
        source.replace(at, from.size(), to);
    // Five iterations: the tapes have more rows than the carry has
    // elements, so a row mixed up with a column shows.
    Tensor x = randomTensor({dynamicTrips ? 5 : 3}, 31);
    EXPECT_TRUE(checkGradients(source, "gv",
                               {x, randomTensor({3, 3}, 32, -0.8, 0.8),
                                randomTensor({3, 3}, 33)},
                               {1, 2}));
  }
}

/// grad of grad through nested loops: the inner loop's tapes are carried
/// by the outer loop's gradient.
TEST(HigherOrderGradients, SecondDerivativeThroughNestedLoops) {
  std::string source = R"mlir(
func.func @f(%x: tensor<2xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<2xf64>) {
    %s = trace.sin %a : tensor<2xf64>
    %b = scf.for %j = %c0 to %c3 step %c1 iter_args(%c = %s) -> (tensor<2xf64>) {
      %e = trace.mul %c, %a : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
      %t = trace.tanh %e : tensor<2xf64>
      scf.yield %t : tensor<2xf64>
    }
    %n = trace.add %b, %a : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    scf.yield %n : tensor<2xf64>
  }
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @gv(%x: tensor<2xf64>, %v: tensor<2xf64>) -> tensor<f64> {
  %g = trace.grad @f(%x) {wrt = array<i64: 0>} : (tensor<2xf64>) -> tensor<2xf64>
  %p = trace.mul %g, %v : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradients(source, "gv",
                             {randomTensor({2}, 41, -0.7, 0.7),
                              randomTensor({2}, 42)},
                             {0, 1}));
}

} // namespace
