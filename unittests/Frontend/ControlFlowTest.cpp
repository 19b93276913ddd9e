//===- ControlFlowTest.cpp - cond, while_loop, fori_loop ------------------===//

#include "FrontendTestUtil.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

TEST(ControlFlow, CondPicksABranch) {
  ConcreteFunction f = trace(
      "branch", {spec(DType::f32, {3}), spec(DType::f32, {})},
      [](llvm::ArrayRef<Value> a) -> Values {
        Value y = a[0] * 10; // used inside both branches
        return cond(
            a[1] > 0,
            [&](llvm::ArrayRef<Value> ops) -> Values {
              return {ops[0] + y, sum(ops[0])};
            },
            [&](llvm::ArrayRef<Value> ops) -> Values {
              return {ops[0] - y, max(ops[0])};
            },
            {a[0]});
      });
  EXPECT_NE(f.ir().find("scf.if"), std::string::npos) << f.ir();
  Tensor x = tensor<float>({1, 2, 3}, {3});
  std::vector<Tensor> out = run(f, {x, Tensor::scalar<float>(1)});
  ASSERT_EQ(out.size(), 2u);
  expectNear(out[0].toVector<double>(), {11, 22, 33});
  expectNear(out[1].toVector<double>(), {6});
  out = run(f, {x, Tensor::scalar<float>(-1)});
  expectNear(out[0].toVector<double>(), {-9, -18, -27});
  expectNear(out[1].toVector<double>(), {3});
}

TEST(ControlFlow, WhileLoop) {
  // Doubles x until its sum exceeds the limit; counts the steps.
  ConcreteFunction f = trace(
      "doubling", {spec(DType::f32, {2}), spec(DType::f32, {})},
      [](llvm::ArrayRef<Value> a) -> Values {
        Value limit = a[1];
        return while_loop(
            [&](llvm::ArrayRef<Value> v) -> Values {
              return {sum(v[0]) <= limit};
            },
            [](llvm::ArrayRef<Value> v) -> Values {
              return {v[0] * 2, v[1] + 1};
            },
            {a[0], zeros({}, DType::i32)});
      });
  EXPECT_NE(f.ir().find("scf.while"), std::string::npos) << f.ir();
  std::vector<Tensor> out =
      run(f, {tensor<float>({1, 2}, {2}), Tensor::scalar<float>(40)});
  ASSERT_EQ(out.size(), 2u);
  // 3 -> 6 -> 12 -> 24 -> 48: four doublings.
  expectNear(out[0].toVector<double>(), {16, 32});
  EXPECT_EQ(out[1].toVector<int>(), (std::vector<int>{4}));
}

/// Newton's square root of a[0], iterated until |x^2 - a| <= 1e-12 a (a trip
/// count that depends on a).
Values newton(llvm::ArrayRef<Value> a) {
  Value target = a[0];
  return while_loop(
      [&](llvm::ArrayRef<Value> x) -> Values {
        return {abs(x[0] * x[0] - target) > target * 1e-12};
      },
      [&](llvm::ArrayRef<Value> x) -> Values {
        return {(x[0] + target / x[0]) * 0.5};
      },
      {ones_like(target)});
}

TEST(ControlFlow, WhileLoopGradient) {
  // Newton's square root and its gradient: 1 / (2 sqrt(a)).
  ConcreteFunction f = trace(
      "newton", {spec(DType::f64, {})}, [&](llvm::ArrayRef<Value> a) -> Values {
        Values y = newton(a);
        y.push_back(grad(newton)(a)[0]);
        return y;
      });
  EXPECT_NE(f.ir().find("scf.while"), std::string::npos) << f.ir();
  for (double a : {0.01, 2.0, 1.0e4}) {
    std::vector<Tensor> out = run(f, {Tensor::scalar<double>(a)});
    ASSERT_EQ(out.size(), 2u);
    expectNear(out[0].toVector<double>(), {std::sqrt(a)}, 1e-12 * std::sqrt(a));
    double slope = 1 / (2 * std::sqrt(a));
    expectNear(out[1].toVector<double>(), {slope}, 1e-9 * slope);
  }
}

