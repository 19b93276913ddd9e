//===- OpTest.cpp - tracec::op and the op functions generated from ODS ----===//
//
// The generic entry records any op that infers its result, converting
// operands as the op's traits ask; the generated functions are the same
// call with typed parameters.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

using namespace tracec;
using namespace tracec::testing;

namespace {

using Values = std::vector<Value>;

TEST(Op, GenericAndGeneratedFunctionsRecordTheSameOp) {
  ConcreteFunction f = trace(
      "ops", {spec(DType::f64, {2, 3})}, [](llvm::ArrayRef<Value> v) -> Values {
        return {op("trace.reduce_sum", {v[0]},
                   {{"axes", llvm::ArrayRef<int64_t>{1}}, {"keepdims", true}}),
                reduce_sum(v[0], {1}, /*keepdims=*/true),
                op("trace.softmax", {v[0]}, {{"axis", 0}})};
      });
  std::vector<Tensor> out =
      run(f, {tensor<double>({1, 2, 3, 4, 5, 6}, {2, 3})});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].typeString(), "tensor<2x1xf64>");
  expectNear(out[0].toVector<double>(), {6, 15}, 1e-12);
  expectNear(out[1].toVector<double>(), {6, 15}, 1e-12);
  double e3 = std::exp(3.0);
  expectNear(out[2].toVector<double>(),
             {1 / (1 + e3), 1 / (1 + e3), 1 / (1 + e3), e3 / (1 + e3),
              e3 / (1 + e3), e3 / (1 + e3)},
             1e-12);
}

TEST(Op, TraitsPromoteOperands) {
  ConcreteFunction f =
      trace("promote", {spec(DType::i32, {3}), spec(DType::f64, {3})},
            [](llvm::ArrayRef<Value> v) -> Values {
              // Trace_PromotesOperands: i32 + f64 is an f64 add.
              // Trace_PromotesIntegersToFloat: exp of i32 is an f32 exp.
              // Trace_PromotesOperandsAfterFirst: the bool condition stays.
              return {op("trace.add", {v[0], v[1]}), exp(v[0]),
                      select(less(v[0], 2), v[0], v[1])};
            });
  std::vector<Tensor> out = run(f, {tensor<int32_t>({1, 2, 3}, {3}),
                                    tensor<double>({0.5, 0.5, 0.5}, {3})});
  EXPECT_EQ(out[0].typeString(), "tensor<3xf64>");
  expectNear(out[0].toVector<double>(), {1.5, 2.5, 3.5}, 1e-12);
  EXPECT_EQ(out[1].typeString(), "tensor<3xf32>");
  expectNear(out[1].toVector<double>(),
             {std::exp(1.0), std::exp(2.0), std::exp(3.0)}, 1e-5);
  EXPECT_EQ(out[2].typeString(), "tensor<3xf64>");
  expectNear(out[2].toVector<double>(), {1, 0.5, 0.5}, 1e-12);
}

TEST(Op, WeakOperandsTakeTheStrongDType) {
  ConcreteFunction f =
      trace("weak",
            {spec(DType::f32, {2}), spec(DType::i32, {2}), spec(DType::f32, {}),
             spec(DType::i64, {})},
            [](llvm::ArrayRef<Value> v) -> Values {
              Value s = v[2].asWeak(), big = v[3].asWeak();
              EXPECT_TRUE(s.isWeak());
              // Weak in, weak out: the sine of a weak number stays weak, and
              // computes in f16 beside an f16 array.
              Value sinS = sin(s);
              EXPECT_TRUE(sinS.isWeak());
              Value half = mul(cast(v[0], DType::f16), sinS);
              EXPECT_EQ(half.dtype(), DType::f16);
              EXPECT_FALSE(half.isWeak());
              // A weak float meeting integers makes f32, weakly typed.
              Value mixed = add(v[1], s);
              EXPECT_EQ(mixed.dtype(), DType::f32);
              EXPECT_TRUE(mixed.isWeak());
              // A weak integer past i32's range widens rather than wraps.
              Value wide = add(v[1], big);
              EXPECT_EQ(wide.dtype(), DType::i64);
              // A comparison's result is strong; strong operands promote each
              // other as before.
              EXPECT_FALSE(less(s, 1.0).isWeak());
              EXPECT_EQ(add(cast(v[0], DType::f16), v[2]).dtype(), DType::f32);
              return {cast(half, DType::f32), mixed, wide};
            });
  std::vector<Tensor> out = run(
      f, {tensor<float>({1, 2}, {2}), tensor<int32_t>({1, 2}, {2}),
          tensor<float>({0.5f}, {}), tensor<int64_t>({int64_t(1) << 40}, {})});
  expectNear(out[0].toVector<double>(), {std::sin(0.5), 2 * std::sin(0.5)},
             1e-3);
  expectNear(out[1].toVector<double>(), {1.5, 2.5}, 0);
  EXPECT_EQ(
      out[2].toVector<int64_t>(),
      (std::vector<int64_t>{(int64_t(1) << 40) + 1, (int64_t(1) << 40) + 2}));
}

