//===- ElementwiseToLinalg.cpp - Elementwise trace ops -> linalg.generic --===//
//
// Every elementwise op becomes one linalg.generic over the result shape.
// Broadcast operands are read through indexing maps that pin their size-1
// (or missing leading) dims to 0, so broadcasting costs no copy. Only a
// static 1 broadcasts; dims read along the same result dim must agree,
// which a run-time check enforces where one of them is `?`. The scalar
// computation of each op is one `buildScalar` overload below.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "DynamicSizes.h"
#include "LoweringUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::trace;

namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value constantLike(OpBuilder &b, Location loc, Type type, double value) {
  return isFloat(type) ? floatConstant(b, loc, type, value)
                       : intConstant(b, loc, type, static_cast<int64_t>(value));
}

/// Float or signed-integer flavour of a binary arith/math op.
template <typename FloatOp, typename IntOp>
Value binary(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isFloat(lhs.getType()))
    return FloatOp::create(b, loc, lhs, rhs);
  return IntOp::create(b, loc, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// Scalar computations, one per op. `args` are the operands' elements.
//===----------------------------------------------------------------------===//

Value buildScalar(NegOp, OpBuilder &b, Location loc, ValueRange args, Type) {
  Value x = args[0];
  if (isFloat(x.getType()))
    return arith::NegFOp::create(b, loc, x);
  return arith::SubIOp::create(b, loc, intConstant(b, loc, x.getType(), 0), x);
}

Value buildScalar(AbsOp, OpBuilder &b, Location loc, ValueRange args, Type) {
  if (isFloat(args[0].getType()))
    return math::AbsFOp::create(b, loc, args[0]);
  return math::AbsIOp::create(b, loc, args[0]);
}

#define TRACE_MATH_UNARY(TraceOp, MathOp)                                      \
  Value buildScalar(TraceOp, OpBuilder &b, Location loc, ValueRange args,      \
                    Type) {                                                    \
    return MathOp::create(b, loc, args[0]);                                    \
  }
TRACE_MATH_UNARY(ExpOp, math::ExpOp)
TRACE_MATH_UNARY(LogOp, math::LogOp)
TRACE_MATH_UNARY(SqrtOp, math::SqrtOp)
TRACE_MATH_UNARY(RsqrtOp, math::RsqrtOp)
TRACE_MATH_UNARY(TanhOp, math::TanhOp)
TRACE_MATH_UNARY(ErfOp, math::ErfOp)
TRACE_MATH_UNARY(SinOp, math::SinOp)
TRACE_MATH_UNARY(CosOp, math::CosOp)
TRACE_MATH_UNARY(FloorOp, math::FloorOp)
TRACE_MATH_UNARY(AsinOp, math::AsinOp)
TRACE_MATH_UNARY(AcosOp, math::AcosOp)
TRACE_MATH_UNARY(AtanOp, math::AtanOp)
TRACE_MATH_UNARY(AsinhOp, math::AsinhOp)
TRACE_MATH_UNARY(AcoshOp, math::AcoshOp)
TRACE_MATH_UNARY(AtanhOp, math::AtanhOp)
#undef TRACE_MATH_UNARY

Value buildScalar(Log1pOp, OpBuilder &b, Location loc, ValueRange args,
                  Type type) {
  // log(1 + x) loses x's digits when |x| is small (LLVM has no log1p
  // intrinsic, and the math lowering uses exactly that). Goldberg's form
  // is accurate to a few ulps: with u = 1 + x rounded,
  // log1p(x) = x * log(u) / (u - 1), and x itself when u == 1.
  Value x = args[0];
  Value one = floatConstant(b, loc, type, 1.0);
  Value u = arith::AddFOp::create(b, loc, one, x);
  Value d = arith::SubFOp::create(b, loc, u, one);
  Value logU = math::LogOp::create(b, loc, u);
  Value scaled = arith::MulFOp::create(
      b, loc, logU, arith::DivFOp::create(b, loc, x, d));
  Value exact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, d,
                            floatConstant(b, loc, type, 0.0));
  // For x = +inf, u - 1 = inf and the quotient is NaN: log(u) is right.
  Value infinite = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OEQ, u,
      floatConstant(b, loc, type, std::numeric_limits<double>::infinity()));
  Value large = arith::SelectOp::create(b, loc, infinite, logU, scaled);
  return arith::SelectOp::create(b, loc, exact, x, large);
}

