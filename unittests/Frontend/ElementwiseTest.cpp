//===- ElementwiseTest.cpp - Elementwise ops, broadcasting, promotion -----===//
//
// Each op family is traced into one function with several results and run
// through the JIT; the references are computed here with <cmath>.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include <cmath>

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

template <typename Fn>
std::vector<double> mapped(const std::vector<double> &xs, Fn fn) {
  std::vector<double> ys;
  for (double x : xs)
    ys.push_back(fn(x));
  return ys;
}

TEST(Elementwise, UnaryOps) {
  std::vector<double> xs = {-1.5, -0.25, 0.5, 2.0};
  ConcreteFunction f = trace(
      "unary", {spec(DType::f64, {4})},
      [](llvm::ArrayRef<Value> a) -> Values {
        Value x = a[0];
        return {-x,         abs(x),        exp(x),   log(abs(x)), log1p(abs(x)),
                sqrt(abs(x)), rsqrt(abs(x)), tanh(x),  sigmoid(x),  relu(x),
                gelu(x),    erf(x),        sin(x),   cos(x),      sign(x),
                floor(x),   square(x),     stop_gradient(x)};
      });
  std::vector<Tensor> out = run(f, {tensor<double>(xs, {4})});
  ASSERT_EQ(out.size(), 18u);
  auto ref = [&](int i, auto fn) {
    SCOPED_TRACE(i);
    expectNear(out[i].toVector<double>(), mapped(xs, fn), 1e-12);
  };
  ref(0, [](double x) { return -x; });
  ref(1, [](double x) { return std::fabs(x); });
  ref(2, [](double x) { return std::exp(x); });
  ref(3, [](double x) { return std::log(std::fabs(x)); });
  ref(4, [](double x) { return std::log1p(std::fabs(x)); });
  ref(5, [](double x) { return std::sqrt(std::fabs(x)); });
  ref(6, [](double x) { return 1 / std::sqrt(std::fabs(x)); });
  ref(7, [](double x) { return std::tanh(x); });
  ref(8, [](double x) { return 1 / (1 + std::exp(-x)); });
  ref(9, [](double x) { return x > 0 ? x : 0; });
  ref(10, [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); });
  ref(11, [](double x) { return std::erf(x); });
  ref(12, [](double x) { return std::sin(x); });
  ref(13, [](double x) { return std::cos(x); });
  ref(14, [](double x) { return double((x > 0) - (x < 0)); });
  ref(15, [](double x) { return std::floor(x); });
  ref(16, [](double x) { return x * x; });
  ref(17, [](double x) { return x; });
}

TEST(Elementwise, BinaryOpsBroadcast) {
  std::vector<double> a = {1, -2, 3, 0.5, 4, -1}; // 2x3
  std::vector<double> b = {2, 0.5, -3};            // 3
  ConcreteFunction f = trace(
      "binary", {spec(DType::f64, {2, 3}), spec(DType::f64, {3})},
      [](llvm::ArrayRef<Value> v) -> Values {
        Value x = v[0], y = v[1];
        return {x + y, x - y, x * y, x / y, pow(abs(x), y), maximum(x, y),
                minimum(x, y), 1 - x, x / 2, 2.0 * y};
      });
  std::vector<Tensor> out =
      run(f, {tensor<double>(a, {2, 3}), tensor<double>(b, {3})});
  ASSERT_EQ(out.size(), 10u);
  for (const Tensor &t : llvm::ArrayRef(out).take_front(7))
    EXPECT_EQ(t.typeString(), "tensor<2x3xf64>");
  auto ref = [&](int i, auto fn) {
    SCOPED_TRACE(i);
    std::vector<double> expected;
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c)
        expected.push_back(fn(a[r * 3 + c], b[c]));
    expectNear(out[i].toVector<double>(), expected, 1e-12);
  };
  ref(0, [](double x, double y) { return x + y; });
  ref(1, [](double x, double y) { return x - y; });
  ref(2, [](double x, double y) { return x * y; });
  ref(3, [](double x, double y) { return x / y; });
  ref(4, [](double x, double y) { return std::pow(std::fabs(x), y); });
  ref(5, [](double x, double y) { return std::max(x, y); });
  ref(6, [](double x, double y) { return std::min(x, y); });
  expectNear(out[7].toVector<double>(), mapped(a, [](double x) { return 1 - x; }));
  expectNear(out[8].toVector<double>(), mapped(a, [](double x) { return x / 2; }));
  expectNear(out[9].toVector<double>(), mapped(b, [](double x) { return 2 * x; }));
}

