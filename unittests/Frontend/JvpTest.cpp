//===- JvpTest.cpp - jvp of traced callables against differences ----------===//
//
// trace.jvp recorded by the tracer, differentiated by trace-autodiff at
// compile time: tangents against central differences of the same traced
// function, and a Hessian-vector product (jvp of grad, forward-over-reverse)
// against differences of the gradient.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

Tensor sample(llvm::ArrayRef<int64_t> shape, double offset) {
  Tensor t = Tensor::zeros(DType::f64, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<double>()[i] = std::sin(1.7 * i + offset) * 0.8;
  return t;
}

/// x + h v, elementwise.
Tensor along(const Tensor &x, const Tensor &v, double h) {
  Tensor out = x.clone();
  for (int64_t i = 0; i < out.numElements(); ++i)
    out.data<double>()[i] += h * v.data<double>()[i];
  return out;
}

Values layer(llvm::ArrayRef<Value> a) {
  return {tanh(matmul(a[0], a[1])), sum(exp(a[0]))};
}

TEST(Jvp, TangentsMatchFiniteDifferences) {
  std::vector<TensorSpec> specs = {spec(DType::f64, {3, 4}),
                                   spec(DType::f64, {4, 2})};
  ConcreteFunction f = trace("f", specs, layer);
  std::vector<TensorSpec> jvpSpecs = specs;
  jvpSpecs.push_back(spec(DType::f64, {3, 4}));
  jvpSpecs.push_back(spec(DType::f64, {4, 2}));
  ConcreteFunction forward =
      trace("forward", jvpSpecs, [](llvm::ArrayRef<Value> a) -> Values {
        return jvp(layer, {a[0], a[1]}, {a[2], a[3]});
      });
  EXPECT_NE(forward.ir().find("trace.jvp @forward_callee0"), std::string::npos)
      << forward.ir();
  EXPECT_NE(forward.ir(true).find("__jvp_forward_callee0"), std::string::npos)
      << forward.ir(true);
  Tensor x = sample({3, 4}, 0), w = sample({4, 2}, 1);
  Tensor vx = sample({3, 4}, 2), vw = sample({4, 2}, 3);
  std::vector<Tensor> out = run(forward, {x, w, vx, vw});
  ASSERT_EQ(out.size(), 4u);
  double h = 1e-6;
  std::vector<Tensor> plus = run(f, {along(x, vx, h), along(w, vw, h)});
  std::vector<Tensor> minus = run(f, {along(x, vx, -h), along(w, vw, -h)});
  for (int r = 0; r < 2; ++r) {
    std::vector<double> numeric;
    std::vector<double> p = plus[r].toVector<double>(),
                        m = minus[r].toVector<double>();
    for (size_t i = 0; i < p.size(); ++i)
      numeric.push_back((p[i] - m[i]) / (2 * h));
    expectNear(out[2 + r].toVector<double>(), numeric, 1e-6);
  }
  expectNear(out[0].toVector<double>(), run(f, {x, w})[0].toVector<double>(),
             1e-12);
}

/// Only argument 1 gets a tangent (argnums); the result's tangent is
/// d/dw tanh(x w) . vw.
TEST(Jvp, ArgnumsAndHessianVectorProduct) {
  auto loss = [](llvm::ArrayRef<Value> a) -> Values {
    return {sum(square(tanh(matmul(a[0], a[1]))))};
  };
  std::vector<TensorSpec> specs = {spec(DType::f64, {3, 4}),
                                   spec(DType::f64, {4, 2}),
                                   spec(DType::f64, {4, 2})};
  // H v for the loss's Hessian in w: jvp of grad (forward-over-reverse).
  ConcreteFunction hvp =
      trace("hvp", specs, [&](llvm::ArrayRef<Value> a) -> Values {
        Callable gradW = grad(loss, {{1}});
        Values out = jvp(gradW, {a[0], a[1]}, {a[2]}, {{1}});
        return {out[1]};
      });
  ConcreteFunction gradient = trace(
      "gradient", {specs[0], specs[1]},
      [&](llvm::ArrayRef<Value> a) -> Values { return grad(loss, {{1}})(a); });
  Tensor x = sample({3, 4}, 0), w = sample({4, 2}, 1), v = sample({4, 2}, 2);
  std::vector<Tensor> out = run(hvp, {x, w, v});
  double h = 1e-6;
  std::vector<double> p =
      run(gradient, {x, along(w, v, h)})[0].toVector<double>();
  std::vector<double> m =
      run(gradient, {x, along(w, v, -h)})[0].toVector<double>();
  std::vector<double> numeric;
  for (size_t i = 0; i < p.size(); ++i)
    numeric.push_back((p[i] - m[i]) / (2 * h));
  expectNear(out[0].toVector<double>(), numeric, 1e-6);
}

TEST(Jvp, ErrorsNameTheArgument) {
  std::vector<TensorSpec> specs = {spec(DType::f64, {3}),
                                   spec(DType::i32, {3})};
  auto f = [](llvm::ArrayRef<Value> a) -> Values { return {exp(a[0])}; };
  EXPECT_THROW(
      {
        try {
          trace("bad", specs, [&](llvm::ArrayRef<Value> a) -> Values {
            return jvp(f, {a[0], a[1]}, {a[0], a[0]});
          });
        } catch (const TraceError &e) {
          EXPECT_NE(std::string(e.what()).find(
                        "'trace.jvp' argument 1 has no tangent"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      TraceError);
}

} // namespace