TEST(ControlFlow, ForiLoopAndItsGradient) {
  // acc = sum_{i=1}^{4} i * x * acc-ish recurrence: acc <- acc * x + i.
  auto horner = [](llvm::ArrayRef<Value> a) -> Values {
    Value x = a[0];
    return fori_loop(
        1, 5,
        [&](llvm::ArrayRef<Value> v) -> Values {
          return {v[1] * x + cast(v[0], DType::f64)};
        },
        {zeros_like(x)});
  };
  ConcreteFunction f = trace(
      "horner", {spec(DType::f64, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        Values y = horner(a);
        auto total = [&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(horner(b)[0])};
        };
        y.push_back(grad(total)(a)[0]);
        return y;
      });
  EXPECT_NE(f.ir().find("scf.for"), std::string::npos) << f.ir();
  std::vector<Tensor> out = run(f, {tensor<double>({0.5, 2}, {2})});
  ASSERT_EQ(out.size(), 2u);
  // ((1 x + 2) x + 3) x + 4 = x^3 + 2x^2 + 3x + 4; derivative 3x^2 + 4x + 3.
  auto p = [](double x) { return x * x * x + 2 * x * x + 3 * x + 4; };
  auto dp = [](double x) { return 3 * x * x + 4 * x + 3; };
  expectNear(out[0].toVector<double>(), {p(0.5), p(2)}, 1e-12);
  expectNear(out[1].toVector<double>(), {dp(0.5), dp(2)}, 1e-12);
}

TEST(ControlFlow, SecondDerivativesThroughLoops) {
  // grad of grad (reverse-over-reverse): Newton's square root in a
  // while_loop, d2/da2 sqrt(a) = -1 / (4 a^1.5); Horner's polynomial in a
  // fori_loop, p''(x) = 6x + 4.
  auto horner = [](llvm::ArrayRef<Value> a) -> Values {
    Value x = a[0];
    Values p = fori_loop(
        1, 5,
        [&](llvm::ArrayRef<Value> v) -> Values {
          return {v[1] * x + cast(v[0], DType::f64)};
        },
        {zeros_like(x)});
    return {sum(p[0])};
  };
  ConcreteFunction f = trace(
      "second", {spec(DType::f64, {}), spec(DType::f64, {2})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        auto slope = [&](llvm::ArrayRef<Value> b) -> Values {
          return grad(newton)(b);
        };
        auto hornerSlope = [&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(grad(horner)(b)[0])};
        };
        return {grad(slope)({a[0]})[0], grad(hornerSlope)({a[1]})[0]};
      });
  for (double a : {0.01, 2.0, 1.0e4}) {
    std::vector<Tensor> out =
        run(f, {Tensor::scalar<double>(a), tensor<double>({0.5, -2}, {2})});
    ASSERT_EQ(out.size(), 2u);
    double curvature = -1 / (4 * a * std::sqrt(a));
    expectNear(out[0].toVector<double>(), {curvature},
               1e-8 * std::abs(curvature));
    expectNear(out[1].toVector<double>(), {6 * 0.5 + 4, 6 * -2.0 + 4}, 1e-12);
  }
}

TEST(ControlFlow, ForiLoopWithTracedBounds) {
  // acc <- acc * x + i for i in [lo, hi), the bounds inputs of the trace.
  ConcreteFunction f = trace(
      "dynamic", {spec(DType::f64, {2}), spec(DType::i32, {}),
                  spec(DType::i64, {})},
      [](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0];
        return fori_loop(
            a[1], a[2],
            [&](llvm::ArrayRef<Value> v) -> Values {
              return {v[1] * x + cast(v[0], DType::f64)};
            },
            {zeros_like(x)});
      });
  auto horner = [](double x, int lo, int hi) {
    double acc = 0;
    for (int i = lo; i < hi; ++i)
      acc = acc * x + i;
    return acc;
  };
  for (auto [lo, hi] : {std::pair{1, 5}, std::pair{2, 2}, std::pair{4, 0}}) {
    std::vector<Tensor> out =
        run(f, {tensor<double>({0.5, 2}, {2}), Tensor::scalar<int32_t>(lo),
                Tensor::scalar<int64_t>(hi)});
    expectNear(out[0].toVector<double>(),
               {horner(0.5, lo, hi), horner(2, lo, hi)}, 1e-12);
  }

  std::string message = traceError([&] {
    trace("bad", {spec(DType::f64, {2})},
          [](llvm::ArrayRef<Value> a) -> Values {
            return fori_loop(
                sum(a[0]), sum(a[0]),
                [](llvm::ArrayRef<Value> v) -> Values { return {v[1]}; },
                {a[0]});
          });
  });
  EXPECT_NE(message.find("fori_loop's lower bound must be a rank-0 int32 or "
                         "int64 tensor, got tensor<f64>"),
            std::string::npos)
      << message;
}

