//===- BuilderTest.cpp - Creating trace ops from C++ ----------------------===//
//
// Every op is built without spelling out its result type: it is inferred
// from the operands and attributes (or, for type-directed ops such as
// reshape, computed from the requested shape or element type).
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/IR/InferResultTypes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::trace;

namespace {

class TraceBuilderTest : public ::testing::Test {
protected:
  TraceBuilderTest() : builder(&context) {
    context.loadDialect<TraceDialect, func::FuncDialect>();
    loc = builder.getUnknownLoc();
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A function with the given argument types whose body the test fills;
  /// the builder is left inside it.
  func::FuncOp beginFunction(StringRef name, TypeRange args) {
    auto func = func::FuncOp::create(builder, loc, name,
                                     builder.getFunctionType(args, {}));
    builder.setInsertionPointToEnd(func.addEntryBlock());
    return func;
  }

  /// Returns `results` from the current function and verifies the module.
  void endFunction(func::FuncOp func, ValueRange results) {
    func::ReturnOp::create(builder, loc, results);
    func.setType(builder.getFunctionType(func.getArgumentTypes(),
                                         ValueRange(results).getTypes()));
    builder.setInsertionPointToEnd(module->getBody());
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element = {}) {
    return RankedTensorType::get(shape, element ? element : builder.getF32Type());
  }

  void expectVerifies() { EXPECT_TRUE(succeeded(verify(*module))); }

  MLIRContext context;
  OpBuilder builder;
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module;
};

TEST_F(TraceBuilderTest, SourceOps) {
  auto func = beginFunction("sources", {tensor({})});
  Value scalar = func.getArgument(0);

  auto constant = ConstantOp::create(
      builder, loc, DenseElementsAttr::get(tensor({2}), ArrayRef<float>{1, 2}));
  EXPECT_EQ(constant.getType(), tensor({2}));

  auto fill = FillOp::create(builder, loc, scalar, ArrayRef<int64_t>{2, 3});
  EXPECT_EQ(fill.getType(), tensor({2, 3}));

  auto iota = IotaOp::create(builder, loc, tensor({4}, builder.getI32Type()),
                             /*axis=*/0);
  EXPECT_EQ(iota.getType(), tensor({4}, builder.getI32Type()));

  auto uniform = RandomUniformOp::create(builder, loc, tensor({3}),
                                         ValueRange{}, /*seed=*/1, 0.0, 1.0);
  auto normal = RandomNormalOp::create(builder, loc, tensor({3}), ValueRange{},
                                       /*seed=*/1, 0.0, 1.0);
  EXPECT_EQ(normal.getResult().getType(), tensor({3}));
  endFunction(func, {constant, fill, iota, uniform.getResult()});
  expectVerifies();
}

TEST_F(TraceBuilderTest, SourceOpsLike) {
  int64_t dyn = ShapedType::kDynamic;
  auto func = beginFunction(
      "sources_like", {tensor({}), tensor({dyn, 4}, builder.getI64Type())});
  Value scalar = func.getArgument(0), like = func.getArgument(1);

  // `like`'s shape, the scalar's element type.
  auto fill = FillOp::create(builder, loc, scalar, like);
  EXPECT_EQ(fill.getType(), tensor({dyn, 4}));
  EXPECT_EQ(fill.getLike(), like);

  auto iota = IotaOp::create(builder, loc, tensor({dyn, 4}, builder.getI32Type()),
                             like, /*axis=*/1);
  EXPECT_EQ(iota.getLike(), like);

  auto uniform = RandomUniformOp::create(
      builder, loc, tensor({dyn, 4}), ControlType::get(&context), like,
      ValueRange{}, /*seed=*/1, llvm::APFloat(0.0), llvm::APFloat(1.0));
  auto normal = RandomNormalOp::create(
      builder, loc, tensor({dyn, 4}), ControlType::get(&context), like,
      ValueRange{uniform.getControl()}, /*seed=*/2, llvm::APFloat(0.0),
      llvm::APFloat(1.0));
  EXPECT_EQ(normal.getLike(), like);
  EXPECT_EQ(normal.getAfter().size(), 1u);
  endFunction(func, {fill, iota, uniform.getResult(), normal.getResult()});
  expectVerifies();
}

TEST_F(TraceBuilderTest, ElementwiseOpsInferBroadcastShapes) {
  auto func = beginFunction("elementwise", {tensor({2, 3}), tensor({3})});
  Value x = func.getArgument(0), row = func.getArgument(1);

  SmallVector<Value> results;
  results.push_back(NegOp::create(builder, loc, x));
  results.push_back(AbsOp::create(builder, loc, x));
  results.push_back(ExpOp::create(builder, loc, x));
  results.push_back(LogOp::create(builder, loc, x));
  results.push_back(Log1pOp::create(builder, loc, x));
  results.push_back(SqrtOp::create(builder, loc, x));
  results.push_back(RsqrtOp::create(builder, loc, x));
  results.push_back(TanhOp::create(builder, loc, x));
  results.push_back(SigmoidOp::create(builder, loc, x));
  results.push_back(ReluOp::create(builder, loc, x));
  results.push_back(GeluOp::create(builder, loc, x));
  results.push_back(SinOp::create(builder, loc, x));
  results.push_back(CosOp::create(builder, loc, x));
  results.push_back(SignOp::create(builder, loc, x));
  results.push_back(FloorOp::create(builder, loc, x));
  results.push_back(StopGradientOp::create(builder, loc, x));
  for (Value v : results)
    EXPECT_EQ(v.getType(), tensor({2, 3}));

  SmallVector<Value> binary = {
      AddOp::create(builder, loc, x, row), SubOp::create(builder, loc, row, x),
      MulOp::create(builder, loc, x, row), DivOp::create(builder, loc, x, row),
      PowOp::create(builder, loc, x, row), MaxOp::create(builder, loc, x, row),
      MinOp::create(builder, loc, x, row)};
  for (Value v : binary)
    EXPECT_EQ(v.getType(), tensor({2, 3}));

  Type i1 = builder.getI1Type();
  SmallVector<Value> compares = {
      EqOp::create(builder, loc, x, row), NeOp::create(builder, loc, x, row),
      LtOp::create(builder, loc, x, row), LeOp::create(builder, loc, x, row),
      GtOp::create(builder, loc, x, row), GeOp::create(builder, loc, x, row)};
  for (Value v : compares)
    EXPECT_EQ(v.getType(), tensor({2, 3}, i1));

  auto select = SelectOp::create(builder, loc, compares[0], row, x);
  EXPECT_EQ(select.getType(), tensor({2, 3}));
  auto cast = CastOp::create(builder, loc, x, builder.getI32Type());
  EXPECT_EQ(cast.getType(), tensor({2, 3}, builder.getI32Type()));

  endFunction(func, {results.front(), binary.front(), select, cast});
  expectVerifies();
}

TEST_F(TraceBuilderTest, MatmulAndReductions) {
  auto func = beginFunction("linalg", {tensor({5, 2, 3}), tensor({3, 4})});
  Value a = func.getArgument(0), b = func.getArgument(1);

  auto matmul = MatmulOp::create(builder, loc, a, b);
  EXPECT_EQ(matmul.getType(), tensor({5, 2, 4}));
  auto transposed = MatmulOp::create(builder, loc, b, b, /*transpose_a=*/true,
                                     /*transpose_b=*/false);
  EXPECT_EQ(transposed.getType(), tensor({4, 4}));

  auto axes = builder.getDenseI64ArrayAttr({0, -1});
  auto sum = ReduceSumOp::create(builder, loc, matmul, axes, /*keepdims=*/false);
  EXPECT_EQ(sum.getType(), tensor({2}));
  auto mean = ReduceMeanOp::create(builder, loc, matmul, axes, /*keepdims=*/true);
  EXPECT_EQ(mean.getType(), tensor({1, 2, 1}));
  auto max = ReduceMaxOp::create(builder, loc, matmul, axes, false);
  auto min = ReduceMinOp::create(builder, loc, matmul, axes, false);
  EXPECT_EQ(max.getType(), min.getType());
  auto argmax = ArgmaxOp::create(builder, loc, matmul, /*axis=*/-1);
  EXPECT_EQ(argmax.getType(), tensor({5, 2}, builder.getI64Type()));
  auto softmax = SoftmaxOp::create(builder, loc, matmul, /*axis=*/-1);
  auto logSoftmax = LogSoftmaxOp::create(builder, loc, matmul, /*axis=*/0);
  EXPECT_EQ(softmax.getType(), matmul.getType());
  EXPECT_EQ(logSoftmax.getType(), matmul.getType());

  endFunction(func, {sum, mean, argmax, softmax, logSoftmax});
  expectVerifies();
}

TEST_F(TraceBuilderTest, ShapeOps) {
  Type i32 = builder.getI32Type();
  auto func = beginFunction("shapes", {tensor({2, 3}), tensor({4}, i32)});
  Value x = func.getArgument(0), indices = func.getArgument(1);

  auto reshape = ReshapeOp::create(builder, loc, x, ArrayRef<int64_t>{3, -1});
  EXPECT_EQ(reshape.getType(), tensor({3, 2}));
  auto transpose = TransposeOp::create(builder, loc, x, ArrayRef<int64_t>{1, 0});
  EXPECT_EQ(transpose.getType(), tensor({3, 2}));
  auto broadcast =
      BroadcastToOp::create(builder, loc, x, ArrayRef<int64_t>{4, 2, 3});
  EXPECT_EQ(broadcast.getType(), tensor({4, 2, 3}));
  auto concat = ConcatOp::create(builder, loc, ValueRange{x, x}, /*axis=*/-1);
  EXPECT_EQ(concat.getType(), tensor({2, 6}));
  auto slice = SliceOp::create(builder, loc, x, ArrayRef<int64_t>{0, 1},
                               ArrayRef<int64_t>{2, 3},
                               builder.getDenseI64ArrayAttr({1, 2}));
  EXPECT_EQ(slice.getType(), tensor({2, 1}));
  auto pad = PadOp::create(builder, loc, x, ArrayRef<int64_t>{1, 0},
                           ArrayRef<int64_t>{0, 2}, llvm::APFloat(0.0));
  EXPECT_EQ(pad.getType(), tensor({3, 5}));
  auto gather = GatherOp::create(builder, loc, x, indices, /*axis=*/1);
  EXPECT_EQ(gather.getType(), tensor({2, 4}));
  auto oneHot = OneHotOp::create(builder, loc, indices, /*depth=*/10,
                                 builder.getF32Type());
  EXPECT_EQ(oneHot.getType(), tensor({4, 10}));

  endFunction(func, {reshape, transpose, broadcast, concat, slice, pad, gather,
                     oneHot});
  expectVerifies();
}

TEST_F(TraceBuilderTest, ConvPoolOps) {
  auto func = beginFunction("nn", {tensor({1, 8, 8, 3}), tensor({3, 3, 3, 16})});
  Value input = func.getArgument(0), filter = func.getArgument(1);

  auto conv = Conv2DOp::create(builder, loc, input, filter,
                               ArrayRef<int64_t>{2, 2},
                               ArrayRef<int64_t>{1, 1, 1, 1},
                               ArrayRef<int64_t>{1, 1});
  EXPECT_EQ(conv.getType(), tensor({1, 4, 4, 16}));
  auto maxPool = MaxPool2DOp::create(builder, loc, input,
                                     ArrayRef<int64_t>{2, 2},
                                     ArrayRef<int64_t>{2, 2},
                                     ArrayRef<int64_t>{0, 0, 0, 0});
  EXPECT_EQ(maxPool.getType(), tensor({1, 4, 4, 3}));
  auto avgPool = AvgPool2DOp::create(builder, loc, input,
                                     ArrayRef<int64_t>{3, 3},
                                     ArrayRef<int64_t>{1, 1},
                                     ArrayRef<int64_t>{1, 1, 1, 1});
  EXPECT_EQ(avgPool.getType(), tensor({1, 8, 8, 3}));

  endFunction(func, {conv, maxPool, avgPool});
  expectVerifies();
}

TEST_F(TraceBuilderTest, GradientOps) {
  // loss(w, x) = sum(x @ w)
  auto loss = beginFunction("loss", {tensor({3, 2}), tensor({4, 3})});
  auto product = MatmulOp::create(builder, loc, loss.getArgument(1),
                                  loss.getArgument(0));
  auto sum = ReduceSumOp::create(builder, loc, product,
                                 builder.getDenseI64ArrayAttr({0, 1}), false);
  endFunction(loss, {sum});

  auto caller = beginFunction("train", {tensor({3, 2}), tensor({4, 3})});
  Value w = caller.getArgument(0), x = caller.getArgument(1);
  auto grad = GradOp::create(builder, loc, SymbolRefAttr::get(loss),
                             ValueRange{w, x}, /*after=*/ValueRange(),
                             builder.getDenseI64ArrayAttr({0, 1}),
                             UnconnectedAttr::get(&context, Unconnected::zero));
  ASSERT_EQ(grad.getNumResults(), 2u);
  EXPECT_EQ(grad.getResult(0).getType(), tensor({3, 2}));
  EXPECT_EQ(grad.getResult(1).getType(), tensor({4, 3}));

  auto valueAndGrad = ValueAndGradOp::create(builder, loc, loss,
                                             ValueRange{w, x},
                                             ArrayRef<int64_t>{0});
  EXPECT_EQ(valueAndGrad.getValue().getType(), tensor({}));
  EXPECT_EQ(valueAndGrad.getGrads()[0].getType(), tensor({3, 2}));

  auto vjp = VjpOp::create(builder, loc, loss, ValueRange{w, x},
                           ValueRange{valueAndGrad.getValue()},
                           ArrayRef<int64_t>{1});
  ASSERT_EQ(vjp.getNumResults(), 2u);
  EXPECT_EQ(vjp.getResult(1).getType(), tensor({4, 3}));
  endFunction(caller, {grad.getResult(0), vjp.getResult(1)});
  expectVerifies();
}

TEST_F(TraceBuilderTest, StateOps) {
  auto resource = ResourceType::get(&context, tensor({4}));
  auto func = beginFunction("state", {resource, tensor({4})});
  Value var = func.getArgument(0), x = func.getArgument(1);

  auto assign = VarAssignOp::create(builder, loc, var, x, ValueRange{});
  auto read = VarReadOp::create(builder, loc, var,
                                ValueRange{assign.getControl()});
  EXPECT_EQ(read.getValue().getType(), tensor({4}));
  EXPECT_TRUE(isa<ControlType>(read.getControl().getType()));
  auto add = VarAssignAddOp::create(builder, loc, var, read.getValue(),
                                    ValueRange{read.getControl()});
  auto sub = VarAssignSubOp::create(builder, loc, var, x,
                                    ValueRange{add.getControl()});
  auto print = PrintOp::create(builder, loc, read.getValue(),
                               ValueRange{sub.getControl()}, "value");
  auto identity = IdentityOp::create(builder, loc, read.getValue(),
                                     ValueRange{print.getControl()});
  EXPECT_EQ(identity.getType(), tensor({4}));
  endFunction(func, {identity});
  expectVerifies();
}

// At `?` dims the builders infer a static size wherever an operand fixes it
// (a `?` never broadcasts, so `?` vs 8 is 8), as the tracers' by-name
// builder does.
TEST_F(TraceBuilderTest, DynamicDimsInferStaticSizesWherePossible) {
  int64_t dyn = ShapedType::kDynamic;
  auto func = beginFunction("dynamic", {tensor({dyn, 4}), tensor({8, 4}),
                                        tensor({4, dyn}), tensor({dyn, 1}),
                                        tensor({dyn, 784}), tensor({784, 10})});
  Value a = func.getArgument(0), b = func.getArgument(1),
        c = func.getArgument(2), d = func.getArgument(3);

  EXPECT_EQ(AddOp::create(builder, loc, a, b).getType(), tensor({8, 4}));
  EXPECT_EQ(MulOp::create(builder, loc, a, d).getType(), tensor({dyn, 4}));
  EXPECT_EQ(
      MatmulOp::create(builder, loc, func.getArgument(4), func.getArgument(5))
          .getType(),
      tensor({dyn, 10}));
  // 4x`?` times `?`x4: two `?` contraction dims (equal at run time).
  EXPECT_EQ(MatmulOp::create(builder, loc, c, a).getType(), tensor({4, 4}));
  // concat's non-axis dims come from any input where they are static.
  EXPECT_EQ(
      ConcatOp::create(builder, loc, ValueRange{c, b}, /*axis=*/0).getType(),
      tensor({12, 4}));
  EXPECT_EQ(
      ConcatOp::create(builder, loc, ValueRange{c, a}, /*axis=*/0).getType(),
      tensor({dyn, 4}));
  EXPECT_EQ(
      ConcatOp::create(builder, loc, ValueRange{a, c}, /*axis=*/1).getType(),
      tensor({4, dyn}));
  EXPECT_EQ(
      ReshapeOp::create(builder, loc, a, ArrayRef<int64_t>{-1, 2, 2}).getType(),
      tensor({dyn, 2, 2}));

  OperationState state(loc, AddOp::getOperationName());
  state.addOperands({d, b});
  Operation *add = createWithInferredTypes(state, 1);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->getResult(0).getType(), tensor({8, 4}));
  builder.insert(add);
  endFunction(func, {});
  expectVerifies();
}

TEST_F(TraceBuilderTest, InferenceFailureIsReportedNotFatal) {
  auto func = beginFunction("bad", {tensor({2, 3}), tensor({4, 3})});
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  SmallVector<Type> types;
  EXPECT_TRUE(failed(AddOp::inferReturnTypes(
      &context, loc, ValueRange{func.getArgument(0), func.getArgument(1)},
      /*attributes=*/nullptr, /*properties=*/nullptr, /*regions=*/{}, types)));
  EXPECT_EQ(message, "'trace.add' op shapes are not broadcast-compatible: "
                     "lhs 2x3 vs rhs 4x3 (lhs dim 0 is 2, rhs dim 0 is 4; "
                     "only a static 1 broadcasts)");
  endFunction(func, {});
}

} // namespace
