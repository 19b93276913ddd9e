//===- CustomGradientTest.cpp - customGradient, customJvp, checkpoint -----===//
//
// Custom gradients (trace.custom_vjp) and forward-mode rules
// (trace.custom_jvp) against analytic derivatives, where the automatic
// gradient differs visibly; rematerialization (checkpoint)
// against the saved version, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include <cmath>
#include <cstring>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

/// log(1 + e^x), whose automatic gradient e^x / (1 + e^x) is inf / inf =
/// NaN in f32 at x = 100, with the stable gradient sigmoid(x) (the example
/// of TensorFlow's custom_gradient).
Callable log1pexp() {
  return customGradient(
      [](llvm::ArrayRef<Value> a) {
        Value x = a[0];
        return CustomGradientResult{
            {log1p(exp(x))}, [x](llvm::ArrayRef<Value> dy) -> Values {
              return {dy[0] * sigmoid(x)};
            }};
      },
      "log1pexp");
}

/// The identity, whose gradient is clipped to [-1, 1].
Callable clipGradient() {
  return customGradient(
      [](llvm::ArrayRef<Value> a) {
        return CustomGradientResult{
            {a[0]}, [](llvm::ArrayRef<Value> dy) -> Values {
              return {minimum(maximum(dy[0], -1.0), 1.0)};
            }};
      },
      "clip_gradient");
}

double sigmoidOf(double x) { return 1 / (1 + std::exp(-x)); }

std::vector<double> toDoubles(const Tensor &t) {
  std::vector<double> out;
  for (float v : t.toVector<float>())
    out.push_back(v);
  return out;
}

TEST(CustomGradient, Log1pexpIsStableWhereTheAutomaticGradientIsNaN) {
  Callable custom = log1pexp();
  auto automatic = [](llvm::ArrayRef<Value> a) -> Values {
    return {sum(log1p(exp(a[0])))};
  };
  ConcreteFunction grads = trace(
      "grads", {spec(DType::f32, {4})}, [&](llvm::ArrayRef<Value> a) {
        Values g = grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(custom(b)[0])};
        })(a);
        Values ga = grad(automatic)(a);
        return Values{g[0], ga[0]};
      });
  std::string ir = grads.ir(true);
  EXPECT_NE(ir.find("call @log1pexp_fwd"), std::string::npos) << ir;
  EXPECT_NE(ir.find("call @log1pexp_bwd"), std::string::npos) << ir;
  std::vector<Tensor> out =
      run(grads, {tensor<float>({-5, 0, 5, 100}, {4})});
  ASSERT_EQ(out.size(), 2u);
  std::vector<float> g = out[0].toVector<float>();
  std::vector<float> ga = out[1].toVector<float>();
  for (auto [i, x] : llvm::enumerate(std::vector<double>{-5, 0, 5, 100}))
    EXPECT_NEAR(g[i], sigmoidOf(x), 1e-6) << "x = " << x;
  EXPECT_EQ(g[3], 1.0f);
  // The automatic gradient agrees where it is finite and fails at 100.
  EXPECT_NEAR(ga[1], 0.5, 1e-6);
  EXPECT_FALSE(std::isfinite(ga[3])) << ga[3];
}

TEST(CustomGradient, PlainCallsRunTheFunction) {
  Callable custom = log1pexp();
  ConcreteFunction f = trace("f", {spec(DType::f32, {2})},
                             [&](llvm::ArrayRef<Value> a) { return custom(a); });
  std::vector<Tensor> out = run(f, {tensor<float>({0, 1}, {2})});
  ASSERT_EQ(out.size(), 1u);
  expectNear(toDoubles(out[0]), {std::log(2.0), std::log1p(std::exp(1.0))});
}

TEST(CustomGradient, ClipsTheGradient) {
  Callable clip = clipGradient();
  ConcreteFunction grads = trace(
      "grads", {spec(DType::f32, {4}), spec(DType::f32, {4})},
      [&](llvm::ArrayRef<Value> a) {
        return grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(clip({b[0]})[0] * b[1])};
        })(a);
      });
  std::vector<Tensor> out = run(grads, {tensor<float>({1, 2, 3, 4}, {4}),
                                        tensor<float>({-3, 0.5, 2, -0.25}, {4})});
  ASSERT_EQ(out.size(), 1u);
  expectNear(toDoubles(out[0]), {-1, 0.5, 1, -0.25});
}

