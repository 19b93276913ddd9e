//===- CompositeGradientTest.cpp - Whole models against finite differences ===//
//
// Gradients of complete training losses, every weight at once, checked by
// central differences (GradientChecker.h): a two-layer MLP with a softmax
// cross-entropy built from log_softmax and one_hot labels, and a small CNN
// (conv2d + relu + max_pool2d + dense). The rules are tested one op at a
// time elsewhere; these check that they compose: fan-in through the
// broadcast biases, residuals shared by several rules, integer labels that
// carry no gradient, and the functions called from the loss.
//
//===----------------------------------------------------------------------===//

#include "GradientChecker.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

/// Two layers, 5 -> 8 (relu) -> 4 classes, batch 6; the logits come from a
/// called function, as a tracer records a model's forward pass.
const char *kMlp = R"mlir(
func.func private @logits(%x: tensor<6x5xf64>, %w1: tensor<5x8xf64>, %b1: tensor<8xf64>,
                          %w2: tensor<8x4xf64>, %b2: tensor<4xf64>) -> tensor<6x4xf64> {
  %h = trace.matmul %x, %w1 : (tensor<6x5xf64>, tensor<5x8xf64>) -> tensor<6x8xf64>
  %hb = trace.add %h, %b1 : (tensor<6x8xf64>, tensor<8xf64>) -> tensor<6x8xf64>
  %a = trace.relu %hb : tensor<6x8xf64>
  %o = trace.matmul %a, %w2 : (tensor<6x8xf64>, tensor<8x4xf64>) -> tensor<6x4xf64>
  %ob = trace.add %o, %b2 : (tensor<6x4xf64>, tensor<4xf64>) -> tensor<6x4xf64>
  return %ob : tensor<6x4xf64>
}
func.func @loss(%x: tensor<6x5xf64>, %labels: tensor<6xi32>, %w1: tensor<5x8xf64>,
                %b1: tensor<8xf64>, %w2: tensor<8x4xf64>, %b2: tensor<4xf64>) -> tensor<f64> {
  %z = func.call @logits(%x, %w1, %b1, %w2, %b2)
      : (tensor<6x5xf64>, tensor<5x8xf64>, tensor<8xf64>, tensor<8x4xf64>, tensor<4xf64>) -> tensor<6x4xf64>
  %logp = trace.log_softmax %z : tensor<6x4xf64>
  %onehot = trace.one_hot %labels {depth = 4} : tensor<6xi32> -> tensor<6x4xf64>
  %picked = trace.mul %logp, %onehot : (tensor<6x4xf64>, tensor<6x4xf64>) -> tensor<6x4xf64>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<6x4xf64> -> tensor<6xf64>
  %nll = trace.neg %per : tensor<6xf64>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<6xf64> -> tensor<f64>
  return %mean : tensor<f64>
}
)mlir";

std::vector<Tensor> mlpInputs() {
  auto labels = Tensor::fromVector<int32_t>({3, 0, 1, 3, 2, 0}, {6});
  EXPECT_TRUE(bool(labels));
  return {randomTensor({6, 5}, 101), *labels,
          randomTensor({5, 8}, 102), randomTensor({8}, 103, -0.2, 0.2),
          randomTensor({8, 4}, 104), randomTensor({4}, 105, -0.2, 0.2)};
}

/// relu's kink: no hidden pre-activation may sit within the finite
/// difference's reach of 0 (it would measure half a slope).
double smallestPreActivation(const std::vector<Tensor> &in) {
  auto x = in[0].toVector<double>(), w1 = in[2].toVector<double>(),
       b1 = in[3].toVector<double>();
  double smallest = INFINITY;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j) {
      double h = b1[j];
      for (int k = 0; k < 5; ++k)
        h += x[i * 5 + k] * w1[k * 8 + j];
      smallest = std::min(smallest, std::fabs(h));
    }
  return smallest;
}

TEST(CompositeGradients, MlpSoftmaxCrossEntropyAllWeights) {
  std::vector<Tensor> inputs = mlpInputs();
  ASSERT_GT(smallestPreActivation(inputs), 1e-3);
  EXPECT_TRUE(checkGradients(kMlp, "loss", inputs, {2, 3, 4, 5}));
}

