//===- DynamicGradientTest.cpp - trace.grad at `?` dims -------------------===//
//
// Each function has a dynamic (`?`) batch dim (two, where a reshape
// flattens them); trace-autodiff differentiates it once, the JIT compiles
// it once, and the gradient is checked against central differences at
// batch 1, 7 and 64: broadcasts undone over a `?` dim, reductions whose
// cotangent is broadcast back to a `?` shape (a mean's count read at run
// time), reshapes with `?` dims, matmul, softmax and cross-entropy, max and
// select, and a loop carrying a `?`-shaped value.
//
//===----------------------------------------------------------------------===//

#include "GradientChecker.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

const int64_t kBatches[] = {1, 7, 64};

/// Input sets, one per batch: `make(batch, seed)` gives the inputs.
template <typename Make> std::vector<std::vector<Tensor>> atBatches(Make make) {
  std::vector<std::vector<Tensor>> sets;
  for (auto [i, batch] : llvm::enumerate(kBatches))
    sets.push_back(make(batch, static_cast<unsigned>(100 * i)));
  return sets;
}

/// Bias add over a `?` batch (the bias's cotangent sums over it), a mean
/// over every dim (its count is the batch times 4, read at run time) and a
/// mean over the batch alone.
TEST(DynamicGradients, BiasAndMeans) {
  std::string source = R"mlir(
func.func @f(%x: tensor<?x4xf64>, %b: tensor<4xf64>) -> tensor<f64> {
  %h = trace.add %x, %b : (tensor<?x4xf64>, tensor<4xf64>) -> tensor<?x4xf64>
  %t = trace.tanh %h : tensor<?x4xf64>
  %m = trace.reduce_mean %t {axes = array<i64: 0, 1>} : tensor<?x4xf64> -> tensor<f64>
  %sq = trace.mul %h, %h : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  %c = trace.reduce_mean %sq {axes = array<i64: 0>} : tensor<?x4xf64> -> tensor<4xf64>
  %w = trace.constant dense<[0.3, -0.5, 0.7, 1.1]> : tensor<4xf64>
  %cw = trace.mul %c, %w : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %s = trace.reduce_sum %cw {axes = array<i64: 0>} : tensor<4xf64> -> tensor<f64>
  %r = trace.add %m, %s : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradientsAtSizes(
      source, "f", atBatches([](int64_t n, unsigned seed) {
        return std::vector<Tensor>{randomTensor({n, 4}, seed + 1),
                                   randomTensor({4}, seed + 2)};
      }),
      {0, 1}));
}

