//===- TraceTest.cpp - Tracing, calling through the JIT, errors -----------===//

#include "FrontendTestUtil.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

TEST(Trace, RecordsAFunctionAndRunsIt) {
  ConcreteFunction f = trace(
      "affine", {spec(DType::f32, {2, 3}), spec(DType::f32, {3, 2})},
      [](llvm::ArrayRef<Value> a) -> Values {
        return {relu(matmul(a[0], a[1]) - 1.0) * 2};
      });
  std::string ir = f.ir();
  EXPECT_NE(ir.find("func.func @affine(%arg0: tensor<2x3xf32>, %arg1: "
                    "tensor<3x2xf32>) -> tensor<2x2xf32>"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("trace.matmul"), std::string::npos) << ir;
  EXPECT_NE(ir.find("trace.relu"), std::string::npos) << ir;
  ASSERT_EQ(f.outputs().size(), 1u);
  EXPECT_EQ(f.outputs()[0].str(), "tensor<2x2xf32>");

  Tensor x = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor w = tensor<float>({1, 0, 0, 1, 1, -1}, {3, 2});
  std::vector<Tensor> out = run(f, {x, w});
  ASSERT_EQ(out.size(), 1u);
  // x @ w = [[4, -1], [10, -1]]; relu(. - 1) * 2.
  expectNear(out[0].toVector<double>(), {6, 0, 18, 0});
}

TEST(Trace, ShapeMismatchNamesTheOpShapesAndRule) {
  std::string message = traceError([] {
    trace("bad", {spec(DType::f32, {2, 3}), spec(DType::f32, {4})},
          [](llvm::ArrayRef<Value> a) -> Values { return {a[0] + a[1]}; });
  });
  EXPECT_NE(message.find("'trace.add'"), std::string::npos) << message;
  EXPECT_NE(message.find("broadcast-compatible"), std::string::npos)
      << message;
  EXPECT_NE(message.find("lhs 2x3 vs rhs 4"), std::string::npos) << message;
}

TEST(Trace, LocationsShowInErrorsAndIR) {
  std::string message = traceError([] {
    trace("bad", {spec(DType::f32, {2, 3}), spec(DType::f32, {2, 5})},
          [](llvm::ArrayRef<Value> a) -> Values {
            LocationScope here("model.py", 12, 4);
            return {matmul(a[0], a[1])};
          });
  });
  EXPECT_EQ(message.rfind("model.py:12:4: error: ", 0), 0u) << message;
  EXPECT_NE(message.find("trace.matmul"), std::string::npos) << message;

  ConcreteFunction f =
      trace("located", {spec(DType::f32, {2})},
            [](llvm::ArrayRef<Value> a) -> Values {
              setLocation("model.py", 7);
              Value y = exp(a[0]);
              clearLocation();
              return {y};
            });
  mlir::Operation *exp = nullptr;
  f.module().walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() == "trace.exp")
      exp = op;
  });
  ASSERT_TRUE(exp);
  auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(exp->getLoc());
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc.getFilename().getValue(), "model.py");
  EXPECT_EQ(loc.getLine(), 7u);
}

TEST(Trace, ValueOfAnotherTraceIsRejected) {
  Value leaked;
  trace("first", {spec(DType::f32, {2})},
        [&](llvm::ArrayRef<Value> a) -> Values {
          leaked = a[0] * 2;
          return {leaked};
        });
  std::string message = traceError([&] {
    trace("second", {spec(DType::f32, {2})},
          [&](llvm::ArrayRef<Value> a) -> Values { return {a[0] + leaked}; });
  });
  EXPECT_NE(message.find("used outside the trace that created it"),
            std::string::npos)
      << message;

  // While both are being recorded: a Value of the outer trace in an
  // independent inner one.
  message = traceError([&] {
    trace("outer", {spec(DType::f32, {2})},
          [&](llvm::ArrayRef<Value> outer) -> Values {
            trace("inner", {spec(DType::f32, {2})},
                  [&](llvm::ArrayRef<Value> inner) -> Values {
                    return {inner[0] + outer[0]};
                  });
            return {outer[0]};
          });
  });
  EXPECT_NE(message.find("from trace @outer is used in trace @inner"),
            std::string::npos)
      << message;
}

