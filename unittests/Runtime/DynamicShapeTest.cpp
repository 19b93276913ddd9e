//===- DynamicShapeTest.cpp - One compile of a `?` dim, every size --------===//

#include "tracec/Runtime/Compiler.h"
#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// y = tanh(x * s + b) with a dynamic batch; z = x^T x sums over it.
constexpr const char *kModule = R"mlir(
func.func @scale(%x: tensor<?x3xf32>, %s: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = trace.mul %x, %s : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = trace.add %0, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = trace.tanh %1 : tensor<?x3xf32>
  return %2 : tensor<?x3xf32>
}
func.func @rows(%x: tensor<?x?xf32>, %w: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = trace.matmul %x, %w : (tensor<?x?xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
)mlir";

std::vector<float> iota(int64_t n, float scale) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = scale * static_cast<float>(i % 7 - 3);
  return v;
}

class DynamicShapeTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto module = compiler.parseString(kModule, "dynamic.mlir");
    ASSERT_TRUE(bool(module)) << errorText(module.takeError());
    CompileOptions options;
    options.useCache = false;
    auto compiled = Executable::compile(*module, options);
    ASSERT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    exe = std::move(*compiled);
  }

  Tensor tensor(const std::vector<float> &values,
                llvm::ArrayRef<int64_t> shape) {
    auto t = Tensor::fromVector(values, shape);
    EXPECT_TRUE(bool(t));
    return std::move(*t);
  }

  Compiler compiler;
  std::unique_ptr<Executable> exe;
};

TEST_F(DynamicShapeTest, SignatureShowsDynamicDims) {
  auto f = exe->function("scale");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  EXPECT_EQ(f->signature().str(),
            "@scale(tensor<?x3xf32>, tensor<?x3xf32>, tensor<3xf32>) -> "
            "(tensor<?x3xf32>)");
}

TEST_F(DynamicShapeTest, OneCompileServesEveryBatch) {
  auto f = exe->function("scale");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  std::vector<float> b = {0.5f, -0.25f, 0.125f};
  for (int64_t n : {1, 2, 7, 33, 64}) {
    std::vector<float> x = iota(n * 3, 0.3f), s = iota(n * 3, -0.2f);
    auto shapes =
        f->resultShapes({tensor(x, {n, 3}), tensor(s, {n, 3}), tensor(b, {3})});
    ASSERT_TRUE(bool(shapes)) << errorText(shapes.takeError());
    EXPECT_EQ(llvm::ArrayRef<int64_t>((*shapes)[0]),
              llvm::ArrayRef<int64_t>({n, 3}));
    auto results = (*f)({tensor(x, {n, 3}), tensor(s, {n, 3}), tensor(b, {3})});
    ASSERT_TRUE(bool(results)) << errorText(results.takeError());
    ASSERT_EQ((*results)[0].shape(), llvm::ArrayRef<int64_t>({n, 3}));
    std::vector<float> y = (*results)[0].toVector<float>();
    for (int64_t i = 0; i < n * 3; ++i)
      EXPECT_NEAR(y[i], std::tanh(x[i] * s[i] + b[i % 3]), 1e-6)
          << "n = " << n << ", i = " << i;
  }
}

TEST_F(DynamicShapeTest, DisagreeingDimsNameTheArgumentsAndSizes) {
  auto f = exe->function("scale");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  std::vector<Tensor> inputs = {tensor(iota(15, 1), {5, 3}),
                                tensor(iota(12, 1), {4, 3}),
                                tensor(iota(3, 1), {3})};
  std::string message = errorText((*f)(inputs).takeError());
  EXPECT_EQ(message, "@scale: argument 0 dim 0 is 5 but argument 1 dim 0 is "
                     "4 (dynamic.mlir:3:8: 'trace.mul': dim 0 of operand 0 "
                     "and dim 0 of operand 1 differ)");
  // Destination passing: nothing is written to the outputs.
  Tensor out = tensor(std::vector<float>(15, 42.0f), {5, 3});
  std::vector<Tensor> outputs = {out};
  EXPECT_EQ(errorText(f->call(inputs, outputs)), message);
  for (float v : out.toVector<float>())
    EXPECT_EQ(v, 42.0f);
}

TEST_F(DynamicShapeTest, StaticDimsAndRanksAreStillChecked) {
  auto f = exe->function("scale");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  EXPECT_EQ(
      errorText((*f)({tensor(iota(8, 1), {2, 4}), tensor(iota(8, 1), {2, 4}),
                      tensor(iota(3, 1), {3})})
                    .takeError()),
      "argument 0 of @scale: expected tensor<?x3xf32>, got "
      "tensor<2x4xf32>");
  EXPECT_EQ(errorText((*f)({tensor(iota(6, 1), {6}), tensor(iota(6, 1), {6}),
                            tensor(iota(3, 1), {3})})
                          .takeError()),
            "argument 0 of @scale: expected tensor<?x3xf32>, got "
            "tensor<6xf32>");
}

TEST_F(DynamicShapeTest, OutputsMustHaveTheComputedShape) {
  auto f = exe->function("scale");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  std::vector<Tensor> inputs = {tensor(iota(6, 1), {2, 3}),
                                tensor(iota(6, 1), {2, 3}),
                                tensor(iota(3, 1), {3})};
  std::vector<Tensor> outputs = {Tensor::zeros(DType::f32, {3, 3})};
  EXPECT_EQ(errorText(f->call(inputs, outputs)),
            "output 0 of @scale: expected tensor<2x3xf32> for these "
            "arguments, got tensor<3x3xf32>");
}

TEST_F(DynamicShapeTest, DynamicContractionDimIsChecked) {
  auto f = exe->function("rows");
  ASSERT_TRUE(bool(f)) << errorText(f.takeError());
  for (auto [m, k] : {std::pair<int64_t, int64_t>{1, 1}, {3, 5}, {17, 9}}) {
    std::vector<float> x = iota(m * k, 0.5f), w = iota(k * 2, 0.25f);
    auto results = (*f)({tensor(x, {m, k}), tensor(w, {k, 2})});
    ASSERT_TRUE(bool(results)) << errorText(results.takeError());
    std::vector<float> y = (*results)[0].toVector<float>();
    ASSERT_EQ(y.size(), size_t(m * 2));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        float want = 0;
        for (int64_t p = 0; p < k; ++p)
          want += x[i * k + p] * w[p * 2 + j];
        EXPECT_NEAR(y[i * 2 + j], want, 1e-5);
      }
  }
  EXPECT_EQ(
      errorText((*f)({tensor(iota(6, 1), {2, 3}), tensor(iota(8, 1), {4, 2})})
                    .takeError()),
      "@rows: argument 0 dim 1 is 3 but argument 1 dim 0 is 4 "
      "(dynamic.mlir:9:8: 'trace.matmul': dim 1 of operand 0 and dim 0 "
      "of operand 1 differ)");
}

} // namespace
