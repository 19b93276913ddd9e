//===- ExecutableTest.cpp - Compiling and calling trace functions ---------===//

#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) { return llvm::toString(std::move(error)); }

// y = relu(x @ w + b), and the row sums of y.
constexpr const char *kDense = R"mlir(
func.func @dense(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> tensor<4x2xf32> {
  %0 = trace.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %1 = trace.add %0, %b : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %2 = trace.relu %1 : tensor<4x2xf32>
  return %2 : tensor<4x2xf32>
}
func.func @dense_and_sums(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> (tensor<4x2xf32>, tensor<4xf32>) {
  %y = func.call @dense(%x, %w, %b) : (tensor<4x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 1>} : tensor<4x2xf32> -> tensor<4xf32>
  return %y, %s : tensor<4x2xf32>, tensor<4xf32>
}
)mlir";

/// The same computation as a plain loop: the reference.
std::vector<float> denseReference(const std::vector<float> &x,
                                  const std::vector<float> &w,
                                  const std::vector<float> &b) {
  std::vector<float> y(8);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) {
      float acc = b[j];
      for (int k = 0; k < 3; ++k)
        acc += x[i * 3 + k] * w[k * 2 + j];
      y[i * 2 + j] = std::max(acc, 0.0f);
    }
  return y;
}

class ExecutableTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto module = compiler.parseString(kDense, "dense.mlir");
    ASSERT_TRUE(bool(module)) << errorText(module.takeError());
    auto compiled = Executable::compile(*module);
    ASSERT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    exe = std::move(*compiled);
  }

  std::vector<float> x = {1, -2, 3, 0.5f, 0.25f, -1, 2, 2, 2, -3, 0, 1};
  std::vector<float> w = {0.5f, -1, 1, 2, -0.25f, 0.75f};
  std::vector<float> b = {0.1f, -0.2f};
  Compiler compiler;
  std::unique_ptr<Executable> exe;
};

TEST_F(ExecutableTest, MatchesReferenceLoop) {
  auto dense = exe->function("dense");
  ASSERT_TRUE(bool(dense)) << errorText(dense.takeError());
  EXPECT_EQ(dense->signature().str(),
            "@dense(tensor<4x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> "
            "(tensor<4x2xf32>)");
  Tensor tx = *Tensor::fromVector(x, {4, 3});
  auto outputs = (*dense)({tx, *Tensor::fromVector(w, {3, 2}),
                           *Tensor::fromVector(b, {2})});
  ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
  ASSERT_EQ(outputs->size(), 1u);
  std::vector<float> expected = denseReference(x, w, b);
  std::vector<float> got = (*outputs)[0].toVector<float>();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], 1e-6) << i;
  // Inputs are the caller's: never written.
  EXPECT_EQ(tx.toVector<float>(), x);
}

TEST_F(ExecutableTest, CallsAcrossFunctionsAndReturnsSeveralResults) {
  auto fn = exe->function("dense_and_sums");
  ASSERT_TRUE(bool(fn)) << errorText(fn.takeError());
  auto outputs = (*fn)({*Tensor::fromVector(x, {4, 3}),
                        *Tensor::fromVector(w, {3, 2}),
                        *Tensor::fromVector(b, {2})});
  ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
  ASSERT_EQ(outputs->size(), 2u);
  std::vector<float> y = denseReference(x, w, b);
  std::vector<float> sums = (*outputs)[1].toVector<float>();
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(sums[i], y[2 * i] + y[2 * i + 1], 1e-6) << i;
}

TEST_F(ExecutableTest, DestinationPassingWritesCallerBuffers) {
  auto dense = exe->function("dense");
  ASSERT_TRUE(bool(dense));
  std::vector<Tensor> outputs = {Tensor::zeros(DType::f32, {4, 2})};
  void *buffer = outputs[0].rawData();
  ASSERT_FALSE(bool(dense->call({*Tensor::fromVector(x, {4, 3}),
                                  *Tensor::fromVector(w, {3, 2}),
                                  *Tensor::fromVector(b, {2})},
                                 outputs)));
  EXPECT_EQ(outputs[0].rawData(), buffer);
  EXPECT_EQ(outputs[0].toVector<float>()[0], denseReference(x, w, b)[0]);
}

