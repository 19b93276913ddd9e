//===- WhileGradientTest.cpp - Gradients through scf.while ----------------===//
//
// scf.while with trip counts that depend on the data: finite differences
// (the trip count does not change within the tiny steps), Newton's square
// root against its analytic derivative, nested loops, a loop in a called
// function, and a loop long enough to grow the tape several times.
//
//===----------------------------------------------------------------------===//

#include "GradientChecker.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

/// v <- tanh(v) * w / 2 while |v|^2 > 0.5: the trip count depends on x and
/// w; w is captured by the body.
TEST(WhileGradients, ContractionToAThreshold) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<f64> {
  %lim = trace.constant dense<0.5> : tensor<f64>
  %half = trace.constant dense<0.5> : tensor<3xf64>
  %r = scf.while (%v = %x) : (tensor<3xf64>) -> tensor<3xf64> {
    %sq = trace.mul %v, %v : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s = trace.reduce_sum %sq {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
    %big = trace.gt %s, %lim : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %b = tensor.extract %big[] : tensor<i1>
    scf.condition(%b) %v : tensor<3xf64>
  } do {
  ^bb0(%v: tensor<3xf64>):
    %t = trace.tanh %v : tensor<3xf64>
    %m = trace.mul %t, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %h = trace.mul %m, %half : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.yield %h : tensor<3xf64>
  }
  %e = trace.exp %r : tensor<3xf64>
  %p = trace.mul %e, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  for (unsigned seed : {21u, 22u, 23u}) {
    SCOPED_TRACE(seed);
    EXPECT_TRUE(checkGradients(source, "f",
                               {randomTensor({3}, seed, 0.5, 2.0),
                                randomTensor({3}, seed + 10, 0.5, 1.5)},
                               {0, 1}));
  }
  // No iteration at all: only the exiting condition runs; r = x.
  EXPECT_TRUE(checkGradients(source, "f",
                             {randomTensor({3}, 24, 0.1, 0.3),
                              randomTensor({3}, 25, 0.5, 1.5)},
                             {0, 1}));
}

/// A do-while: `before` computes the values it forwards (sin(v @ w) and the
/// incremented counter, both taped), `after` adds the captured x.
TEST(WhileGradients, BeforeRegionComputesForwardedValues) {
  std::string source = R"mlir(
func.func @f(%x: tensor<2x2xf64>, %w: tensor<2x2xf64>, %n: tensor<i32>) -> tensor<f64> {
  %zero = trace.constant dense<0> : tensor<i32>
  %one = trace.constant dense<1> : tensor<i32>
  %r:2 = scf.while (%v = %x, %i = %zero) : (tensor<2x2xf64>, tensor<i32>) -> (tensor<2x2xf64>, tensor<i32>) {
    %m = trace.matmul %v, %w : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %t = trace.sin %m : tensor<2x2xf64>
    %i1 = trace.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %go = trace.lt %i1, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %b = tensor.extract %go[] : tensor<i1>
    scf.condition(%b) %t, %i1 : tensor<2x2xf64>, tensor<i32>
  } do {
  ^bb0(%t: tensor<2x2xf64>, %i1: tensor<i32>):
    %u = trace.add %t, %x : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    scf.yield %u, %i1 : tensor<2x2xf64>, tensor<i32>
  }
  %sq = trace.mul %r#0, %r#0 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %s = trace.reduce_sum %sq {axes = array<i64: 0, 1>} : tensor<2x2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  for (int32_t n : {0, 1, 2, 5}) {
    SCOPED_TRACE(n);
    EXPECT_TRUE(checkGradients(source, "f",
                               {randomTensor({2, 2}, 31), randomTensor({2, 2}, 32),
                                Tensor::scalar<int32_t>(n)},
                               {0, 1}));
  }
}

/// `?` carried values: one compiled gradient for every size (and every
/// trip count).
TEST(WhileGradients, DynamicShapes) {
  std::string source = R"mlir(
func.func @f(%x: tensor<?xf64>, %w: tensor<?xf64>) -> tensor<f64> {
  %lim = trace.constant dense<0.2> : tensor<f64>
  %r = scf.while (%v = %x) : (tensor<?xf64>) -> tensor<?xf64> {
    %a = trace.abs %v : tensor<?xf64>
    %m = trace.reduce_max %a {axes = array<i64: 0>} : tensor<?xf64> -> tensor<f64>
    %big = trace.gt %m, %lim : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %b = tensor.extract %big[] : tensor<i1>
    scf.condition(%b) %v : tensor<?xf64>
  } do {
  ^bb0(%v: tensor<?xf64>):
    %g = trace.sigmoid %w : tensor<?xf64>
    %h = trace.mul %v, %g : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>
    %s = trace.sin %h : tensor<?xf64>
    scf.yield %s : tensor<?xf64>
  }
  %sq = trace.mul %r, %x : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>
  %s = trace.reduce_sum %sq {axes = array<i64: 0>} : tensor<?xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  std::vector<std::vector<Tensor>> sets;
  for (int64_t size : {1, 2, 5})
    sets.push_back({randomTensor({size}, 40 + size, 0.5, 1.5),
                    randomTensor({size}, 50 + size, -0.5, 0.5)});
  EXPECT_TRUE(checkGradientsAtSizes(source, "f", sets, {0, 1}));
}

/// Newton's iteration for sqrt(a), run until |x^2 - a| <= 1e-12 a: the trip
/// count depends on a (more iterations for a far from the start 1). Its
/// derivative is 1/(2 sqrt(a)) once converged.
constexpr const char *kNewtonSqrt = R"mlir(
func.func @sqrt(%a: tensor<f64>) -> tensor<f64> {
  %half = trace.constant dense<0.5> : tensor<f64>
  %one = trace.constant dense<1.0> : tensor<f64>
  %tol = trace.constant dense<1.0e-12> : tensor<f64>
  %zero = trace.constant dense<0> : tensor<i64>
  %inc = trace.constant dense<1> : tensor<i64>
  %ta = trace.mul %a, %tol : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %r:2 = scf.while (%x = %one, %k = %zero) : (tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<i64>) {
    %x2 = trace.mul %x, %x : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %d = trace.sub %x2, %a : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %e = trace.abs %d : tensor<f64>
    %far = trace.gt %e, %ta : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %b = tensor.extract %far[] : tensor<i1>
    scf.condition(%b) %x, %k : tensor<f64>, tensor<i64>
  } do {
  ^bb0(%x: tensor<f64>, %k: tensor<i64>):
    %q = trace.div %a, %x : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %s = trace.add %x, %q : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %n = trace.mul %s, %half : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %k1 = trace.add %k, %inc : (tensor<i64>, tensor<i64>) -> tensor<i64>
    scf.yield %n, %k1 : tensor<f64>, tensor<i64>
  }
  return %r#0 : tensor<f64>
}
)mlir";

TEST(WhileGradients, NewtonSquareRootMatchesTheAnalyticDerivative) {
  for (double a : {0.01, 0.5, 2.0, 9.0, 1.0e4}) {
    SCOPED_TRACE(a);
    auto grads =
        evaluateGradients(kNewtonSqrt, "sqrt", {Tensor::scalar<double>(a)}, {0});
    ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
    double expected = 1 / (2 * std::sqrt(a));
    EXPECT_NEAR((*grads)[0].elementAsDouble(0), expected, 1e-9 * expected);
  }
}

/// A while in a while: the inner loop's trip count depends on the outer
/// carried value; the outer loop runs n times (a counter carried as i64).
TEST(WhileGradients, NestedWhileLoops) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>) -> tensor<f64> {
  %lim = trace.constant dense<0.3> : tensor<f64>
  %half = trace.constant dense<0.5> : tensor<3xf64>
  %zero = trace.constant dense<0> : tensor<i64>
  %one = trace.constant dense<1> : tensor<i64>
  %r:2 = scf.while (%v = %x, %i = %zero) : (tensor<3xf64>, tensor<i64>) -> (tensor<3xf64>, tensor<i64>) {
    %go = trace.lt %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %b = tensor.extract %go[] : tensor<i1>
    scf.condition(%b) %v, %i : tensor<3xf64>, tensor<i64>
  } do {
  ^bb0(%v: tensor<3xf64>, %i: tensor<i64>):
    %u = scf.while (%a = %v) : (tensor<3xf64>) -> tensor<3xf64> {
      %sq = trace.mul %a, %a : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      %s = trace.reduce_sum %sq {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
      %big = trace.gt %s, %lim : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %c = tensor.extract %big[] : tensor<i1>
      scf.condition(%c) %a : tensor<3xf64>
    } do {
    ^bb0(%a: tensor<3xf64>):
      %t = trace.tanh %a : tensor<3xf64>
      %m = trace.mul %t, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      %h = trace.mul %m, %half : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      scf.yield %h : tensor<3xf64>
    }
    %sx = trace.sin %x : tensor<3xf64>
    %next = trace.add %u, %sx : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %i1 = trace.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    scf.yield %next, %i1 : tensor<3xf64>, tensor<i64>
  }
  %e = trace.mul %r#0, %r#0 : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  for (int64_t n : {0, 1, 3}) {
    SCOPED_TRACE(n);
    EXPECT_TRUE(checkGradients(source, "f",
                               {randomTensor({3}, 61, 0.5, 1.5),
                                randomTensor({3}, 62, 0.5, 1.5),
                                Tensor::scalar<int64_t>(n)},
                               {0, 1}));
  }
}

