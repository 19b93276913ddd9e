//===- CallTest.cpp - tracec::call: one func.func, many func.calls --------===//

#include "FrontendTestUtil.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

TEST(Call, OneCalleePerNameReusedWithVariablesAsArguments) {
  Variable w(tensor<double>({1, 2}, {2}));
  int traced = 0;
  Callable scaled = [&](llvm::ArrayRef<Value> a) -> Values {
    ++traced;
    assign_add(w, a[0]);
    return {a[0] * read(w)};
  };
  ConcreteFunction f = trace(
      "outer", {spec(DType::f64, {2})}, [&](llvm::ArrayRef<Value> a) -> Values {
        Value y = call("scaled", {a[0]}, scaled)[0];
        EXPECT_TRUE(isTracedCallee("scaled"));
        Value z = call("scaled", {y}, scaled)[0];
        return {z};
      });
  EXPECT_EQ(traced, 1);
  std::string ir = f.ir();
  EXPECT_NE(ir.find("func.func private @scaled("), std::string::npos) << ir;
  size_t calls = 0;
  for (size_t at = ir.find("call @scaled("); at != std::string::npos;
       at = ir.find("call @scaled(", at + 1))
    ++calls;
  EXPECT_EQ(calls, 2u) << ir;
  // w = [1, 2]; x = [1, 1]: w1 = [2, 3], y = [2, 3]; w2 = [4, 6], z = y*w2.
  std::vector<Tensor> out = run(f, {tensor<double>({1, 1}, {2})});
  expectNear(out[0].toVector<double>(), {8, 18}, 1e-12);
  expectNear(w.buffer().toVector<double>(), {4, 6}, 1e-12);
}

TEST(Call, GradientsFlowThroughCalls) {
  Callable cube = [](llvm::ArrayRef<Value> a) -> Values {
    return {a[0] * a[0] * a[0]};
  };
  ConcreteFunction f = trace(
      "g", {spec(DType::f64, {3})}, [&](llvm::ArrayRef<Value> a) -> Values {
        return grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(call("cube", {b[0]}, cube)[0] +
                      call("cube", {b[0] * 2.0}, cube)[0])};
        })(a);
      });
  // d/dx (x^3 + 8 x^3) = 27 x^2.
  std::vector<Tensor> out = run(f, {tensor<double>({1, -2, 0.5}, {3})});
  expectNear(out[0].toVector<double>(), {27, 108, 6.75}, 1e-9);
}

TEST(Call, ArgumentTypesMustMatchTheTracedCallee) {
  Callable twice = [](llvm::ArrayRef<Value> a) -> Values {
    return {a[0] * 2.0};
  };
  std::string message = traceError([&] {
    trace("bad", {spec(DType::f64, {2}), spec(DType::f32, {3})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            call("twice", {a[0]}, twice);
            return call("twice", {a[1]}, twice);
          });
  });
  EXPECT_NE(message.find("call of @twice with arguments (tensor<3xf32>), but "
                         "it was traced for (tensor<2xf64>)"),
            std::string::npos)
      << message;
}

} // namespace
