//===- DynamicVariableTest.cpp - A variable updated by a `?` function -----===//
//
// The JIT runs a function's shape function before the function: the shape
// function must only compute sizes, or a variable's update would run twice
// per call.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Compiler.h"
#include "tracec/Runtime/Executable.h"
#include "tracec/Tensor/Variable.h"

#include <gtest/gtest.h>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// total += the sum of x's rows; returns -x.
constexpr const char *kModule = R"mlir(
func.func @accumulate(%x: tensor<?x2xf32>, %total: !trace.resource<tensor<2xf32>>) -> tensor<?x2xf32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<?x2xf32> -> tensor<2xf32>
  %c = trace.var.assign_add %total, %s : !trace.resource<tensor<2xf32>>
  %y = trace.neg %x : tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
)mlir";

TEST(DynamicVariable, UpdatedOncePerCall) {
  Compiler compiler;
  auto module = compiler.parseString(kModule, "accumulate.mlir");
  ASSERT_TRUE(bool(module)) << errorText(module.takeError());
  CompileOptions options;
  options.useCache = false;
  auto exe = Executable::compile(*module, options);
  ASSERT_TRUE(bool(exe)) << errorText(exe.takeError());
  auto f = (*exe)->function("accumulate");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());

  Variable total(Tensor::zeros(DType::f32, {2}));
  float expected[2] = {0, 0};
  for (int64_t n : {1, 7, 64}) {
    Tensor x = Tensor::zeros(DType::f32, {n, 2});
    for (int64_t i = 0; i < n * 2; ++i) {
      x.data<float>()[i] = float(i % 5) - 1.5f;
      expected[i % 2] += x.data<float>()[i];
    }
    auto y = (*f)({x, total.buffer()});
    ASSERT_TRUE(bool(y)) << errorText(y.takeError());
    EXPECT_EQ((*y)[0].shape(), llvm::ArrayRef<int64_t>({n, 2}));
    std::vector<float> value = total.value().toVector<float>();
    EXPECT_FLOAT_EQ(value[0], expected[0]) << "batch " << n;
    EXPECT_FLOAT_EQ(value[1], expected[1]) << "batch " << n;
  }
}

} // namespace