TEST(Op, BadRequestsThrowWithTheReason) {
  auto traced = [](std::function<Value(const Value &)> fn) {
    return traceError([&] {
      trace("bad", {spec(DType::f32, {2, 3})},
            [&](llvm::ArrayRef<Value> v) -> Values { return {fn(v[0])}; });
    });
  };
  std::string message =
      traced([](const Value &x) { return op("trace.no_such_op", {x}); });
  EXPECT_NE(
      message.find("'trace.no_such_op' is not an op that the tracer builds"),
      std::string::npos)
      << message;
  // A required attribute left out is reported, not read as null.
  message = traced([](const Value &x) { return op("trace.reduce_sum", {x}); });
  EXPECT_NE(message.find("'trace.reduce_sum'"), std::string::npos) << message;
  EXPECT_NE(message.find("axes"), std::string::npos) << message;
  message = traced([](const Value &x) {
    return op("trace.argmax", {x}, {{"axis", 2.5}});
  });
  EXPECT_NE(message.find("'trace.argmax'"), std::string::npos) << message;
  message = traced([](const Value &x) { return op("trace.add", {x}); });
  EXPECT_NE(message.find("'trace.add'"), std::string::npos) << message;
}

// all_gather and reduce_scatter tile an axis over the world size they are
// traced for: the result types say so (running them needs MPI: the Python
// tests do, under mpirun).
TEST(Op, CollectivesTileTheirAxisOverTheWorldSize) {
  ConcreteFunction f =
      trace("tiles", {spec(DType::f32, {4, 3})},
            [](llvm::ArrayRef<Value> v) -> Values {
              Value gathered = all_gather(v[0], /*axis=*/-1, /*worldSize=*/2);
              EXPECT_EQ(gathered.typeString(), "tensor<4x6xf32>");
              Value scattered = reduce_scatter(v[0], "mean", 0, 2);
              EXPECT_EQ(scattered.typeString(), "tensor<2x3xf32>");
              return {gathered, scattered};
            });
  EXPECT_NE(f.ir().find("trace.all_gather"), std::string::npos) << f.ir();
  auto traced = [](std::function<Value(const Value &)> fn) {
    return traceError([&] {
      trace("bad", {spec(DType::f32, {5, 3})},
            [&](llvm::ArrayRef<Value> v) -> Values { return {fn(v[0])}; });
    });
  };
  std::string message =
      traced([](const Value &x) { return reduce_scatter(x, "sum", 0, 2); });
  EXPECT_NE(message.find("'trace.reduce_scatter' axis 0 of tensor<5x3xf32> "
                         "does not split into 2 equal slices"),
            std::string::npos)
      << message;
  message = traced([](const Value &x) { return all_gather(x, 2, 2); });
  EXPECT_NE(message.find("'trace.all_gather' axis 2 is out of range"),
            std::string::npos)
      << message;
  message = traced([](const Value &x) { return all_gather(x, 0, 0); });
  EXPECT_NE(message.find("world size must be at least 1, got 0"),
            std::string::npos)
      << message;
}

} // namespace