TEST(Elementwise, ComparisonsAndSelect) {
  std::vector<float> a = {1, 2, 3, 4};
  std::vector<float> b = {4, 2, 1, 4};
  ConcreteFunction f = trace(
      "compare", {spec(DType::f32, {4}), spec(DType::f32, {4})},
      [](llvm::ArrayRef<Value> v) -> Values {
        Value x = v[0], y = v[1];
        return {equal(x, y), not_equal(x, y), x < y,  x <= y, x > y,
                x >= y,      x > 2.5,         select(x < y, x, y),
                where(x >= 3, x, 0)};
      });
  std::vector<Tensor> out =
      run(f, {tensor<float>(a, {4}), tensor<float>(b, {4})});
  ASSERT_EQ(out.size(), 9u);
  EXPECT_EQ(out[0].dtype(), DType::i1);
  auto bools = [](const Tensor &t) { return t.toVector<int>(); };
  EXPECT_EQ(bools(out[0]), (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(bools(out[1]), (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(bools(out[2]), (std::vector<int>{1, 0, 0, 0}));
  EXPECT_EQ(bools(out[3]), (std::vector<int>{1, 1, 0, 1}));
  EXPECT_EQ(bools(out[4]), (std::vector<int>{0, 0, 1, 0}));
  EXPECT_EQ(bools(out[5]), (std::vector<int>{0, 1, 1, 1}));
  EXPECT_EQ(bools(out[6]), (std::vector<int>{0, 0, 1, 1}));
  expectNear(out[7].toVector<double>(), {1, 2, 1, 4});
  expectNear(out[8].toVector<double>(), {0, 0, 3, 4});
}

TEST(Elementwise, DtypePromotion) {
  ConcreteFunction f = trace(
      "promote",
      {spec(DType::i32, {3}), spec(DType::f32, {3}), spec(DType::i1, {3}),
       spec(DType::i64, {3})},
      [](llvm::ArrayRef<Value> v) -> Values {
        Value i = v[0], x = v[1], b = v[2], l = v[3];
        Values results = {i + x, i * 2, i + 0.5, b + 1, i + l, exp(i),
                          cast(x, DType::i32), cast(i, DType::i1), mean(i),
                          i / 2};
        EXPECT_EQ(results[0].dtype(), DType::f32);
        EXPECT_EQ(results[1].dtype(), DType::i32);
        EXPECT_EQ(results[2].dtype(), DType::f32);
        EXPECT_EQ(results[3].dtype(), DType::i32);
        EXPECT_EQ(results[4].dtype(), DType::i64);
        EXPECT_EQ(results[5].dtype(), DType::f32);
        EXPECT_EQ(cast(x, DType::f16).dtype(), DType::f16);
        EXPECT_EQ((cast(x, DType::f16) + cast(x, DType::bf16)).dtype(),
                  DType::f32);
        EXPECT_EQ((x + cast(x, DType::f64)).dtype(), DType::f64);
        return results;
      });
  std::vector<Tensor> out =
      run(f, {tensor<int32_t>({1, -2, 7}, {3}), tensor<float>({0.5, 1.5, -2.75}, {3}),
              tensor<bool>({true, false, true}, {3}),
              tensor<int64_t>({10, 20, 30}, {3})});
  ASSERT_EQ(out.size(), 10u);
  expectNear(out[0].toVector<double>(), {1.5, -0.5, 4.25});
  EXPECT_EQ(out[1].toVector<int>(), (std::vector<int>{2, -4, 14}));
  expectNear(out[2].toVector<double>(), {1.5, -1.5, 7.5});
  EXPECT_EQ(out[3].toVector<int>(), (std::vector<int>{2, 1, 2}));
  EXPECT_EQ(out[4].toVector<int64_t>(), (std::vector<int64_t>{11, 18, 37}));
  expectNear(out[5].toVector<double>(),
             {std::exp(1.0), std::exp(-2.0), std::exp(7.0)});
  // float -> int truncates toward zero; int -> bool tests for non-zero.
  EXPECT_EQ(out[6].toVector<int>(), (std::vector<int>{0, 1, -2}));
  EXPECT_EQ(out[7].toVector<int>(), (std::vector<int>{1, 1, 1}));
  expectNear(out[8].toVector<double>(), {2.0});
  EXPECT_EQ(out[9].toVector<int>(), (std::vector<int>{0, -1, 3}));
}

TEST(Elementwise, DtypeErrorsNameTheOp) {
  std::string message = traceError([] {
    trace("bad", {spec(DType::f32, {3}), spec(DType::f32, {3})},
          [](llvm::ArrayRef<Value> v) -> Values {
            return {select(v[0], v[0], v[1])};
          });
  });
  EXPECT_NE(message.find("'trace.select'"), std::string::npos) << message;
  message = traceError([] {
    trace("bad", {spec(DType::i32, {3})},
          [](llvm::ArrayRef<Value> v) -> Values { return {softmax(v[0])}; });
  });
  EXPECT_NE(message.find("'trace.softmax'"), std::string::npos) << message;
}

} // namespace