Value buildScalar(SigmoidOp, OpBuilder &b, Location loc, ValueRange args,
                  Type type) {
  // 1 / (1 + e^-x): e^-x overflows to +inf for very negative x, giving the
  // correct limit 0, and underflows to 0 for large x, giving 1.
  Value negated = arith::NegFOp::create(b, loc, args[0]);
  Value exp = math::ExpOp::create(b, loc, negated);
  Value one = floatConstant(b, loc, type, 1.0);
  Value denominator = arith::AddFOp::create(b, loc, one, exp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

Value buildScalar(ReluOp, OpBuilder &b, Location loc, ValueRange args,
                  Type type) {
  Value zero = constantLike(b, loc, type, 0);
  // maximumf propagates NaN, as the folder does.
  return binary<arith::MaximumFOp, arith::MaxSIOp>(b, loc, args[0], zero);
}

Value buildScalar(GeluOp, OpBuilder &b, Location loc, ValueRange args,
                  Type type) {
  // Exact GELU: x * 0.5 * (1 + erf(x / sqrt(2))).
  Value x = args[0];
  Value scaled =
      arith::MulFOp::create(b, loc, x, floatConstant(b, loc, type, M_SQRT1_2));
  Value erf = math::ErfOp::create(b, loc, scaled);
  Value onePlus =
      arith::AddFOp::create(b, loc, floatConstant(b, loc, type, 1.0), erf);
  Value half =
      arith::MulFOp::create(b, loc, x, floatConstant(b, loc, type, 0.5));
  return arith::MulFOp::create(b, loc, half, onePlus);
}

Value buildScalar(SignOp, OpBuilder &b, Location loc, ValueRange args,
                  Type type) {
  Value x = args[0];
  Value zero = constantLike(b, loc, type, 0);
  Value one = constantLike(b, loc, type, 1);
  Value minusOne = constantLike(b, loc, type, -1);
  Value positive, negative;
  if (isFloat(type)) {
    positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  } else {
    positive = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero);
    negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
  }
  // Zeros (with their sign) and NaN map to themselves.
  Value rest = arith::SelectOp::create(b, loc, negative, minusOne, x);
  return arith::SelectOp::create(b, loc, positive, one, rest);
}

Value buildScalar(StopGradientOp, OpBuilder &, Location, ValueRange args,
                  Type) {
  return args[0];
}

/// Integer division never traps: x / 0 is 0 (NumPy's result) and
/// INT_MIN / -1 wraps to INT_MIN (as NumPy); the divisor the hardware sees
/// is 1 in both cases.
Value buildScalar(DivOp, OpBuilder &b, Location loc, ValueRange args, Type) {
  Value lhs = args[0], rhs = args[1];
  Type type = lhs.getType();
  if (isFloat(type))
    return arith::DivFOp::create(b, loc, lhs, rhs);
  auto eq = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  };
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = constantLike(b, loc, type, 0);
  Value one = constantLike(b, loc, type, 1);
  Value byZero = eq(rhs, zero);
  Value overflows = arith::AndIOp::create(
      b, loc,
      eq(lhs, arith::ConstantOp::create(
                  b, loc, b.getIntegerAttr(type, APInt::getSignedMinValue(width)))),
      eq(rhs, arith::ConstantOp::create(
                  b, loc, b.getIntegerAttr(type, APInt::getAllOnes(width)))));
  Value safe = arith::SelectOp::create(
      b, loc, arith::OrIOp::create(b, loc, byZero, overflows), one, rhs);
  Value quotient = arith::DivSIOp::create(b, loc, lhs, safe);
  return arith::SelectOp::create(b, loc, byZero, zero, quotient);
}