TEST(Trace, OpsOutsideATraceAreRejected) {
  Value nothing;
  std::string message = traceError([&] { zeros({2}); });
  EXPECT_NE(message.find("only be recorded while a function is being traced"),
            std::string::npos)
      << message;
  message = traceError([&] {
    trace("null", {spec(DType::f32, {2})},
          [&](llvm::ArrayRef<Value> a) -> Values { return {a[0] + nothing}; });
  });
  EXPECT_NE(message.find("null tracec::Value"), std::string::npos) << message;
  EXPECT_EQ(nothing.rank(), 0);
  EXPECT_EQ(nothing.typeString(), "<null>");
  message = traceError([&] { nothing.dtype(); });
  EXPECT_NE(message.find("null tracec::Value"), std::string::npos) << message;
}

TEST(Trace, CallChecksInputs) {
  ConcreteFunction f =
      trace("id", {spec(DType::f32, {2})},
            [](llvm::ArrayRef<Value> a) -> Values { return {a[0] + 1}; });
  auto wrongCount = f({});
  ASSERT_FALSE(bool(wrongCount));
  EXPECT_NE(llvm::toString(wrongCount.takeError()).find("takes 1 inputs, got 0"),
            std::string::npos);
  auto wrongShape = f({Tensor::zeros(DType::f32, {3})});
  ASSERT_FALSE(bool(wrongShape));
  EXPECT_NE(llvm::toString(wrongShape.takeError()).find("tensor<2xf32>"),
            std::string::npos);
}

constexpr int64_t kDyn = TensorSpec::kDynamic;

TEST(Trace, DynamicDimsTraceOnceForEverySize) {
  ConcreteFunction f =
      trace("rows", {spec(DType::f32, {kDyn, 3}), spec(DType::f32, {3, 2})},
            [](llvm::ArrayRef<Value> a) -> Values {
              EXPECT_EQ(a[0].shape()[0], kDyn);
              EXPECT_EQ(a[0].numElements(), kDyn);
              return {sum(tanh(matmul(a[0], a[1])), {1})};
            });
  EXPECT_NE(f.ir().find("func.func @rows(%arg0: tensor<?x3xf32>"),
            std::string::npos)
      << f.ir();
  ASSERT_EQ(f.outputs().size(), 1u);
  EXPECT_EQ(f.outputs()[0].str(), "tensor<?xf32>");
  Tensor w = tensor<float>({1, -1, 0.5f, 2, -0.25f, 1}, {3, 2});
  for (int64_t n : {1, 7, 64}) {
    std::vector<float> x(n * 3);
    for (int64_t i = 0; i < n * 3; ++i)
      x[i] = 0.01f * float(i % 17) - 0.05f;
    std::vector<Tensor> out = run(f, {tensor(x, {n, 3}), w});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].shape(), llvm::ArrayRef<int64_t>({n}));
    std::vector<double> expected;
    for (int64_t r = 0; r < n; ++r) {
      double total = 0;
      for (int64_t c = 0; c < 2; ++c) {
        double dot = 0;
        for (int64_t k = 0; k < 3; ++k)
          dot += double(x[r * 3 + k]) * double(w.toVector<float>()[k * 2 + c]);
        total += std::tanh(dot);
      }
      expected.push_back(total);
    }
    expectNear(out[0].toVector<double>(), expected);
  }
  // A static dim is still checked, and a negative size is no dynamic dim.
  auto wrong = f({Tensor::zeros(DType::f32, {4, 2}), w});
  ASSERT_FALSE(bool(wrong));
  EXPECT_NE(llvm::toString(wrong.takeError()).find("tensor<?x3xf32>"),
            std::string::npos);
  std::string message = traceError([] {
    trace("neg", {spec(DType::f32, {-2})},
          [](llvm::ArrayRef<Value> a) -> Values { return {a[0]}; });
  });
  EXPECT_NE(message.find("input 0 has a negative dim"), std::string::npos)
      << message;
}

} // namespace
