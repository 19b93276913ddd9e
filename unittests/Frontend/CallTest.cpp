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

TEST(Call, HoistedReadsAreValuesTheCallerReadsAndDifferentiates) {
  Variable w(tensor<double>({0.5, -1, 2}, {3}));
  Callable scaled = [&](llvm::ArrayRef<Value> a) -> Values {
    return {exp(a[0] * read(w))};
  };
  Callable outer = [&](llvm::ArrayRef<Value> a) -> Values {
    return {call("inner", {a[0]}, scaled)[0] * 2.0};
  };
  std::vector<std::pair<Variable *, Value>> reads;
  ConcreteFunction f = trace(
      "f", {spec(DType::f64, {3})}, [&](llvm::ArrayRef<Value> a) -> Values {
        CallOptions options;
        options.hoistReads = true;
        options.reads = &reads;
        Value y = sum(call("outer", {a[0]}, outer, options)[0]);
        Value y2 = sum(call("outer", {a[0] * 3.0}, outer, options)[0]);
        EXPECT_EQ(reads.size(), 2u); // one read of w per call site
        std::vector<Value> g =
            gradients({y + y2}, {reads[0].second, reads[1].second});
        return {y + y2, g[0] + g[1]};
      });
  EXPECT_EQ(reads[0].first, &w);
  std::string ir = f.ir();
  // The callees take w's value (the nested call hoists it too), and the
  // caller reads w before each call.
  EXPECT_NE(ir.find("private @outer(%arg0: tensor<3xf64>, "
                    "%arg1: tensor<3xf64>)"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("private @inner(%arg0: tensor<3xf64>, "
                    "%arg1: tensor<3xf64>)"),
            std::string::npos)
      << ir;
  std::string callees = ir.substr(0, ir.find("func.func @f("));
  EXPECT_EQ(callees.find("resource"), std::string::npos) << ir;
  // y = sum 2 exp(x w) + sum 2 exp(3 x w); dy/dw = 2 x e^{xw} + 6 x e^{3xw}.
  std::vector<double> x = {0.3, 0.2, -0.1}, wv = {0.5, -1, 2};
  std::vector<Tensor> out = run(f, {tensor<double>(x, {3})});
  double value = 0;
  std::vector<double> grad(3);
  for (int i = 0; i < 3; ++i) {
    value += 2 * std::exp(x[i] * wv[i]) + 2 * std::exp(3 * x[i] * wv[i]);
    grad[i] = 2 * x[i] * std::exp(x[i] * wv[i]) +
              6 * x[i] * std::exp(3 * x[i] * wv[i]);
  }
  expectNear(out[0].toVector<double>(), {value}, 1e-12);
  expectNear(out[1].toVector<double>(), grad, 1e-12);
}

TEST(Call, HoistedReadsRejectAssignments) {
  Variable w(tensor<double>({1, 2}, {2}));
  Callable bumps = [&](llvm::ArrayRef<Value> a) -> Values {
    assign_add(w, a[0]);
    return {a[0]};
  };
  std::string message = traceError([&] {
    trace("bad", {spec(DType::f64, {2})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            CallOptions options;
            options.hoistReads = true;
            return call("bumps", {a[0]}, bumps, options);
          });
  });
  EXPECT_NE(message.find("@bumps is called with its variable reads hoisted "
                         "to the caller (CallOptions::hoistReads; every "
                         "vmap), but it assigns a variable"),
            std::string::npos)
      << message;
}

} // namespace