/// Integer remainders never trap either: x rem 0 is 0 (NumPy's result) and
/// INT_MIN rem -1 is 0; the divisor the hardware sees is 1 in both cases.
Value buildScalar(RemOp, OpBuilder &b, Location loc, ValueRange args, Type) {
  Value lhs = args[0], rhs = args[1];
  Type type = lhs.getType();
  if (isFloat(type))
    return arith::RemFOp::create(b, loc, lhs, rhs);
  Value zero = constantLike(b, loc, type, 0);
  Value one = constantLike(b, loc, type, 1);
  Value byZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  // rem by -1 is 0 for every x; dividing by 1 gives that and cannot overflow.
  Value minusOne = arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type, APInt::getAllOnes(type.getIntOrFloatBitWidth())));
  Value byMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  Value safe = arith::SelectOp::create(
      b, loc, arith::OrIOp::create(b, loc, byZero, byMinusOne), one, rhs);
  return arith::RemSIOp::create(b, loc, lhs, safe);
}

Value buildScalar(Atan2Op, OpBuilder &b, Location loc, ValueRange args, Type) {
  return math::Atan2Op::create(b, loc, args[0], args[1]);
}

#define TRACE_BINARY(TraceOp, FloatOp, IntOp)                                  \
  Value buildScalar(TraceOp, OpBuilder &b, Location loc, ValueRange args,      \
                    Type) {                                                    \
    return binary<FloatOp, IntOp>(b, loc, args[0], args[1]);                   \
  }
TRACE_BINARY(AddOp, arith::AddFOp, arith::AddIOp)
TRACE_BINARY(SubOp, arith::SubFOp, arith::SubIOp)
TRACE_BINARY(MulOp, arith::MulFOp, arith::MulIOp)
TRACE_BINARY(PowOp, math::PowFOp, math::IPowIOp)
TRACE_BINARY(MaxOp, arith::MaximumFOp, arith::MaxSIOp)
TRACE_BINARY(MinOp, arith::MinimumFOp, arith::MinSIOp)
#undef TRACE_BINARY

#define TRACE_COMPARE(TraceOp, FloatPredicate, IntPredicate, BoolPredicate)    \
  Value buildScalar(TraceOp, OpBuilder &b, Location loc, ValueRange args,      \
                    Type) {                                                    \
    Type type = args[0].getType();                                             \
    if (isFloat(type))                                                         \
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::FloatPredicate,\
                                   args[0], args[1]);                          \
    return arith::CmpIOp::create(b, loc,                                       \
                                 type.isInteger(1)                             \
                                     ? arith::CmpIPredicate::BoolPredicate     \
                                     : arith::CmpIPredicate::IntPredicate,     \
                                 args[0], args[1]);                            \
  }
// Ordered predicates: false when either side is NaN; `ne` is unordered so
// NaN != NaN, as in IEEE and NumPy. Booleans order false < true (unsigned;
// signed i1 would make true == -1).
TRACE_COMPARE(EqOp, OEQ, eq, eq)
TRACE_COMPARE(NeOp, UNE, ne, ne)
TRACE_COMPARE(LtOp, OLT, slt, ult)
TRACE_COMPARE(LeOp, OLE, sle, ule)
TRACE_COMPARE(GtOp, OGT, sgt, ugt)
TRACE_COMPARE(GeOp, OGE, sge, uge)
#undef TRACE_COMPARE

Value buildScalar(SelectOp, OpBuilder &b, Location loc, ValueRange args, Type) {
  return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
}

