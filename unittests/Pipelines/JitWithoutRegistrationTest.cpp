//===- JitWithoutRegistrationTest.cpp - The JIT needs no pass registry ----===//
//
// The pipelines are built from the passes' constructors, so a host program
// compiles without registering any pass or pipeline, and compiling
// registers none behind its back. This binary calls no register function.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include "mlir/Pass/PassRegistry.h"

#include <gtest/gtest.h>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

/// Nothing that tracec-opt registers is in this process's registry.
void expectNothingRegistered() {
  for (const char *pass :
       {"canonicalize", "inline", "one-shot-bufferize", "convert-func-to-llvm",
        "trace-autodiff", "trace-to-linalg", "trace-expand-copies"})
    EXPECT_EQ(mlir::PassInfo::lookup(pass), nullptr) << pass;
  for (const char *pipeline : {"tracec-cpu-pipeline", "tracec-gpu-pipeline",
                               "buffer-deallocation-pipeline"})
    EXPECT_EQ(mlir::PassPipelineInfo::lookup(pipeline), nullptr) << pipeline;
}

// A gradient (trace-autodiff, then inline with its canonicalize pipeline)
// and a strided slice returned as a result (the copy trace-expand-copies
// turns into loops).
constexpr const char *kModule = R"mlir(
func.func private @loss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<f32> {
  %y = trace.mul %w, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dloss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @loss(%w, %x) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}
func.func @every_other(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 4>, strides = array<i64: 1, 2>} : tensor<2x4xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
)mlir";

TEST(JitWithoutRegistrationTest, CompilesAndRunsWithAnEmptyRegistry) {
  expectNothingRegistered();

  Compiler compiler;
  auto module = compiler.parseString(kModule, "module.mlir");
  ASSERT_TRUE(bool(module)) << errorText(module.takeError());
  auto exe = Executable::compile(*module);
  ASSERT_TRUE(bool(exe)) << errorText(exe.takeError());

  auto dloss = (*exe)->function("dloss");
  ASSERT_TRUE(bool(dloss)) << errorText(dloss.takeError());
  std::vector<float> x = {1, -2, 0.5f};
  auto grads = (*dloss)({*Tensor::fromVector<float>({3, 4, 5}, {3}),
                         *Tensor::fromVector(x, {3})});
  ASSERT_TRUE(bool(grads)) << errorText(grads.takeError());
  // d/dw sum(w * x) = x.
  EXPECT_EQ((*grads)[0].toVector<float>(), x);

  auto everyOther = (*exe)->function("every_other");
  ASSERT_TRUE(bool(everyOther)) << errorText(everyOther.takeError());
  auto slice = (*everyOther)(
      {*Tensor::fromVector<float>({0, 1, 2, 3, 4, 5, 6, 7}, {2, 4})});
  ASSERT_TRUE(bool(slice)) << errorText(slice.takeError());
  EXPECT_EQ((*slice)[0].toVector<float>(), (std::vector<float>{0, 2, 4, 6}));

  expectNothingRegistered();
}

} // namespace
