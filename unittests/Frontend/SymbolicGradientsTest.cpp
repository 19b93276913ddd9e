//===- SymbolicGradientsTest.cpp - gradients() on recorded values ---------===//

#include "FrontendTestUtil.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

TEST(SymbolicGradients, OfRecordedValues) {
  Variable v(tensor<double>({2, -1, 0.5}, {3}));
  ConcreteFunction f = trace(
      "grads", {spec(DType::f64, {3}), spec(DType::f64, {3}),
                spec(DType::f64, {3})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0], w = a[1], unused = a[2];
        Value r = read(v); // an independent value: an extra argument
        Value h = sin(x) * w;
        Value y = sum(h * x * r);
        Values g = gradients({y}, {x, w, unused, h});
        EXPECT_FALSE(bool(g[2])); // unconnected: none
        GradientsOptions zero;
        zero.unconnected = UnconnectedGradients::zero;
        zero.stopGradients = {h};
        // With h a constant, y = sum(h x r): d/dx = h r, d/dw = 0.
        Values s = gradients({y}, {x, w}, zero);
        Values t = gradients({y, sum(r * x)}, {r},
                             {{full({}, 3.0, DType::f64), ones({}, DType::f64)}});
        return {g[0], g[1], g[3], s[0], s[1], t[0]};
      });
  std::vector<double> x = {0.3, -1.2, 2.0}, w = {1.5, 0.5, -2};
  std::vector<double> r = {2, -1, 0.5};
  std::vector<Tensor> out =
      run(f, {tensor<double>(x, {3}), tensor<double>(w, {3}),
              tensor<double>({0, 0, 0}, {3})});
  ASSERT_EQ(out.size(), 6u);
  std::vector<double> dx, dw, dh, dxStopped, dr;
  for (int i = 0; i < 3; ++i) {
    // y = sum(sin(x) w x r)
    dx.push_back(w[i] * r[i] * (std::cos(x[i]) * x[i] + std::sin(x[i])));
    dw.push_back(std::sin(x[i]) * x[i] * r[i]);
    dh.push_back(x[i] * r[i]);
    dxStopped.push_back(std::sin(x[i]) * w[i] * r[i]);
    // 3 y + sum(r x): d/dr = 3 sin(x) w x + x
    dr.push_back(3 * std::sin(x[i]) * w[i] * x[i] + x[i]);
  }
  expectNear(out[0].toVector<double>(), dx, 1e-12);
  expectNear(out[1].toVector<double>(), dw, 1e-12);
  expectNear(out[2].toVector<double>(), dh, 1e-12);
  expectNear(out[3].toVector<double>(), dxStopped, 1e-12);
  expectNear(out[4].toVector<double>(), {0, 0, 0});
  expectNear(out[5].toVector<double>(), dr, 1e-12);
}

TEST(SymbolicGradients, SecondDerivativesAndControlFlow) {
  ConcreteFunction f = trace(
      "hess", {spec(DType::f64, {3})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0];
        Value y = sum(x * x * x);
        Value g = gradients({y}, {x})[0];            // 3x^2
        Value h = gradients({sum(g)}, {x})[0];       // 6x
        // Through a loop: y2 = x * 2^3.
        Value y2 = fori_loop(
            0, 3,
            [](llvm::ArrayRef<Value> v) -> Values { return {v[1] * 2}; },
            {x})[0];
        Value g2 = gradients({sum(y2 * y2)}, {x})[0]; // 2 * 64 x
        return {g, h, g2};
      });
  std::vector<Tensor> out = run(f, {tensor<double>({1, -2, 0.5}, {3})});
  ASSERT_EQ(out.size(), 3u);
  expectNear(out[0].toVector<double>(), {3, 12, 0.75}, 1e-12);
  expectNear(out[1].toVector<double>(), {6, -12, 3}, 1e-12);
  expectNear(out[2].toVector<double>(), {128, -256, 64}, 1e-12);
}

