//===- CudaExecutableTest.cpp - Running trace functions on a GPU ----------===//
//
// Needs a CUDA driver and device; skipped, with the reason, where there is
// none (the machines this project is built on have no GPU).
//
//===----------------------------------------------------------------------===//

#include "tracec/ABI/CudaRuntime.h"
#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tracec;

namespace {

// A fused elementwise chain, a row reduction and a matmul, with a variable.
constexpr const char *kModule = R"mlir(
func.func @dense(%x: tensor<5x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<5x4xf32>, tensor<5xf32>) {
  %0 = trace.matmul %x, %w : (tensor<5x3xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  %1 = trace.add %0, %b : (tensor<5x4xf32>, tensor<4xf32>) -> tensor<5x4xf32>
  %2 = trace.tanh %1 : tensor<5x4xf32>
  %3 = trace.reduce_sum %2 {axes = array<i64: 1>} : tensor<5x4xf32> -> tensor<5xf32>
  return %2, %3 : tensor<5x4xf32>, tensor<5xf32>
}
func.func @accumulate(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %r, %c1 = trace.var.read %v after(%c0) : !trace.resource<tensor<4xf32>>
  return %r : tensor<4xf32>
}
)mlir";

class CudaExecutableTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!cuda::driverAvailable(&why))
      GTEST_SKIP() << "no CUDA device: " << why;
    auto module = compiler.parseString(kModule, "gpu.mlir");
    ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
    CompileOptions options;
    options.target = Target::cuda;
    auto compiled = Executable::compile(*module, options);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    exe = std::move(*compiled);
  }
  Compiler compiler;
  std::unique_ptr<Executable> exe;
};

TEST_F(CudaExecutableTest, DenseMatchesAPlainLoop) {
  std::vector<float> x(15), w(12), b = {0.1f, -0.2f, 0.3f, 0.0f};
  for (int i = 0; i < 15; ++i)
    x[i] = 0.1f * i - 0.7f;
  for (int i = 0; i < 12; ++i)
    w[i] = 0.05f * i - 0.3f;
  auto dense = exe->function("dense");
  ASSERT_TRUE(bool(dense)) << llvm::toString(dense.takeError());
  auto out = (*dense)({*Tensor::fromVector<float>(x, {5, 3}),
                       *Tensor::fromVector<float>(w, {3, 4}),
                       *Tensor::fromVector<float>(b, {4})});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  std::vector<float> y = (*out)[0].toVector<float>();
  std::vector<float> sums = (*out)[1].toVector<float>();
  for (int i = 0; i < 5; ++i) {
    float sum = 0;
    for (int j = 0; j < 4; ++j) {
      float acc = b[j];
      for (int k = 0; k < 3; ++k)
        acc += x[i * 3 + k] * w[k * 4 + j];
      EXPECT_NEAR(y[i * 4 + j], std::tanh(acc), 1e-5f);
      sum += std::tanh(acc);
    }
    EXPECT_NEAR(sums[i], sum, 1e-5f);
  }
}

TEST_F(CudaExecutableTest, VariableIsUpdatedInPlace) {
  auto accumulate = exe->function("accumulate");
  ASSERT_TRUE(bool(accumulate)) << llvm::toString(accumulate.takeError());
  auto v = *Tensor::fromVector<float>({1, 2, 3, 4}, {4});
  auto x = *Tensor::fromVector<float>({0.5f, 0.5f, 0.5f, 0.5f}, {4});
  for (int step = 0; step < 2; ++step) {
    auto out = (*accumulate)({v, x});
    ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  }
  EXPECT_EQ(v.toVector<float>(), (std::vector<float>{2, 3, 4, 5}));
}

} // namespace