TEST(CustomGradient, InsideALoop) {
  // Each iteration doubles the carried value with a custom gradient of 3:
  // the loss's gradient after 4 iterations is 3^4 = 81 where the
  // automatic one would be 2^4 = 16.
  Callable doubled = customGradient(
      [](llvm::ArrayRef<Value> a) {
        return CustomGradientResult{
            {a[0] * 2.0}, [](llvm::ArrayRef<Value> dy) -> Values {
              return {dy[0] * 3.0};
            }};
      },
      "doubled");
  auto loss = [&](llvm::ArrayRef<Value> a) -> Values {
    Values r = fori_loop(0, 4, [&](llvm::ArrayRef<Value> v) -> Values {
      return {doubled({v[1]})[0]};
    }, {a[0]});
    return {sum(r[0])};
  };
  ConcreteFunction grads =
      trace("grads", {spec(DType::f32, {3})},
            [&](llvm::ArrayRef<Value> a) { return value_and_grad(loss)(a); });
  std::string ir = grads.ir(true);
  EXPECT_NE(ir.find("scf.for"), std::string::npos) << ir;
  std::vector<Tensor> out = run(grads, {tensor<float>({1, 2, 3}, {3})});
  ASSERT_EQ(out.size(), 2u);
  expectNear(toDoubles(out[0]), {16 * 6.0});
  expectNear(toDoubles(out[1]), {81, 81, 81});
}

TEST(CustomGradient, SecondDerivativeDifferentiatesTheGradientFunction) {
  // d/dx sigmoid(x) = s (1 - s): the second derivative goes through the
  // custom gradient function's ops. (Not at x = 100: differentiating the
  // forward function too, the zero cotangent of its unused result meets
  // exp(x) / (1 + exp(x)) = inf / inf there, and 0 * NaN is NaN; zero
  // cotangents are not pruned.)
  Callable custom = log1pexp();
  auto first = [&](llvm::ArrayRef<Value> a) -> Values {
    return grad([&](llvm::ArrayRef<Value> b) -> Values {
      return {sum(custom(b)[0])};
    })(a);
  };
  ConcreteFunction second = trace(
      "second", {spec(DType::f32, {4})}, [&](llvm::ArrayRef<Value> a) {
        return grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(first(b)[0])};
        })(a);
      });
  std::vector<Tensor> out =
      run(second, {tensor<float>({-2, 0.5, 3, 20}, {4})});
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> expected;
  for (double x : {-2.0, 0.5, 3.0, 20.0})
    expected.push_back(sigmoidOf(x) * (1 - sigmoidOf(x)));
  expectNear(toDoubles(out[0]), expected, 1e-6);
}

TEST(CustomGradient, ResidualsAndCapturedValues) {
  // The gradient function uses a value computed inside the function (e^x,
  // a residual) and the function uses a value of its caller (w, which gets
  // no gradient through it).
  ConcreteFunction grads = trace(
      "grads", {spec(DType::f32, {2}), spec(DType::f32, {2})},
      [&](llvm::ArrayRef<Value> a) {
        Value w = a[1];
        Callable f = customGradient([w](llvm::ArrayRef<Value> b) {
          Value e = exp(b[0]);
          return CustomGradientResult{
              {e * w}, [e, w](llvm::ArrayRef<Value> dy) -> Values {
                return {dy[0] * e * w};
              }};
        });
        return grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(f({b[0]})[0])};
        }, {{0, 1}})(a);
      });
  std::vector<Tensor> out = run(grads, {tensor<float>({0, 1}, {2}),
                                        tensor<float>({2, 3}, {2})});
  ASSERT_EQ(out.size(), 2u);
  expectNear(toDoubles(out[0]), {2, 3 * std::exp(1.0)});
  expectNear(toDoubles(out[1]), {0, 0});
}