TEST(ControlFlow, GradientThroughCond) {
  ConcreteFunction f = trace(
      "condgrad", {spec(DType::f64, {2}), spec(DType::i1, {})},
      [](llvm::ArrayRef<Value> a) -> Values {
        Value flag = a[1];
        auto loss = [&](llvm::ArrayRef<Value> b) -> Values {
          return {sum(cond(
              flag,
              [](llvm::ArrayRef<Value> v) -> Values { return {exp(v[0])}; },
              [](llvm::ArrayRef<Value> v) -> Values {
                return {v[0] * v[0]};
              },
              {b[0]})[0])};
        };
        return grad(loss)({a[0]});
      });
  Tensor x = tensor<double>({0.5, -1}, {2});
  expectNear(run(f, {x, Tensor::scalar<bool>(true)})[0].toVector<double>(),
             {std::exp(0.5), std::exp(-1.0)}, 1e-12);
  expectNear(run(f, {x, Tensor::scalar<bool>(false)})[0].toVector<double>(),
             {1, -2}, 1e-12);
}

TEST(ControlFlow, OutputSpecsTraceATrialThatLeavesNothing) {
  std::vector<TensorSpec> specs;
  Value leaked;
  ConcreteFunction f = trace(
      "trial", {spec(DType::f32, {2, 3})},
      [&](llvm::ArrayRef<Value> a) -> Values {
        specs = output_specs([&](llvm::ArrayRef<Value>) -> Values {
          leaked = sum(exp(a[0]), {1});
          return {leaked, cast(a[0], DType::i64)};
        });
        return {a[0] * 2};
      });
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].str(), "tensor<2xf32>");
  EXPECT_EQ(specs[1].str(), "tensor<2x3xi64>");
  // The trial's ops are gone; its Values cannot be used after it.
  EXPECT_EQ(f.ir().find("exp"), std::string::npos) << f.ir();
  EXPECT_EQ(f.ir().find("cast"), std::string::npos) << f.ir();
  std::string message = traceError([] {
    trace("bad", {spec(DType::f32, {2})},
          [](llvm::ArrayRef<Value> a) -> Values {
            Value inner;
            output_specs([&](llvm::ArrayRef<Value>) -> Values {
              inner = a[0] + 1;
              return {inner};
            });
            return {inner};
          });
  });
  EXPECT_NE(message.find("used outside the trace that created it"),
            std::string::npos)
      << message;
}

TEST(ControlFlow, Errors) {
  std::string message = traceError([] {
    trace("bad", {spec(DType::f32, {2}), spec(DType::i1, {})},
          [](llvm::ArrayRef<Value> a) -> Values {
            return cond(
                a[1],
                [](llvm::ArrayRef<Value> v) -> Values { return {v[0]}; },
                [](llvm::ArrayRef<Value> v) -> Values { return {sum(v[0])}; },
                {a[0]});
          });
  });
  EXPECT_NE(message.find("the branches of cond return different types: true "
                         "branch (tensor<2xf32>) vs false branch "
                         "(tensor<f32>)"),
            std::string::npos)
      << message;

  message = traceError([] {
    trace("bad", {spec(DType::f32, {2})},
          [](llvm::ArrayRef<Value> a) -> Values {
            return fori_loop(
                0, 3,
                [](llvm::ArrayRef<Value> v) -> Values {
                  return {cast(v[1], DType::f64)};
                },
                {a[0]});
          });
  });
  // The loop's own counter is not listed: the user's values are.
  EXPECT_NE(message.find("fori_loop's body must return the loop-carried types "
                         "(tensor<2xf32>), got (tensor<2xf64>) (value 0 "
                         "starts as tensor<2xf32> and comes back as "
                         "tensor<2xf64>"),
            std::string::npos)
      << message;

  // A Value created in a branch cannot escape it.
  message = traceError([] {
    trace("bad", {spec(DType::f32, {2}), spec(DType::i1, {})},
          [](llvm::ArrayRef<Value> a) -> Values {
            Value leaked;
            cond(
                a[1],
                [&](llvm::ArrayRef<Value>) -> Values {
                  leaked = a[0] * 2;
                  return {};
                },
                [](llvm::ArrayRef<Value>) -> Values { return {}; });
            return {leaked};
          });
  });
  EXPECT_NE(message.find("used outside the trace that created it"),
            std::string::npos)
      << message;

  message = traceError([] {
    trace("bad", {spec(DType::f32, {2})},
          [](llvm::ArrayRef<Value> a) -> Values {
            return cond(
                a[0], [](llvm::ArrayRef<Value>) -> Values { return {}; },
                [](llvm::ArrayRef<Value>) -> Values { return {}; });
          });
  });
  EXPECT_NE(message.find("the predicate of cond must be a rank-0 tensor"),
            std::string::npos)
      << message;
}

} // namespace
