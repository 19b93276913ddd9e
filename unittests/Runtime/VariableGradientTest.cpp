//===- VariableGradientTest.cpp - Gradients with respect to variables -----===//
//
// Compiled and run: trace.grad with a variable in `wrt` gives the gradient
// of the values read from it, and a training step that applies it updates
// the variable in place. References are closed forms computed here.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"
#include "tracec/Tensor/Variable.h"

#include <gtest/gtest.h>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) { return llvm::toString(std::move(error)); }

constexpr const char *kModule = R"mlir(
// loss = sum(a * b * x), a = read v; v += a; b = read v. Each read is a
// leaf: d/dv = (b + a) * x = 3 a x, and v is doubled exactly once.
func.func private @twice(%v: !trace.resource<tensor<3xf32>>, %x: tensor<3xf32>) -> tensor<f32> {
  %a, %c0 = trace.var.read %v : !trace.resource<tensor<3xf32>>
  %c1 = trace.var.assign_add %v, %a : !trace.resource<tensor<3xf32>>
  %b, %c2 = trace.var.read %v : !trace.resource<tensor<3xf32>>
  %ab = trace.mul %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %abx = trace.mul %ab, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %abx {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @value_and_grad_twice(%v: !trace.resource<tensor<3xf32>>, %x: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %l, %g = trace.value_and_grad @twice(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<3xf32>>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
  return %l, %g : tensor<f32>, tensor<3xf32>
}

// sum(a * a) with a read before v is zeroed: the gradient is 2a, of what
// was read, not of the variable's later contents.
func.func private @read_then_zero(%v: !trace.resource<tensor<3xf32>>) -> tensor<f32> {
  %a, %c0 = trace.var.read %v : !trace.resource<tensor<3xf32>>
  %z = trace.constant dense<0.0> : tensor<3xf32>
  %c1 = trace.var.assign %v, %z : !trace.resource<tensor<3xf32>>
  %aa = trace.mul %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %aa {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grad_read_then_zero(%v: !trace.resource<tensor<3xf32>>) -> tensor<3xf32> {
  %g = trace.grad @read_then_zero(%v) {wrt = array<i64: 0>} : (!trace.resource<tensor<3xf32>>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// Linear least squares, one SGD step: w -= lr * d/dw mean((x w - y)^2).
func.func private @mse(%w: !trace.resource<tensor<2x3xf32>>, %x: tensor<4x2xf32>, %y: tensor<4x3xf32>) -> tensor<f32> {
  %wv, %c = trace.var.read %w : !trace.resource<tensor<2x3xf32>>
  %p = trace.matmul %x, %wv : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %d = trace.sub %p, %y : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %d2 = trace.mul %d, %d : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = trace.reduce_mean %d2 {axes = array<i64: 0, 1>} : tensor<4x3xf32> -> tensor<f32>
  return %m : tensor<f32>
}
func.func @sgd_step(%w: !trace.resource<tensor<2x3xf32>>, %x: tensor<4x2xf32>, %y: tensor<4x3xf32>) -> tensor<f32> {
  %l, %g = trace.value_and_grad @mse(%w, %x, %y) {wrt = array<i64: 0>} : (!trace.resource<tensor<2x3xf32>>, tensor<4x2xf32>, tensor<4x3xf32>) -> (tensor<f32>, tensor<2x3xf32>)
  %lr = trace.constant dense<0.1> : tensor<f32>
  %step = trace.mul %lr, %g : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = trace.var.assign_sub %w, %step : !trace.resource<tensor<2x3xf32>>
  return %l : tensor<f32>
}
)mlir";

class VariableGradientTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto module = compiler.parseString(kModule, "variable-gradients.mlir");
    ASSERT_TRUE(bool(module)) << errorText(module.takeError());
    auto compiled = Executable::compile(*module);
    ASSERT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    exe = std::move(*compiled);
  }

  Compiler compiler;
  std::unique_ptr<Executable> exe;
};

TEST_F(VariableGradientTest, ReadAfterAssignContributesWhatItRead) {
  auto f = exe->function("value_and_grad_twice");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  const std::vector<float> a = {1, -2, 0.5f}, x = {3, 1, -4};
  Variable v(*Tensor::fromVector<float>(a, {3}));
  auto outputs = (*f)({v.buffer(), *Tensor::fromVector<float>(x, {3})});
  ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
  float loss = 0;
  std::vector<float> grad(3), after(3);
  for (int i = 0; i < 3; ++i) {
    loss += a[i] * (2 * a[i]) * x[i];
    grad[i] = 3 * a[i] * x[i];
    after[i] = 2 * a[i];
  }
  EXPECT_FLOAT_EQ((*outputs)[0].toVector<float>()[0], loss);
  EXPECT_EQ((*outputs)[1].toVector<float>(), grad);
  // The forward ran once: v doubled once, not twice.
  EXPECT_EQ(v.value().toVector<float>(), after);
}

TEST_F(VariableGradientTest, GradientIsOfTheSnapshotNotTheLaterValue) {
  auto f = exe->function("grad_read_then_zero");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  Variable v(*Tensor::fromVector<float>({1, 2, -3}, {3}));
  auto outputs = (*f)({v.buffer()});
  ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
  EXPECT_EQ((*outputs)[0].toVector<float>(), std::vector<float>({2, 4, -6}));
  EXPECT_EQ(v.value().toVector<float>(), std::vector<float>({0, 0, 0}));
}

TEST_F(VariableGradientTest, SgdStepsMatchClosedForm) {
  auto step = exe->function("sgd_step");
  ASSERT_TRUE(bool(step)) << errorText(step.takeError());
  const std::vector<float> x = {1, 2, -1, 0.5f, 0, 1, 2, -1};
  const std::vector<float> y = {1, 0, 2, -1, 1, 0, 0.5f, 2, -2, 1, 1, 1};
  std::vector<double> w = {0.1, -0.2, 0.3, 0.0, 0.5, -0.5};
  Variable wv(*Tensor::fromVector<float>(
      std::vector<float>(w.begin(), w.end()), {2, 3}));
  Tensor xt = *Tensor::fromVector<float>(x, {4, 2});
  Tensor yt = *Tensor::fromVector<float>(y, {4, 3});
  for (int s = 0; s < 5; ++s) {
    // Reference in double: r = x w - y, loss = mean(r^2),
    // dL/dw = 2/12 x^T r.
    std::vector<double> r(12);
    double loss = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j) {
        r[i * 3 + j] = x[i * 2] * w[j] + x[i * 2 + 1] * w[3 + j] - y[i * 3 + j];
        loss += r[i * 3 + j] * r[i * 3 + j] / 12;
      }
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 3; ++j) {
        double g = 0;
        for (int i = 0; i < 4; ++i)
          g += 2.0 / 12 * x[i * 2 + k] * r[i * 3 + j];
        w[k * 3 + j] -= 0.1 * g;
      }
    auto outputs = (*step)({wv.buffer(), xt, yt});
    ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
    EXPECT_NEAR((*outputs)[0].toVector<float>()[0], loss, 1e-5) << "step " << s;
    std::vector<float> got = wv.value().toVector<float>();
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(got[i], w[i], 1e-5) << "step " << s << ", w[" << i << "]";
  }
}

} // namespace