TEST(CustomGradient, GradientsOfTheForwardsValuesInTheGradientFunction) {
  // TensorFlow's idiom: the gradient function calls gradients() on the
  // function's own values. Those ops are in the forward function, which
  // gradients() slices; its trace.vjp is in the backward one.
  ConcreteFunction grads = trace(
      "grads", {spec(DType::f32, {3})}, [&](llvm::ArrayRef<Value> a) {
        Callable f = customGradient([](llvm::ArrayRef<Value> b) {
          Value x = b[0];
          Value y = sin(x) * x;
          return CustomGradientResult{
              {y}, [x, y](llvm::ArrayRef<Value> dy) -> Values {
                GradientsOptions options;
                options.gradYs = {dy[0]};
                return {gradients({y}, {x}, options)[0] * 2.0};
              }};
        });
        return grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(f({b[0]})[0])};
        })(a);
      });
  std::string ir = grads.ir();
  size_t bwd = ir.find("func.func private @custom_gradient_bwd");
  ASSERT_NE(bwd, std::string::npos) << ir;
  EXPECT_NE(ir.find("trace.vjp", bwd), std::string::npos) << ir;
  std::vector<double> xs = {-1.0, 0.5, 2.0};
  std::vector<Tensor> out = run(grads, {tensor<float>({-1.0f, 0.5f, 2.0f},
                                                      {3})});
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> expected;
  for (double x : xs)
    expected.push_back(2 * (std::cos(x) * x + std::sin(x)));
  expectNear(toDoubles(out[0]), expected, 1e-5);
}

TEST(CustomGradient, Errors) {
  Callable wrongCount = customGradient([](llvm::ArrayRef<Value> a) {
    return CustomGradientResult{
        {a[0] * a[1]},
        [](llvm::ArrayRef<Value> dy) -> Values { return {dy[0]}; }};
  });
  std::string message = traceError([&] {
    trace("f", {spec(DType::f32, {2}), spec(DType::f32, {2})},
          [&](llvm::ArrayRef<Value> a) { return wrongCount(a); });
  });
  EXPECT_NE(message.find("the gradient function returned 1 cotangents for a "
                         "function of 2 arguments"),
            std::string::npos)
      << message;
  Callable wrongShape = customGradient([](llvm::ArrayRef<Value> a) {
    return CustomGradientResult{
        {sum(a[0])},
        [](llvm::ArrayRef<Value> dy) -> Values { return {dy[0]}; }};
  });
  message = traceError([&] {
    trace("f", {spec(DType::f32, {2})},
          [&](llvm::ArrayRef<Value> a) { return wrongShape(a); });
  });
  EXPECT_NE(message.find("the cotangent of argument 0 is a tensor<f32>, but "
                         "the argument is a tensor<2xf32>"),
            std::string::npos)
      << message;
  message = traceError([] { checkpoint([](llvm::ArrayRef<Value> a) {
    return Values{a[0]}; }, "dots"); });
  EXPECT_NE(message.find("unknown policy 'dots'"), std::string::npos)
      << message;
}

//===----------------------------------------------------------------------===//
// customJvp
//===----------------------------------------------------------------------===//

/// sin(x) * y with a rule of twice its derivative in x: jvp must give the
/// rule's tangent, grad its transpose, a second derivative the rule's
/// derivative.
Callable sinTimesWithRule() {
  return customJvp(
      [](llvm::ArrayRef<Value> a) -> Values { return {sin(a[0]) * a[1]}; },
      [](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0], y = a[1], tx = a[2], ty = a[3];
        return {sin(x) * y, cos(x) * tx * y * 2 + sin(x) * ty};
      },
      "sin_times");
}

