//===- StateTest.cpp - Captured inputs and variables ----------------------===//

#include "FrontendTestUtil.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

TEST(State, CapturedTensorsBecomeInputsTheFunctionRemembers) {
  Tensor scale = tensor<float>({2, 3}, {2});
  Tensor table = tensor<float>({10, 20}, {2});
  ConcreteFunction f = trace(
      "scaled", {spec(DType::f32, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        // The same tensor captured twice is one input; a constant is not one.
        return {a[0] * capture(scale) + capture(scale) + constant(table)};
      });
  ASSERT_EQ(f.arguments().size(), 2u);
  EXPECT_EQ(f.arguments()[1].kind, ArgumentInfo::Kind::captured);
  ASSERT_EQ(f.capturedInputs().size(), 1u);
  EXPECT_TRUE(f.capturedInputs()[0].sharesStorageWith(scale));
  EXPECT_EQ(f.inputs().size(), 1u);
  EXPECT_NE(f.ir().find("func.func @scaled(%arg0: tensor<2xf32>, %arg1: "
                        "tensor<2xf32>)"),
            std::string::npos)
      << f.ir();

  Tensor x = tensor<float>({1, 1}, {2});
  expectNear(run(f, {x})[0].toVector<double>(), {14, 26});
  // The capture shares the host tensor's storage: later writes are seen.
  scale.data<float>()[0] = 5;
  expectNear(run(f, {x})[0].toVector<double>(), {20, 26});
}

TEST(State, VariablesAreResourceArgumentsUpdatedInPlace) {
  Variable counter(Tensor::scalar<float>(0));
  Variable w(tensor<float>({1, 2}, {2}));
  ConcreteFunction step = trace(
      "step", {spec(DType::f32, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        assign_add(counter, 1); // a C++ scalar is broadcast and cast
        Value before = read(w);
        assign_sub(w, a[0] * 0.5);
        assign(w, read(w) * 2);
        return {before, read(counter)};
      });
  ASSERT_EQ(step.variables().size(), 2u);
  EXPECT_EQ(step.variables()[0], &counter);
  EXPECT_EQ(step.variables()[1], &w);
  std::string ir = step.ir();
  EXPECT_NE(ir.find("%arg1: !trace.resource<tensor<f32>>"), std::string::npos)
      << ir;
  EXPECT_NE(ir.find("%arg2: !trace.resource<tensor<2xf32>>"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("trace.var.assign_sub"), std::string::npos) << ir;

  Tensor x = tensor<float>({2, 4}, {2});
  std::vector<Tensor> out = run(step, {x});
  ASSERT_EQ(out.size(), 2u);
  expectNear(out[0].toVector<double>(), {1, 2});
  expectNear(out[1].toVector<double>(), {1});
  expectNear(w.value().toVector<double>(), {0, 0});
  out = run(step, {x});
  expectNear(out[0].toVector<double>(), {0, 0});
  expectNear(out[1].toVector<double>(), {2});
  expectNear(w.value().toVector<double>(), {-2, -4});
  expectNear(counter.value().toVector<double>(), {2});
}

TEST(State, AssigningAnIncompatibleShapeNamesTheOp) {
  Variable w(tensor<float>({1, 2}, {2}));
  std::string message = traceError([&] {
    trace("bad", {spec(DType::f32, {3})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            assign(w, a[0]);
            return {};
          });
  });
  EXPECT_NE(message.find("'trace.broadcast_to'"), std::string::npos)
      << message;
  EXPECT_NE(message.find("does not broadcast to"), std::string::npos)
      << message;
}

} // namespace

namespace {

/// The example of docs/guides/cpp.md ("The C++ tracer"): least squares,
/// one SGD step per call.
TEST(State, ReadmeExampleTrainsInPlace) {
  Variable w(Tensor::zeros(DType::f32, {3, 2}));
  ConcreteFunction step = trace(
      "step", {{DType::f32, {4, 3}}, {DType::f32, {4, 2}}},
      [&](llvm::ArrayRef<Value> a) -> std::vector<Value> {
        auto loss = [&](llvm::ArrayRef<Value> b) -> std::vector<Value> {
          return {mean(square(matmul(b[0], read(w)) - b[1]))};
        };
        GradOptions wrtW;
        wrtW.argnums = {};
        wrtW.variables = {&w};
        std::vector<Value> lg = value_and_grad(loss, wrtW)({a[0], a[1]});
        assign_sub(w, 0.1 * lg[1]);
        return {lg[0]};
      });
  // y = x @ wTrue with an identity-like x: the loss falls to ~0.
  Tensor x = tensor<float>({1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}, {4, 3});
  Tensor y = tensor<float>({1, 2, 3, 4, 5, 6, 9, 12}, {4, 2});
  double first = run(step, {x, y})[0].toVector<double>()[0];
  double last = first;
  for (int i = 0; i < 300; ++i)
    last = run(step, {x, y})[0].toVector<double>()[0];
  // mean over 8 elements of y^2 at w = 0.
  EXPECT_NEAR(first, (1 + 4 + 9 + 16 + 25 + 36 + 81 + 144) / 8.0, 1e-4);
  EXPECT_LT(last, 1e-6);
  expectNear(w.value().toVector<double>(), {1, 2, 3, 4, 5, 6}, 1e-3);
}

} // namespace