TEST(SymbolicGradients, UnconnectedThroughIntegersAndStopGradient) {
  ConcreteFunction f = trace(
      "none", {spec(DType::f64, {2}), spec(DType::f64, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0], w = a[1];
        Value viaInt = cast(cast(x, DType::i32), DType::f64);
        Value y = sum(viaInt * w + stop_gradient(x) * w);
        Values g = gradients({y}, {x, w});
        EXPECT_FALSE(bool(g[0])); // as the pass decides: no float path
        GradientsOptions zero;
        zero.unconnected = UnconnectedGradients::zero;
        Value z = gradients({y}, {x}, zero)[0];
        return {g[1], z};
      });
  std::vector<Tensor> out = run(
      f, {tensor<double>({1.5, -2.5}, {2}), tensor<double>({3, 4}, {2})});
  expectNear(out[0].toVector<double>(), {2.5, -4.5}, 1e-12);
  expectNear(out[1].toVector<double>(), {0, 0});
}

TEST(SymbolicGradients, GradientsFunctionTracedAgainIsAHessian) {
  // y = sum(x^3 * s): the gradient function's jvp along e_k is column k of
  // the Hessian diag(6 x s), forward-over-reverse.
  ConcreteFunction f = trace(
      "hessian", {spec(DType::f64, {3}), spec(DType::f64, {3})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0], s = a[1];
        Value y = sum(x * x * x * s);
        GradientsFunction g = gradients_function({y}, {x, s});
        EXPECT_EQ(g.xArgument.size(), 2u);
        EXPECT_GE(g.xArgument[0], 0);
        EXPECT_EQ(g.xResult[0], 0);
        // Called at its own operands it is gradients().
        Values direct = g.gradient(g.operands);
        JvpOptions options;
        options.argnums = {g.xArgument[0]};
        Values columns;
        for (int k = 0; k < 3; ++k) {
          std::vector<double> e(3, 0.0);
          e[k] = 1;
          Value tangent = constant(tensor<double>(e, {3}));
          Values out = jvp(g.gradient, g.operands, {tangent}, options);
          // The gradients, then their tangents.
          columns.push_back(out[direct.size() + g.xResult[0]]);
        }
        return {direct[g.xResult[0]], columns[0], columns[1], columns[2]};
      });
  std::vector<Tensor> out = run(
      f, {tensor<double>({1, -2, 0.5}, {3}), tensor<double>({2, 1, -1}, {3})});
  expectNear(out[0].toVector<double>(), {6, 12, -0.75}, 1e-12);
  expectNear(out[1].toVector<double>(), {12, 0, 0}, 1e-12);
  expectNear(out[2].toVector<double>(), {0, -12, 0}, 1e-12);
  expectNear(out[3].toVector<double>(), {0, 0, -3}, 1e-12);
}

TEST(SymbolicGradients, IntegerYsCarryNoGradient) {
  // TensorFlow: gradients of an integer y are None for every x; next to a
  // float y (with its grad_y) it adds nothing.
  ConcreteFunction f = trace(
      "ints", {spec(DType::f64, {3}), spec(DType::i32, {3})},
      [](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0], n = a[1];
        EXPECT_FALSE(bool(gradients({sum(n)}, {x})[0]));
        GradientsOptions options;
        options.gradYs = {full({}, 5.0, DType::i32), full({}, 2.0, DType::f64)};
        return {gradients({sum(n), sum(x * x)}, {x}, options)[0]};
      });
  std::vector<Tensor> out =
      run(f, {tensor<double>({1, -2, 0.5}, {3}), tensor<int32_t>({1, 2, 3}, {3})});
  expectNear(out[0].toVector<double>(), {4, -8, 2}, 1e-12);
}

TEST(SymbolicGradients, Errors) {
  std::string message = traceError([] {
    trace("bad", {spec(DType::f32, {3})},
          [](llvm::ArrayRef<Value> a) -> Values {
            GradientsOptions options;
            options.gradYs = {ones({}, DType::f32), ones({}, DType::f32)};
            return gradients({sum(a[0])}, {a[0]}, options);
          });
  });
  EXPECT_NE(message.find("gradients: got 2 grad_ys for 1 ys"),
            std::string::npos)
      << message;
}

} // namespace
