//===- GradientTest.cpp - grad, value_and_grad, vjp against differences ---===//
//
// Gradients recorded by the tracer (trace.grad & co., differentiated by
// trace-autodiff at compile time) are compared with central differences of
// the same traced function, computed in f64 through the JIT.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

/// Central differences of the scalar function `loss` with respect to
/// input `wrt`, at `inputs`.
std::vector<double> numericGradient(ConcreteFunction &loss,
                                    std::vector<Tensor> inputs, size_t wrt) {
  std::vector<double> gradient;
  Tensor &x = inputs[wrt];
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double saved = x.data<double>()[i];
    double h = 1e-6 * std::max(1.0, std::fabs(saved));
    x.data<double>()[i] = saved + h;
    double plus = run(loss, inputs)[0].toVector<double>()[0];
    x.data<double>()[i] = saved - h;
    double minus = run(loss, inputs)[0].toVector<double>()[0];
    x.data<double>()[i] = saved;
    gradient.push_back((plus - minus) / (2 * h));
  }
  return gradient;
}

Tensor sample(llvm::ArrayRef<int64_t> shape, double offset) {
  Tensor t = Tensor::zeros(DType::f64, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<double>()[i] = std::sin(1.7 * i + offset) * 0.8;
  return t;
}

/// A small MLP loss: mean(softmax cross-entropy) of tanh(x w1 + b) w2.
Values mlpLoss(llvm::ArrayRef<Value> a) {
  Value h = tanh(matmul(a[0], a[1]) + a[2]);
  Value logits = matmul(h, a[3]);
  Value labels = a[4];
  return {-mean(sum(labels * log_softmax(logits), {1}))};
}

TEST(Gradients, GradAndValueAndGradMatchFiniteDifferences) {
  std::vector<TensorSpec> specs = {spec(DType::f64, {4, 3}),
                                   spec(DType::f64, {3, 5}),
                                   spec(DType::f64, {5}),
                                   spec(DType::f64, {5, 2}),
                                   spec(DType::f64, {4, 2})};
  ConcreteFunction loss = trace("loss", specs, mlpLoss);
  ConcreteFunction grads = trace(
      "grads", specs, [](llvm::ArrayRef<Value> a) -> Values {
        Values g = grad(mlpLoss, {{1, 2, 3}})(a);
        EXPECT_EQ(g.size(), 3u);
        Values vg = value_and_grad(mlpLoss, {{0}})(a);
        g.insert(g.end(), vg.begin(), vg.end());
        return g;
      });
  EXPECT_NE(grads.ir().find("trace.grad @grads_callee0"), std::string::npos)
      << grads.ir();
  EXPECT_NE(grads.ir(true).find("__backward_grads_callee0"), std::string::npos)
      << grads.ir(true);
  std::vector<Tensor> inputs = {sample({4, 3}, 0), sample({3, 5}, 1),
                                sample({5}, 2), sample({5, 2}, 3),
                                tensor<double>({1, 0, 0, 1, 1, 0, 0, 1}, {4, 2})};
  std::vector<Tensor> out = run(grads, inputs);
  ASSERT_EQ(out.size(), 5u);
  expectNear(out[0].toVector<double>(), numericGradient(loss, inputs, 1), 1e-6);
  expectNear(out[1].toVector<double>(), numericGradient(loss, inputs, 2), 1e-6);
  expectNear(out[2].toVector<double>(), numericGradient(loss, inputs, 3), 1e-6);
  expectNear(out[3].toVector<double>(), run(loss, inputs)[0].toVector<double>(),
             1e-12);
  expectNear(out[4].toVector<double>(), numericGradient(loss, inputs, 0), 1e-6);
}

TEST(Gradients, VjpMatchesFiniteDifferencesOfTheWeightedSum) {
  auto f = [](llvm::ArrayRef<Value> a) -> Values {
    return {sin(a[0]) * a[1], exp(a[0])};
  };
  std::vector<TensorSpec> specs = {spec(DType::f64, {3}), spec(DType::f64, {3})};
  Tensor dy0 = tensor<double>({1, -2, 0.5}, {3});
  Tensor dy1 = tensor<double>({0.25, 1, -1}, {3});
  ConcreteFunction v = trace(
      "vjp", specs, [&](llvm::ArrayRef<Value> a) -> Values {
        return vjp(f, a, {constant(dy0), constant(dy1)}, {{0, 1}});
      });
  // sum(dy0 * f0 + dy1 * f1): its gradient is the vjp.
  ConcreteFunction weighted = trace(
      "weighted", specs, [&](llvm::ArrayRef<Value> a) -> Values {
        Values y = f(a);
        return {sum(y[0] * constant(dy0)) + sum(y[1] * constant(dy1))};
      });
  std::vector<Tensor> inputs = {sample({3}, 0.3), sample({3}, 0.9)};
  std::vector<Tensor> out = run(v, inputs);
  ASSERT_EQ(out.size(), 4u);
  Values unused;
  std::vector<double> x = inputs[0].toVector<double>(),
                      y = inputs[1].toVector<double>();
  expectNear(out[0].toVector<double>(),
             {std::sin(x[0]) * y[0], std::sin(x[1]) * y[1],
              std::sin(x[2]) * y[2]},
             1e-12);
  expectNear(out[2].toVector<double>(), numericGradient(weighted, inputs, 0),
             1e-6);
  expectNear(out[3].toVector<double>(), numericGradient(weighted, inputs, 1),
             1e-6);
}

TEST(Gradients, ClosuresVariablesAndSecondDerivatives) {
  Variable w(tensor<double>({0.5, -1, 2}, {3}));
  ConcreteFunction f = trace(
      "mixed", {spec(DType::f64, {3}), spec(DType::f64, {})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Value scale = a[1] * 2; // closed over by the callee: an extra input
        auto loss = [&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(b[0] * b[0] * read(w)) * scale};
        };
        GradOptions both;
        both.variables = {&w};
        Values g = grad(loss, both)({a[0]});
        // d/dx of sum(x^3) is 3x^2; its derivative along x (sum of
        // grad) is 6x.
        auto cube = [](llvm::ArrayRef<Value> b) -> Values {
          return {sum(b[0] * b[0] * b[0])};
        };
        auto sumOfGrad = [&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(grad(cube)(b)[0])};
        };
        g.push_back(grad(sumOfGrad)({a[0]})[0]);
        return g;
      });
  std::vector<Tensor> out =
      run(f, {tensor<double>({1, 2, -3}, {3}), Tensor::scalar<double>(1.5)});
  ASSERT_EQ(out.size(), 3u);
  // loss = 3 * sum(x^2 w): d/dx = 6 x w, d/dw = 3 x^2.
  expectNear(out[0].toVector<double>(), {3, -12, -36}, 1e-12);
  expectNear(out[1].toVector<double>(), {3, 12, 27}, 1e-12);
  expectNear(out[2].toVector<double>(), {6, 12, -18}, 1e-9);
}