TEST_F(ExecutableTest, CompileThreadsGiveTheSameResults) {
  // The module's kernels compiled in one partition and in several.
  auto module = compiler.parseString(kDense, "dense.mlir");
  ASSERT_TRUE(bool(module));
  std::vector<std::vector<float>> results;
  for (unsigned threads : {1u, 4u}) {
    CompileOptions options;
    options.compileThreads = threads;
    options.useCache = false;
    auto compiled = Executable::compile(*module, options);
    ASSERT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    auto fn = (*compiled)->function("dense_and_sums");
    ASSERT_TRUE(bool(fn)) << errorText(fn.takeError());
    auto outputs =
        (*fn)({*Tensor::fromVector(x, {4, 3}), *Tensor::fromVector(w, {3, 2}),
               *Tensor::fromVector(b, {2})});
    ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
    std::vector<float> all = (*outputs)[0].toVector<float>();
    for (float sum : (*outputs)[1].toVector<float>())
      all.push_back(sum);
    results.push_back(all);
  }
  EXPECT_EQ(results[0], results[1]);
  std::vector<float> y = denseReference(x, w, b);
  for (size_t i = 0; i < y.size(); ++i)
    EXPECT_NEAR(results[1][i], y[i], 1e-6) << i;
}

TEST_F(ExecutableTest, EntriesCompileOnlyWhatTheyCall) {
  auto module = compiler.parseString(kDense, "dense.mlir");
  ASSERT_TRUE(bool(module));
  CompileOptions options;
  options.entries = {"dense_and_sums"};
  auto compiled = Executable::compile(*module, options);
  ASSERT_TRUE(bool(compiled)) << errorText(compiled.takeError());
  EXPECT_EQ((*compiled)->functionNames(),
            std::vector<std::string>{"dense_and_sums"});
  auto fn = (*compiled)->function("dense_and_sums");
  ASSERT_TRUE(bool(fn)) << errorText(fn.takeError());
  auto outputs =
      (*fn)({*Tensor::fromVector(x, {4, 3}), *Tensor::fromVector(w, {3, 2}),
             *Tensor::fromVector(b, {2})});
  ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
  std::vector<float> y = denseReference(x, w, b);
  EXPECT_NEAR((*outputs)[0].toVector<float>()[0], y[0], 1e-6);
  // The callee was compiled into the entry, not as a function of its own.
  auto dense = (*compiled)->function("dense");
  ASSERT_FALSE(bool(dense));
  EXPECT_EQ(errorText(dense.takeError()),
            "@dense cannot be called from the host: it was not compiled (not "
            "one of CompileOptions::entries)");

  options.entries = {"nope"};
  auto unknown = Executable::compile(*module, options);
  ASSERT_FALSE(bool(unknown));
  EXPECT_EQ(errorText(unknown.takeError()),
            "no function @nope in the module (it has @dense, @dense_and_sums)");
}

TEST_F(ExecutableTest, WrongArgumentsAreErrors) {
  auto dense = exe->function("dense");
  ASSERT_TRUE(bool(dense));
  Tensor tx = *Tensor::fromVector(x, {4, 3});
  Tensor tw = *Tensor::fromVector(w, {3, 2});
  Tensor tb = *Tensor::fromVector(b, {2});

  EXPECT_EQ(errorText((*dense)({tx, tw}).takeError()),
            "@dense takes 3 arguments, got 2 (signature @dense(tensor<4x3xf32>, "
            "tensor<3x2xf32>, tensor<2xf32>) -> (tensor<4x2xf32>))");
  EXPECT_EQ(errorText((*dense)({tx, *tw.reshaped({2, 3}), tb}).takeError()),
            "argument 1 of @dense: expected tensor<3x2xf32>, got "
            "tensor<2x3xf32>");
  EXPECT_EQ(errorText((*dense)({tx, tw, Tensor::zeros(DType::f64, {2})})
                          .takeError()),
            "argument 2 of @dense: expected tensor<2xf32>, got tensor<2xf64>");
  std::vector<Tensor> badOutputs = {Tensor::zeros(DType::f32, {4, 3})};
  EXPECT_EQ(errorText(dense->call({tx, tw, tb}, badOutputs)),
            "output 0 of @dense: expected tensor<4x2xf32>, got tensor<4x3xf32>");
}