/// An scf.for in a while, and a while in an scf.for.
TEST(WhileGradients, ForAndWhileNestedEitherWay) {
  std::string source = R"mlir(
func.func @f(%x: tensor<2xf64>, %w: tensor<2xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %lim = trace.constant dense<0.1> : tensor<f64>
  %scale = trace.constant dense<0.6> : tensor<2xf64>
  // for { while }: each iteration shrinks until small, then adds w.
  %p = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<2xf64>) {
    %u = scf.while (%a = %acc) : (tensor<2xf64>) -> tensor<2xf64> {
      %sq = trace.mul %a, %a : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
      %s = trace.reduce_sum %sq {axes = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
      %big = trace.gt %s, %lim : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %c = tensor.extract %big[] : tensor<i1>
      scf.condition(%c) %a : tensor<2xf64>
    } do {
    ^bb0(%a: tensor<2xf64>):
      %t = trace.sin %a : tensor<2xf64>
      %h = trace.mul %t, %scale : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
      scf.yield %h : tensor<2xf64>
    }
    %next = trace.add %u, %w : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    scf.yield %next : tensor<2xf64>
  }
  // while { for }: three tanh steps per iteration while the sum is large
  // (|tanh(b) w| <= 1.2, times 0.6: the sum shrinks).
  %two = trace.constant dense<0.5> : tensor<f64>
  %q = scf.while (%v = %p) : (tensor<2xf64>) -> tensor<2xf64> {
    %s = trace.reduce_sum %v {axes = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
    %big = trace.gt %s, %two : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %c = tensor.extract %big[] : tensor<i1>
    scf.condition(%c) %v : tensor<2xf64>
  } do {
  ^bb0(%v: tensor<2xf64>):
    %r = scf.for %j = %c0 to %c3 step %c1 iter_args(%b = %v) -> (tensor<2xf64>) {
      %t = trace.tanh %b : tensor<2xf64>
      %m = trace.mul %t, %w : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
      scf.yield %m : tensor<2xf64>
    }
    %h = trace.mul %r, %scale : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    scf.yield %h : tensor<2xf64>
  }
  %e = trace.exp %q : tensor<2xf64>
  %s = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  for (unsigned seed : {71u, 72u}) {
    SCOPED_TRACE(seed);
    EXPECT_TRUE(checkGradients(source, "f",
                               {randomTensor({2}, seed, 0.5, 1.5),
                                randomTensor({2}, seed + 10, 0.8, 1.2)},
                               {0, 1}));
  }
}

/// A while in a called function, called twice.
TEST(WhileGradients, WhileInACalledFunction) {
  std::string source = std::string(kNewtonSqrt) + R"mlir(
func.func @f(%a: tensor<f64>, %b: tensor<f64>) -> tensor<f64> {
  %s = func.call @sqrt(%a) : (tensor<f64>) -> tensor<f64>
  %ab = trace.mul %a, %b : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %t = func.call @sqrt(%ab) : (tensor<f64>) -> tensor<f64>
  %r = trace.mul %s, %t : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  // f = sqrt(a) sqrt(ab) = a sqrt(b): df/da = sqrt(b), df/db = a / (2 sqrt(b)).
  double a = 3.0, b = 7.0;
  auto grads = evaluateGradients(
      source, "f", {Tensor::scalar<double>(a), Tensor::scalar<double>(b)},
      {0, 1});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  EXPECT_NEAR((*grads)[0].elementAsDouble(0), std::sqrt(b), 1e-9);
  EXPECT_NEAR((*grads)[1].elementAsDouble(0), a / (2 * std::sqrt(b)), 1e-9);
  EXPECT_TRUE(checkGradients(source, "f",
                             {Tensor::scalar<double>(a), Tensor::scalar<double>(b)},
                             {0, 1}));
}

/// 1000 iterations: the tape starts with 16 rows and doubles six times
/// (to 1024). v <- v + sin(v * w) / 1000 while k < n; compared with finite
/// differences, and with the same loop written as scf.for, whose gradient
/// has a tape sized before it runs.
TEST(WhileGradients, LongLoopGrowsTheTape) {
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = trace.constant dense<0> : tensor<i64>
  %one = trace.constant dense<1> : tensor<i64>
  %eps = trace.constant dense<1.0e-3> : tensor<3xf64>
  %r:2 = scf.while (%v = %x, %k = %zero) : (tensor<3xf64>, tensor<i64>) -> (tensor<3xf64>, tensor<i64>) {
    %go = trace.lt %k, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %b = tensor.extract %go[] : tensor<i1>
    scf.condition(%b) %v, %k : tensor<3xf64>, tensor<i64>
  } do {
  ^bb0(%v: tensor<3xf64>, %k: tensor<i64>):
    %m = trace.mul %v, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s = trace.sin %m : tensor<3xf64>
    %d = trace.mul %s, %eps : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %v1 = trace.add %v, %d : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %k1 = trace.add %k, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    scf.yield %v1, %k1 : tensor<3xf64>, tensor<i64>
  }
  %s = trace.reduce_sum %r#0 {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @g(%x: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %eps = trace.constant dense<1.0e-3> : tensor<3xf64>
  %r = scf.for %i = %c0 to %ni step %c1 iter_args(%v = %x) -> (tensor<3xf64>) {
    %m = trace.mul %v, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s = trace.sin %m : tensor<3xf64>
    %d = trace.mul %s, %eps : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %v1 = trace.add %v, %d : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.yield %v1 : tensor<3xf64>
  }
  %s = trace.reduce_sum %r {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  std::vector<Tensor> inputs = {randomTensor({3}, 81), randomTensor({3}, 82),
                                Tensor::scalar<int64_t>(1000)};
  EXPECT_TRUE(checkGradients(source, "f", inputs, {0, 1}));
  auto whileGrads = evaluateGradients(source, "f", inputs, {0, 1});
  auto forGrads = evaluateGradients(source, "g", inputs, {0, 1});
  ASSERT_TRUE(bool(whileGrads)) << llvm::toString(whileGrads.takeError());
  ASSERT_TRUE(bool(forGrads)) << llvm::toString(forGrads.takeError());
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR((*whileGrads)[k].elementAsDouble(i),
                  (*forGrads)[k].elementAsDouble(i), 1e-12)
          << k << ", " << i;
}

/// grad of grad through a while loop: d2/da2 sqrt(a) = -1 / (4 a^1.5), with
/// Newton's iterations run to a tolerance, and against central differences
/// of the first derivative.
TEST(WhileGradients, NewtonSquareRootSecondDerivative) {
  std::string source = std::string(kNewtonSqrt) + R"mlir(
func.func @dsqrt(%a: tensor<f64>) -> tensor<f64> {
  %g = trace.grad @sqrt(%a) {wrt = array<i64: 0>} : (tensor<f64>) -> tensor<f64>
  return %g : tensor<f64>
}
)mlir";
  for (double a : {0.01, 2.0, 1.0e4}) {
    SCOPED_TRACE(a);
    auto grads =
        evaluateGradients(source, "dsqrt", {Tensor::scalar<double>(a)}, {0});
    ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
    double expected = -1 / (4 * a * std::sqrt(a));
    EXPECT_NEAR((*grads)[0].elementAsDouble(0), expected,
                1e-8 * std::abs(expected));
  }
  EXPECT_TRUE(
      checkGradients(source, "dsqrt", {Tensor::scalar<double>(2.0)}, {0}));
}

/// Reverse-over-reverse through 100 iterations: the inner gradient's tape
/// grows from 16 rows three times, so its carry changes size between the
/// outer loop's iterations (only its sizes are taped by the outer
/// gradient). H v of the loop above, against central differences of
/// grad . v and against the same loop written as scf.for.
TEST(WhileGradients, HessianVectorProductThroughALongLoop) {
  std::string body = R"mlir(
    %m = trace.mul %v, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s = trace.sin %m : tensor<3xf64>
    %d = trace.mul %s, %eps : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %v1 = trace.add %v, %d : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
)mlir";
  std::string source = R"mlir(
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = trace.constant dense<0> : tensor<i64>
  %one = trace.constant dense<1> : tensor<i64>
  %eps = trace.constant dense<1.0e-2> : tensor<3xf64>
  %r:2 = scf.while (%v = %x, %k = %zero) : (tensor<3xf64>, tensor<i64>) -> (tensor<3xf64>, tensor<i64>) {
    %go = trace.lt %k, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %b = tensor.extract %go[] : tensor<i1>
    scf.condition(%b) %v, %k : tensor<3xf64>, tensor<i64>
  } do {
  ^bb0(%v: tensor<3xf64>, %k: tensor<i64>):)mlir" + body + R"mlir(
    %k1 = trace.add %k, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    scf.yield %v1, %k1 : tensor<3xf64>, tensor<i64>
  }
  %s = trace.reduce_sum %r#0 {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @g(%x: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %eps = trace.constant dense<1.0e-2> : tensor<3xf64>
  %r = scf.for %i = %c0 to %ni step %c1 iter_args(%v = %x) -> (tensor<3xf64>) {)mlir" +
                       body + R"mlir(
    scf.yield %v1 : tensor<3xf64>
  }
  %s = trace.reduce_sum %r {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @fv(%x: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>, %u: tensor<3xf64>) -> tensor<f64> {
  %g = trace.grad @f(%x, %w, %n) {wrt = array<i64: 1>} : (tensor<3xf64>, tensor<3xf64>, tensor<i64>) -> tensor<3xf64>
  %p = trace.mul %g, %u : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @gv(%x: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>, %u: tensor<3xf64>) -> tensor<f64> {
  %g = trace.grad @g(%x, %w, %n) {wrt = array<i64: 1>} : (tensor<3xf64>, tensor<3xf64>, tensor<i64>) -> tensor<3xf64>
  %p = trace.mul %g, %u : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  std::vector<Tensor> inputs = {randomTensor({3}, 91), randomTensor({3}, 92),
                                Tensor::scalar<int64_t>(100),
                                randomTensor({3}, 93)};
  EXPECT_TRUE(checkGradients(source, "fv", inputs, {0, 1, 3}));
  auto whileGrads = evaluateGradients(source, "fv", inputs, {0, 1, 3});
  auto forGrads = evaluateGradients(source, "gv", inputs, {0, 1, 3});
  ASSERT_TRUE(bool(whileGrads)) << llvm::toString(whileGrads.takeError());
  ASSERT_TRUE(bool(forGrads)) << llvm::toString(forGrads.takeError());
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR((*whileGrads)[k].elementAsDouble(i),
                  (*forGrads)[k].elementAsDouble(i), 1e-12)
          << k << ", " << i;
}

} // namespace