TEST(CustomJvp, ForwardModeCallsTheRuleAndReverseModeTransposesIt) {
  Callable f = sinTimesWithRule();
  ConcreteFunction both = trace(
      "both", {spec(DType::f64, {3}), spec(DType::f64, {3})},
      [&](llvm::ArrayRef<Value> a) {
        Value ones = ones_like(a[0]);
        Values forward = jvp(f, {a[0], a[1]}, {ones, zeros_like(a[1])});
        GradOptions wrt;
        wrt.argnums = {0, 1};
        Values reverse = grad(
            [&](llvm::ArrayRef<Value> b) -> Values { return {sum(f(b)[0])}; },
            wrt)(a);
        Values second = grad([&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(grad([&](llvm::ArrayRef<Value> c) -> Values {
            return {sum(f(c)[0])};
          })(b)[0])};
        })(a);
        return Values{forward[1], reverse[0], reverse[1], second[0]};
      });
  EXPECT_NE(both.ir().find("trace.custom_jvp"), std::string::npos)
      << both.ir();
  std::vector<double> x = {0.3, -1.2, 2.0}, y = {1.5, 0.5, -2.0};
  std::vector<Tensor> out =
      run(both, {tensor<double>(x, {3}), tensor<double>(y, {3})});
  ASSERT_EQ(out.size(), 4u);
  std::vector<double> tangent, gx, gy, second;
  for (size_t i = 0; i < 3; ++i) {
    tangent.push_back(2 * std::cos(x[i]) * y[i]);
    gy.push_back(std::sin(x[i]));
    second.push_back(-2 * std::sin(x[i]) * y[i]);
  }
  expectNear(out[0].toVector<double>(), tangent);
  expectNear(out[1].toVector<double>(), tangent);
  expectNear(out[2].toVector<double>(), gy);
  expectNear(out[3].toVector<double>(), second);
}

TEST(CustomJvp, TheRulesCallOfItsFunctionKeepsTheRuleUnderNestedJvp) {
  // JAX's test_invariance: f(x) = cos(2x) / 2 with the rule 3 t; the jvp of
  // f2(x) = (the primal of jvp(f) at x) is the rule's too.
  Callable f = customJvp(
      [](llvm::ArrayRef<Value> a) -> Values { return {cos(a[0] * 2) / 2}; },
      [](llvm::ArrayRef<Value> a) -> Values {
        return {callRulesFunction({a[0]})[0], a[1] * 3};
      });
  Callable f2 = [&](llvm::ArrayRef<Value> a) -> Values {
    return {jvp(f, {a[0]}, {a[0]})[0]};
  };
  ConcreteFunction nested =
      trace("nested", {spec(DType::f64, {})}, [&](llvm::ArrayRef<Value> a) {
        return Values{jvp(f2, {a[0]}, {a[0]})[1]};
      });
  std::vector<Tensor> out = run(nested, {Tensor::scalar<double>(1.0)});
  ASSERT_EQ(out.size(), 1u);
  expectNear(out[0].toVector<double>(), {3.0});
  EXPECT_NE(traceError([] { callRulesFunction({}); }).find("outside a jvp rule"),
            std::string::npos);
}

TEST(CustomJvp, Errors) {
  Callable wrongShape = customJvp(
      [](llvm::ArrayRef<Value> a) -> Values { return {a[0] * 2}; },
      [](llvm::ArrayRef<Value> a) -> Values {
        return {a[0] * 2, sum(a[1])};
      });
  std::string message = traceError([&] {
    trace("f", {spec(DType::f32, {2})},
          [&](llvm::ArrayRef<Value> a) { return wrongShape(a); });
  });
  EXPECT_NE(message.find("customJvp: the jvp rule's tangent of output 0 is a "
                         "tensor<f32>, but the function's is a "
                         "tensor<2xf32>"),
            std::string::npos)
      << message;
  Callable wrongCount = customJvp(
      [](llvm::ArrayRef<Value> a) -> Values { return {a[0] * 2}; },
      [](llvm::ArrayRef<Value> a) -> Values { return {a[0] * 2}; });
  message = traceError([&] {
    trace("f", {spec(DType::f32, {2})},
          [&](llvm::ArrayRef<Value> a) { return wrongCount(a); });
  });
  EXPECT_NE(message.find("the jvp rule returned 1 values; the function has 1 "
                         "outputs and 1 floating-point ones"),
            std::string::npos)
      << message;
}

//===----------------------------------------------------------------------===//
// checkpoint
//===----------------------------------------------------------------------===//