/// reduce_sum over the batch broadcasts its cotangent back to `?` rows
/// (`broadcast_to ... like x`); reduce_sum over the static dim keeps the
/// `?` (a plain broadcast_to); reduce_max over the batch splits the
/// cotangent to the maxima.
TEST(DynamicGradients, SumsAndMaxOverTheBatch) {
  std::string source = R"mlir(
func.func @f(%x: tensor<?x3xf64>) -> tensor<f64> {
  %e = trace.exp %x : tensor<?x3xf64>
  %col = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<?x3xf64> -> tensor<3xf64>
  %l = trace.log %col : tensor<3xf64>
  %ls = trace.reduce_sum %l {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  %row = trace.reduce_sum %x {axes = array<i64: 1>, keepdims} : tensor<?x3xf64> -> tensor<?x1xf64>
  %sin = trace.sin %row : tensor<?x1xf64>
  %mx = trace.reduce_max %sin {axes = array<i64: 0, 1>} : tensor<?x1xf64> -> tensor<f64>
  %cmax = trace.reduce_max %x {axes = array<i64: 0>} : tensor<?x3xf64> -> tensor<3xf64>
  %cs = trace.reduce_sum %cmax {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  %a = trace.add %ls, %mx : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %r = trace.add %a, %cs : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradientsAtSizes(
      source, "f", atBatches([](int64_t n, unsigned seed) {
        // Distinct values: no ties at the maxima.
        Tensor x = randomTensor({n, 3}, seed + 3);
        for (int64_t i = 0; i < x.numElements(); ++i)
          x.data<double>()[i] += 0.01 * static_cast<double>(i);
        return std::vector<Tensor>{x};
      }),
      {0}));
}

/// The MLP's loss: matmul, bias, relu, matmul, log_softmax and the mean
/// cross-entropy of one-hot labels over a `?` batch, wrt the inputs and
/// every weight; softmax too.
TEST(DynamicGradients, MlpCrossEntropy) {
  std::string source = R"mlir(
func.func @f(%x: tensor<?x3xf64>, %labels: tensor<?xi32>, %w1: tensor<3x5xf64>, %b1: tensor<5xf64>, %w2: tensor<5x4xf64>) -> tensor<f64> {
  %h = trace.matmul %x, %w1 : (tensor<?x3xf64>, tensor<3x5xf64>) -> tensor<?x5xf64>
  %hb = trace.add %h, %b1 : (tensor<?x5xf64>, tensor<5xf64>) -> tensor<?x5xf64>
  %a = trace.relu %hb : tensor<?x5xf64>
  %o = trace.matmul %a, %w2 : (tensor<?x5xf64>, tensor<5x4xf64>) -> tensor<?x4xf64>
  %logp = trace.log_softmax %o : tensor<?x4xf64>
  %onehot = trace.one_hot %labels {depth = 4} : tensor<?xi32> -> tensor<?x4xf64>
  %picked = trace.mul %logp, %onehot : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<?x4xf64> -> tensor<?xf64>
  %nll = trace.neg %per : tensor<?xf64>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<?xf64> -> tensor<f64>
  %p = trace.softmax %o : tensor<?x4xf64>
  %pw = trace.matmul %p, %w2 {transpose_b} : (tensor<?x4xf64>, tensor<5x4xf64>) -> tensor<?x5xf64>
  %ps = trace.reduce_mean %pw {axes = array<i64: 0, 1>} : tensor<?x5xf64> -> tensor<f64>
  %r = trace.add %mean, %ps : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradientsAtSizes(
      source, "f", atBatches([](int64_t n, unsigned seed) {
        std::vector<int32_t> labels;
        for (int64_t i = 0; i < n; ++i)
          labels.push_back(static_cast<int32_t>((i * 7 + seed) % 4));
        // relu inputs stay away from 0: the bias is positive and large
        // against the finite-difference step.
        return std::vector<Tensor>{randomTensor({n, 3}, seed + 4),
                                   *Tensor::fromVector<int32_t>(labels, {n}),
                                   randomTensor({3, 5}, seed + 5),
                                   randomTensor({5}, seed + 6, 0.2, 0.6),
                                   randomTensor({5, 4}, seed + 7)};
      }),
      {0, 2, 3, 4}));
}

/// A reshape that flattens two `?` dims: its gradient restores them with
/// `reshape ... like x`. A transpose of the `?` dim, and a `?` operand
/// against a static one (the cotangent is cast back to `?`).
TEST(DynamicGradients, ReshapeTransposeAndStaticMix) {
  std::string source = R"mlir(
func.func @f(%x: tensor<?x?x4xf64>, %y: tensor<?x4xf64>, %z: tensor<2x4xf64>) -> tensor<f64> {
  %f = trace.reshape %x : tensor<?x?x4xf64> -> tensor<?x4xf64>
  %t = trace.tanh %f : tensor<?x4xf64>
  %tt = trace.transpose %t {perm = array<i64: 1, 0>} : tensor<?x4xf64> -> tensor<4x?xf64>
  %e = trace.exp %tt : tensor<4x?xf64>
  %s1 = trace.reduce_mean %e {axes = array<i64: 0, 1>} : tensor<4x?xf64> -> tensor<f64>
  %p = trace.mul %y, %z : (tensor<?x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>
  %sp = trace.sin %p : tensor<2x4xf64>
  %s2 = trace.reduce_sum %sp {axes = array<i64: 0, 1>} : tensor<2x4xf64> -> tensor<f64>
  %r = trace.add %s1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradientsAtSizes(
      source, "f", atBatches([](int64_t n, unsigned seed) {
        return std::vector<Tensor>{randomTensor({n, 3, 4}, seed + 8),
                                   randomTensor({2, 4}, seed + 9),
                                   randomTensor({2, 4}, seed + 10)};
      }),
      {0, 1, 2}));
}

/// broadcast_to with `like` (the user-level form) and a static 1 that
/// grows to `?`: both undone by summing.
TEST(DynamicGradients, BroadcastLike) {
  std::string source = R"mlir(
func.func @f(%x: tensor<?x4xf64>, %b: tensor<4xf64>, %c: tensor<?x1xf64>) -> tensor<f64> {
  %bb = trace.broadcast_to %b like %x : tensor<4xf64>, tensor<?x4xf64> -> tensor<?x4xf64>
  %cb = trace.broadcast_to %c : tensor<?x1xf64> -> tensor<?x4xf64>
  %m = trace.mul %bb, %x : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  %a = trace.mul %m, %cb : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  %t = trace.tanh %a : tensor<?x4xf64>
  %s = trace.reduce_sum %t {axes = array<i64: 0, 1>} : tensor<?x4xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradientsAtSizes(
      source, "f", atBatches([](int64_t n, unsigned seed) {
        return std::vector<Tensor>{randomTensor({n, 4}, seed + 11),
                                   randomTensor({4}, seed + 12),
                                   randomTensor({n, 1}, seed + 13)};
      }),
      {0, 1, 2}));
}

/// A loop carrying a `?`-shaped state (its tape has rows of the state's
/// run-time size), with a captured weight.
TEST(DynamicGradients, LoopCarryingDynamicState) {
  std::string source = R"mlir(
func.func @f(%h0: tensor<?x3xf64>, %w: tensor<3x3xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %h = scf.for %i = %c0 to %c3 step %c1 iter_args(%hi = %h0) -> (tensor<?x3xf64>) {
    %m = trace.matmul %hi, %w : (tensor<?x3xf64>, tensor<3x3xf64>) -> tensor<?x3xf64>
    %t = trace.tanh %m : tensor<?x3xf64>
    scf.yield %t : tensor<?x3xf64>
  }
  %s = trace.reduce_mean %h {axes = array<i64: 0, 1>} : tensor<?x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
)mlir";
  EXPECT_TRUE(checkGradientsAtSizes(
      source, "f", atBatches([](int64_t n, unsigned seed) {
        return std::vector<Tensor>{randomTensor({n, 3}, seed + 14),
                                   randomTensor({3, 3}, seed + 15)};
      }),
      {0, 1}));
}

} // namespace