TEST_F(ExecutableTest, UnknownFunctionIsAnError) {
  EXPECT_EQ(errorText(exe->function("sparse").takeError()),
            "no function @sparse in the module (it has @dense, "
            "@dense_and_sums)");
}

TEST_F(ExecutableTest, ConcurrentCallsAreIndependent) {
  auto dense = exe->function("dense");
  ASSERT_TRUE(bool(dense));
  constexpr int kThreads = 4, kCalls = 200;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      // Each thread scales x differently, so mixed-up buffers would show.
      std::vector<float> xt = x;
      for (float &v : xt)
        v *= float(t + 1);
      std::vector<float> expected = denseReference(xt, w, b);
      for (int i = 0; i < kCalls; ++i) {
        auto outputs = (*dense)({*Tensor::fromVector(xt, {4, 3}),
                                 *Tensor::fromVector(w, {3, 2}),
                                 *Tensor::fromVector(b, {2})});
        if (!outputs) {
          llvm::consumeError(outputs.takeError());
          ++failures[t];
          continue;
        }
        std::vector<float> got = (*outputs)[0].toVector<float>();
        for (size_t j = 0; j < got.size(); ++j)
          if (std::fabs(got[j] - expected[j]) > 1e-5f) {
            ++failures[t];
            break;
          }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(failures[t], 0) << "thread " << t;
}

TEST(CompilerTest, ParseErrorsCarryLocations) {
  Compiler compiler;
  auto module = compiler.parseString(
      "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %y = trace.exp %x : tensor<3xf32>\n"
      "  return %y : tensor<2xf32>\n}\n",
      "bad.mlir");
  ASSERT_FALSE(bool(module));
  std::string text = errorText(module.takeError());
  EXPECT_NE(text.find("bad.mlir:2:"), std::string::npos) << text;
  EXPECT_NE(text.find("error:"), std::string::npos) << text;

  auto missing = compiler.parseFile("/nonexistent/model.mlir");
  EXPECT_NE(errorText(missing.takeError()).find("cannot read"),
            std::string::npos);
}

TEST(CompilerTest, HostUncallableFunctionsAreExplained) {
  Compiler compiler;
  auto module = compiler.parseString(R"mlir(
func.func @bytes(%x: tensor<2xui8>) -> tensor<2xui8> {
  return %x : tensor<2xui8>
}
func.func @ok(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
)mlir");
  ASSERT_TRUE(bool(module)) << errorText(module.takeError());
  auto exe = Executable::compile(*module);
  ASSERT_TRUE(bool(exe)) << errorText(exe.takeError());
  EXPECT_EQ(errorText((*exe)->function("bytes").takeError()),
            "@bytes cannot be called from the host: argument 0: unsupported "
            "element type in tensor<2xui8>");
  auto ok = (*exe)->function("ok");
  ASSERT_TRUE(bool(ok));
  auto out = (*ok)({*Tensor::fromVector<float>({1, 2}, {2})});
  ASSERT_TRUE(bool(out));
  EXPECT_EQ((*out)[0].toVector<float>(), std::vector<float>({1, 2}));
}

TEST(CompilerTest, LoweringFailuresAreErrors) {
  Compiler compiler;
  auto module = compiler.parseString(R"mlir(
func.func @f(%f: tensor<?x3x2x4xf32>, %dy: tensor<1x2x2x4xf32>) -> tensor<1x4x4x2xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 4, 4, 2>} : (tensor<?x3x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}
)mlir",
                                     "dyn.mlir");
  ASSERT_TRUE(bool(module));
  auto exe = Executable::compile(*module);
  ASSERT_FALSE(bool(exe));
  std::string text = errorText(exe.takeError());
  EXPECT_NE(text.find("compilation failed"), std::string::npos) << text;
  EXPECT_NE(text.find("dyn.mlir:3:8"), std::string::npos) << text;
}

} // namespace