Tensor sample(llvm::ArrayRef<int64_t> shape, double offset) {
  Tensor t = Tensor::zeros(DType::f32, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<float>()[i] = float(std::sin(1.7 * i + offset) * 0.5);
  return t;
}

/// A dense layer: tanh(x w + b) (elementwise ops around a contraction).
Values dense(llvm::ArrayRef<Value> a) {
  return {tanh(matmul(a[0], a[1]) + a[2])};
}

/// The gradients of a three-layer MLP whose layers are `layer`, every
/// argument but x.
ConcreteFunction mlpGradients(const Callable &layer) {
  std::vector<TensorSpec> specs = {spec(DType::f32, {8, 16})};
  for (int i = 0; i < 3; ++i) {
    specs.push_back(spec(DType::f32, {16, 16}));
    specs.push_back(spec(DType::f32, {16}));
  }
  auto loss = [&](llvm::ArrayRef<Value> a) -> Values {
    Value h = a[0];
    for (int i = 0; i < 3; ++i)
      h = layer({h, a[1 + 2 * i], a[2 + 2 * i]})[0];
    return {mean(relu(h) * h)};
  };
  return trace("mlp_grads", specs, [&](llvm::ArrayRef<Value> a) {
    return value_and_grad(loss, {{1, 2, 3, 4, 5, 6}})(a);
  });
}

bool bitwiseEqual(const Tensor &a, const Tensor &b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.rawData(), b.rawData(),
                     a.numElements() * sizeof(float)) == 0;
}

TEST(Checkpoint, RematerializedGradientsEqualTheSavedOnesBitForBit) {
  std::vector<Tensor> inputs = {sample({8, 16}, 0)};
  for (int i = 0; i < 3; ++i) {
    inputs.push_back(sample({16, 16}, 1 + i));
    inputs.push_back(sample({16}, 5 + i));
  }
  ConcreteFunction saved = mlpGradients(dense);
  std::vector<Tensor> expected = run(saved, inputs);
  ASSERT_EQ(expected.size(), 7u);
  for (const char *policy : {"nothing", "contractions", "everything"}) {
    ConcreteFunction remat = mlpGradients(checkpoint(dense, policy, "dense"));
    std::string ir = remat.ir();
    EXPECT_NE(ir.find(std::string("trace.checkpoint = \"") + policy + "\""),
              std::string::npos)
        << ir;
    std::vector<Tensor> out = run(remat, inputs);
    ASSERT_EQ(out.size(), expected.size()) << policy;
    for (size_t i = 0; i < out.size(); ++i)
      EXPECT_TRUE(bitwiseEqual(out[i], expected[i]))
          << policy << ": output " << i << " differs";
  }
}

TEST(Checkpoint, SavesOnlyWhatThePolicyKeeps) {
  // dense's forward function: under "nothing" its residuals are its
  // arguments, under "contractions" also the matmul's result.
  auto forwardOf = [](const std::string &ir) {
    size_t at = ir.find("func.func private @__forward_dense(");
    return at == std::string::npos ? std::string()
                                   : ir.substr(at, ir.find('\n', at) - at);
  };
  std::string nothing =
      forwardOf(mlpGradients(checkpoint(dense, "nothing", "dense")).ir(true));
  std::string contractions = forwardOf(
      mlpGradients(checkpoint(dense, "contractions", "dense")).ir(true));
  std::string everything = forwardOf(
      mlpGradients(checkpoint(dense, "everything", "dense")).ir(true));
  // f's result, then the residuals: w, x and b (nothing), the same and
  // x @ w (contractions), w, x and tanh's result (everything).
  EXPECT_NE(nothing.find("-> (tensor<8x16xf32>, tensor<16x16xf32>, "
                         "tensor<8x16xf32>, tensor<16xf32>) {"),
            std::string::npos)
      << nothing;
  EXPECT_NE(contractions.find("-> (tensor<8x16xf32>, tensor<16x16xf32>, "
                              "tensor<8x16xf32>, tensor<16xf32>, "
                              "tensor<8x16xf32>) {"),
            std::string::npos)
      << contractions;
  EXPECT_NE(everything.find("-> (tensor<8x16xf32>, tensor<8x16xf32>, "
                            "tensor<16x16xf32>, tensor<8x16xf32>) {"),
            std::string::npos)
      << everything;
}

} // namespace