Value buildScalar(CastOp, OpBuilder &b, Location loc, ValueRange args,
                  Type to) {
  Value x = args[0];
  Type from = x.getType();
  if (from == to)
    return x;
  bool fromBool = from.isInteger(1);
  if (to.isInteger(1)) {
    Value zero = constantLike(b, loc, from, 0);
    if (isFloat(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (isFloat(from) && isFloat(to)) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, x);
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncFOp::create(b, loc, to, x);
    // f16 <-> bf16: same width, different formats; go through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (isFloat(from))
    return arith::FPToSIOp::create(b, loc, to, x);
  if (isFloat(to))
    return fromBool ? Value(arith::UIToFPOp::create(b, loc, to, x))
                    : Value(arith::SIToFPOp::create(b, loc, to, x));
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return fromBool ? Value(arith::ExtUIOp::create(b, loc, to, x))
                    : Value(arith::ExtSIOp::create(b, loc, to, x));
  return arith::TruncIOp::create(b, loc, to, x);
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

/// The map from the result's iteration space to an operand broadcast into
/// it: leading dims the operand lacks are dropped, size-1 dims read index 0.
AffineMap broadcastMap(RankedTensorType operand, RankedTensorType result,
                       MLIRContext *context) {
  int64_t offset = result.getRank() - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    bool broadcast =
        operand.getDimSize(d) == 1 && result.getDimSize(d + offset) != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(d + offset, context));
  }
  return AffineMap::get(result.getRank(), 0, exprs, context);
}

template <typename OpTy>
struct ElementwiseToGeneric : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());

    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineMap> maps;
    for (Type operand : op->getOperandTypes())
      maps.push_back(
          broadcastMap(cast<RankedTensorType>(operand), resultType, context));
    maps.push_back(rewriter.getMultiDimIdentityMap(resultType.getRank()));
    SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                               utils::IteratorType::parallel);

    // Per result dim, the operand dims read along it (not broadcast) must
    // agree; a dynamic result dim takes the op's size for it.
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return failure();
    if (failed(checkLoopSizes(rewriter, loc, op, op->getOperands(),
                              ArrayRef(maps).drop_back(),
                              resultType.getRank())))
      return rewriter.notifyMatchFailure(op, "a result dim of no operand");
    SmallVector<Value> dynamic = dynamicOf(rewriter, loc, resultType, *sizes);

    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         resultType.getElementType(), dynamic);
    Type element = resultType.getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, op->getOperands(),
        ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value result = buildScalar(op, b, bodyLoc, args.drop_back(), element);
          linalg::YieldOp::create(b, bodyLoc, result);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::trace::populateElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<
      // unary
      ElementwiseToGeneric<NegOp>, ElementwiseToGeneric<AbsOp>,
      ElementwiseToGeneric<ExpOp>, ElementwiseToGeneric<LogOp>,
      ElementwiseToGeneric<Log1pOp>, ElementwiseToGeneric<SqrtOp>,
      ElementwiseToGeneric<RsqrtOp>, ElementwiseToGeneric<TanhOp>,
      ElementwiseToGeneric<SigmoidOp>, ElementwiseToGeneric<ReluOp>,
      ElementwiseToGeneric<GeluOp>, ElementwiseToGeneric<ErfOp>,
      ElementwiseToGeneric<AsinOp>, ElementwiseToGeneric<AcosOp>,
      ElementwiseToGeneric<AtanOp>, ElementwiseToGeneric<AsinhOp>,
      ElementwiseToGeneric<AcoshOp>, ElementwiseToGeneric<AtanhOp>,
      ElementwiseToGeneric<Atan2Op>, ElementwiseToGeneric<SinOp>,
      ElementwiseToGeneric<CosOp>, ElementwiseToGeneric<SignOp>,
      ElementwiseToGeneric<FloorOp>, ElementwiseToGeneric<StopGradientOp>,
      // binary
      ElementwiseToGeneric<AddOp>, ElementwiseToGeneric<SubOp>,
      ElementwiseToGeneric<MulOp>, ElementwiseToGeneric<DivOp>,
      ElementwiseToGeneric<RemOp>, ElementwiseToGeneric<PowOp>,
      ElementwiseToGeneric<MaxOp>, ElementwiseToGeneric<MinOp>,
      // comparisons, select, cast
      ElementwiseToGeneric<EqOp>, ElementwiseToGeneric<NeOp>,
      ElementwiseToGeneric<LtOp>, ElementwiseToGeneric<LeOp>,
      ElementwiseToGeneric<GtOp>, ElementwiseToGeneric<GeOp>,
      ElementwiseToGeneric<SelectOp>, ElementwiseToGeneric<CastOp>>(
      patterns.getContext());
}