TEST(Gradients, UnconnectedErrorAndBadArgnums) {
  auto ignoresY = [](llvm::ArrayRef<Value> a) -> Values {
    return {sum(a[0])};
  };
  ConcreteFunction zero = trace(
      "zero", {spec(DType::f64, {2}), spec(DType::f64, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        return grad(ignoresY, {{1}})(a);
      });
  expectNear(run(zero, {tensor<double>({1, 2}, {2}),
                        tensor<double>({3, 4}, {2})})[0]
                 .toVector<double>(),
             {0, 0});

  std::string message = traceError([&] {
    trace("bad", {spec(DType::f64, {2})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            return grad(ignoresY, {{3}})(a);
          });
  });
  EXPECT_NE(message.find("argnum 3 is out of range"), std::string::npos)
      << message;

  message = traceError([&] {
    trace("bad", {spec(DType::f64, {2})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            return grad([](llvm::ArrayRef<Value> b) -> Values {
              return {b[0] * 2};
            })(a);
          });
  });
  EXPECT_NE(message.find("'trace.grad'"), std::string::npos) << message;
}

TEST(Gradients, UnconnectedNoneGivesNullValues) {
  // y depends on a[0]; on a[1] only through an integer and stop_gradient;
  // on a[2] not at all.
  auto f = [](llvm::ArrayRef<Value> a) -> Values {
    Value viaInt = cast(cast(a[1], DType::i32), DType::f64);
    return {sum(a[0] * viaInt + stop_gradient(a[1]) * a[0])};
  };
  GradOptions none;
  none.argnums = {0, 1, 2};
  none.unconnected = Unconnected::none;
  ConcreteFunction g = trace(
      "none", {spec(DType::f64, {2}), spec(DType::f64, {2}),
               spec(DType::f64, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Values grads = grad(f, none)(a);
        EXPECT_EQ(grads.size(), 3u);
        EXPECT_TRUE(bool(grads[0]));
        EXPECT_FALSE(bool(grads[1])); // through i32 and stop_gradient
        EXPECT_FALSE(bool(grads[2])); // unused
        Values vg = value_and_grad(f, none)(a);
        EXPECT_TRUE(bool(vg[0]) && bool(vg[1]));
        EXPECT_FALSE(bool(vg[2]) || bool(vg[3]));
        Values v = vjp(f, a, {full({}, 2.0, DType::f64)}, none);
        EXPECT_TRUE(bool(v[0]) && bool(v[1]));
        EXPECT_FALSE(bool(v[2]) || bool(v[3]));
        return {grads[0], vg[1], v[1]};
      });
  std::vector<Tensor> out =
      run(g, {tensor<double>({1, 2}, {2}), tensor<double>({1.5, -2.5}, {2}),
              tensor<double>({0, 0}, {2})});
  ASSERT_EQ(out.size(), 3u);
  // d/da0 = trunc(a1) + a1.
  expectNear(out[0].toVector<double>(), {2.5, -4.5}, 1e-12);
  expectNear(out[1].toVector<double>(), {2.5, -4.5}, 1e-12);
  expectNear(out[2].toVector<double>(), {5, -9}, 1e-12);
}

TEST(Gradients, HasAuxReturnsAuxiliaryResultsOfOneRun) {
  // loss = sum(x^2 y); aux: x * y and sum(x). One run of f: a vjp.
  auto f = [](llvm::ArrayRef<Value> a) -> Values {
    return {sum(a[0] * a[0] * a[1]), a[0] * a[1], sum(a[0])};
  };
  GradOptions options;
  options.argnums = {0, 1};
  options.hasAux = true;
  ConcreteFunction g = trace(
      "aux", {spec(DType::f64, {2}), spec(DType::f64, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Values vg = value_and_grad(f, options)(a); // loss, aux x2, grads x2
        Values ga = grad(f, options)(a);           // grads x2, aux x2
        vg.insert(vg.end(), ga.begin(), ga.end());
        return vg;
      });
  EXPECT_NE(g.ir().find("trace.vjp @aux_callee0"), std::string::npos)
      << g.ir();
  std::vector<Tensor> out =
      run(g, {tensor<double>({1, -2}, {2}), tensor<double>({3, 0.5}, {2})});
  ASSERT_EQ(out.size(), 9u);
  expectNear(out[0].toVector<double>(), {3 + 2}, 1e-12);
  expectNear(out[1].toVector<double>(), {3, -1}, 1e-12);
  expectNear(out[2].toVector<double>(), {-1}, 1e-12);
  expectNear(out[3].toVector<double>(), {6, -2}, 1e-12); // 2 x y
  expectNear(out[4].toVector<double>(), {1, 4}, 1e-12);  // x^2
  expectNear(out[5].toVector<double>(), {6, -2}, 1e-12);
  expectNear(out[6].toVector<double>(), {1, 4}, 1e-12);
  expectNear(out[7].toVector<double>(), {3, -1}, 1e-12);
  expectNear(out[8].toVector<double>(), {-1}, 1e-12);

  GradOptions auxOnly;
  auxOnly.hasAux = true;
  std::string message = traceError([&] {
    trace("bad", {spec(DType::f64, {2})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            return grad([](llvm::ArrayRef<Value> b) -> Values {
              return {sum(b[0]), argmax(b[0], 0)};
            }, auxOnly)(a);
          });
  });
  EXPECT_NE(message.find("auxiliary result 0 of @bad_callee0 is a "
                         "tensor<i64>; auxiliary results must be "
                         "floating-point tensors"),
            std::string::npos)
      << message;
  message = traceError([&] {
    trace("bad", {spec(DType::f64, {2})},
          [&](llvm::ArrayRef<Value> a) -> Values {
            return value_and_grad([](llvm::ArrayRef<Value> b) -> Values {
              return {b[0], sum(b[0])};
            }, auxOnly)(a);
          });
  });
  EXPECT_NE(message.find("'trace.value_and_grad' with has_aux needs a "
                         "function returning a scalar float loss first"),
            std::string::npos)
      << message;
}

} // namespace

namespace {

/// The forward/backward pair: forward's results are the function's, and
/// backward on its residuals gives the vector-Jacobian product.
TEST(Gradients, ForwardBackwardPair) {
  ConcreteFunction f = trace(
      "f", {spec(DType::f64, {3}), spec(DType::f64, {3}),
            spec(DType::i32, {})},
      [](llvm::ArrayRef<Value> a) -> Values {
        return {sum(tanh(a[0] * a[1])), a[0] * 2, a[2] + 1};
      });
  auto pair = f.forwardBackward();
  ASSERT_TRUE(bool(pair)) << llvm::toString(pair.takeError());
  EXPECT_EQ(pair->numResults, 3u);
  EXPECT_EQ(pair->wrt, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(pair->cotangentResults, (std::vector<unsigned>{0, 1}));
  std::vector<double> x = {0.5, -1, 2}, w = {1.5, 0.25, -0.5};
  auto forward = pair->forward({tensor<double>(x, {3}), tensor<double>(w, {3}),
                                Tensor::scalar<int32_t>(4)});
  ASSERT_TRUE(bool(forward)) << llvm::toString(forward.takeError());
  ASSERT_EQ(forward->size(), 3 + pair->numResiduals);
  double total = 0;
  for (int i = 0; i < 3; ++i)
    total += std::tanh(x[i] * w[i]);
  expectNear((*forward)[0].toVector<double>(), {total}, 1e-12);
  EXPECT_EQ((*forward)[2].toVector<int>(), (std::vector<int>{5}));

  std::vector<Tensor> backwardArgs(forward->begin() + 3, forward->end());
  backwardArgs.push_back(Tensor::scalar<double>(2.0));
  backwardArgs.push_back(tensor<double>({1, 0, -1}, {3}));
  auto grads = pair->backward(backwardArgs);
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  ASSERT_EQ(grads->size(), 2u);
  std::vector<double> dx, dw;
  std::vector<double> dy1 = {1, 0, -1};
  for (int i = 0; i < 3; ++i) {
    double s = 1 - std::pow(std::tanh(x[i] * w[i]), 2);
    dx.push_back(2 * s * w[i] + 2 * dy1[i]);
    dw.push_back(2 * s * x[i]);
  }
  expectNear((*grads)[0].toVector<double>(), dx, 1e-12);
  expectNear((*grads)[1].toVector<double>(), dw, 1e-12);
}

} // namespace

namespace {

/// With a variable: its gradient is that of the value read from it.
TEST(Gradients, ForwardBackwardWithAVariable) {
  Variable v(tensor<double>({1, 2}, {2}));
  ConcreteFunction f = trace(
      "g", {spec(DType::f64, {2})}, [&](llvm::ArrayRef<Value> a) -> Values {
        return {sum(read(v) * a[0] * a[0])};
      });
  auto pair = f.forwardBackward({0, 1});
  ASSERT_TRUE(bool(pair)) << llvm::toString(pair.takeError());
  auto forward = pair->forward({tensor<double>({3, -1}, {2}), v.buffer()});
  ASSERT_TRUE(bool(forward)) << llvm::toString(forward.takeError());
  expectNear((*forward)[0].toVector<double>(), {1 * 9 + 2 * 1});
  std::vector<Tensor> args(forward->begin() + 1, forward->end());
  args.push_back(Tensor::scalar<double>(1.0));
  auto grads = pair->backward(args);
  ASSERT_TRUE(bool(grads)) << llvm::toString(grads.takeError());
  expectNear((*grads)[0].toVector<double>(), {6, -4});
  expectNear((*grads)[1].toVector<double>(), {9, 1});
}

} // namespace