/// The input too (every float argument), and the weights in another order.
TEST(CompositeGradients, MlpSoftmaxCrossEntropyInputAndReorderedWeights) {
  std::vector<Tensor> inputs = mlpInputs();
  EXPECT_TRUE(checkGradients(kMlp, "loss", inputs, {5, 0, 4}));
}

/// At a uniform softmax (all weights zero), the output bias's gradient is
/// known exactly: mean over the batch of softmax - onehot = 1/4 - the
/// fraction of samples with that label.
TEST(CompositeGradients, MlpOutputBiasAtUniformSoftmax) {
  std::vector<Tensor> inputs = mlpInputs();
  inputs[4] = Tensor::zeros(DType::f64, {8, 4});
  inputs[5] = Tensor::zeros(DType::f64, {4});
  auto grads = evaluateGradients(kMlp, "loss", inputs, {5});
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  // labels 3, 0, 1, 3, 2, 0: class counts 2, 1, 1, 2 of 6.
  const double counts[4] = {2, 1, 1, 2};
  for (int c = 0; c < 4; ++c)
    EXPECT_NEAR((*grads)[0].elementAsDouble(c), 0.25 - counts[c] / 6, 1e-12)
        << c;
}

/// conv2d (3x3, 2 -> 3 channels, padding 1) + relu + max_pool2d (2x2,
/// stride 2) + reshape + dense to 3 classes, softmax cross-entropy over a
/// batch of 2 NHWC 6x6 images.
const char *kCnn = R"mlir(
func.func @loss(%img: tensor<2x6x6x2xf64>, %labels: tensor<2xi32>, %k: tensor<3x3x2x3xf64>,
                %kb: tensor<3xf64>, %w: tensor<27x3xf64>, %b: tensor<3xf64>) -> tensor<f64> {
  %c = trace.conv2d %img, %k {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<2x6x6x2xf64>, tensor<3x3x2x3xf64>) -> tensor<2x6x6x3xf64>
  %cb = trace.add %c, %kb : (tensor<2x6x6x3xf64>, tensor<3xf64>) -> tensor<2x6x6x3xf64>
  %r = trace.relu %cb : tensor<2x6x6x3xf64>
  %p = trace.max_pool2d %r {window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<2x6x6x3xf64> -> tensor<2x3x3x3xf64>
  %flat = trace.reshape %p : tensor<2x3x3x3xf64> -> tensor<2x27xf64>
  %z = trace.matmul %flat, %w : (tensor<2x27xf64>, tensor<27x3xf64>) -> tensor<2x3xf64>
  %zb = trace.add %z, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %logp = trace.log_softmax %zb : tensor<2x3xf64>
  %onehot = trace.one_hot %labels {depth = 3} : tensor<2xi32> -> tensor<2x3xf64>
  %picked = trace.mul %logp, %onehot : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %total = trace.reduce_sum %picked {axes = array<i64: 0, 1>} : tensor<2x3xf64> -> tensor<f64>
  %n = trace.constant dense<-2.0> : tensor<f64>
  %mean = trace.div %total, %n : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %mean : tensor<f64>
}
)mlir";

TEST(CompositeGradients, CnnConvReluMaxPoolDense) {
  auto labels = Tensor::fromVector<int32_t>({2, 0}, {2});
  ASSERT_TRUE(bool(labels));
  std::vector<Tensor> inputs = {
      randomTensor({2, 6, 6, 2}, 201), *labels,
      randomTensor({3, 3, 2, 3}, 202, -0.5, 0.5),
      randomTensor({3}, 203, -0.1, 0.1), randomTensor({27, 3}, 204),
      randomTensor({3}, 205, -0.1, 0.1)};
  // Every weight, and the image.
  EXPECT_TRUE(checkGradients(kCnn, "loss", inputs, {2, 3, 4, 5}));
  EXPECT_TRUE(checkGradients(kCnn, "loss", inputs, {0}));
}

} // namespace
