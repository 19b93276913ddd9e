//===- ElementwiseOps.cpp - Unary, binary, compare, select, cast ----------===//

#include "ConstantFolding.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "llvm/ADT/APSInt.h"
#include <cmath>

using namespace mlir;
using namespace mlir::trace;
using llvm::APFloat;
using llvm::APInt;

namespace {
using OptFloat = std::optional<APFloat>;
using OptInt = std::optional<APInt>;

/// A unary op whose float semantics is a libm function.
template <double (*Fn)(double)>
OptFloat viaDouble(const APFloat &x) {
  return applyInDouble(x, Fn);
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
} // namespace

//===----------------------------------------------------------------------===//
// Unary folders
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // -(-x) == x.
  if (auto inner = getX().getDefiningOp<NegOp>())
    return inner.getX();
  return foldUnary(
      adaptor.getX(), getType(),
      [](const APFloat &x) -> OptFloat { return -x; },
      [](const APInt &x) -> OptInt { return -x; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getX(), getType(),
      [](const APFloat &x) -> OptFloat { return llvm::abs(x); },
      [](const APInt &x) -> OptInt { return x.abs(); });
}

OpFoldResult ExpOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::exp>, nullptr);
}
OpFoldResult LogOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::log>, nullptr);
}
OpFoldResult Log1pOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::log1p>, nullptr);
}
OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::sqrt>, nullptr);
}
OpFoldResult RsqrtOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<rsqrt>, nullptr);
}
OpFoldResult TanhOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::tanh>, nullptr);
}
OpFoldResult SigmoidOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<sigmoid>, nullptr);
}
OpFoldResult GeluOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<gelu>, nullptr);
}
OpFoldResult ErfOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::erf>, nullptr);
}
OpFoldResult SinOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::sin>, nullptr);
}
OpFoldResult CosOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::cos>, nullptr);
}
OpFoldResult AsinOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::asin>, nullptr);
}
OpFoldResult AcosOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::acos>, nullptr);
}
OpFoldResult AtanOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::atan>, nullptr);
}
OpFoldResult AsinhOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::asinh>, nullptr);
}
OpFoldResult AcoshOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::acosh>, nullptr);
}
OpFoldResult AtanhOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::atanh>, nullptr);
}
OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), viaDouble<std::floor>, nullptr);
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  // relu(relu(x)) == relu(x).
  if (auto inner = getX().getDefiningOp<ReluOp>())
    return inner.getResult();
  return foldUnary(
      adaptor.getX(), getType(),
      [](const APFloat &x) -> OptFloat {
        // NaN propagates, as in max(x, 0) with NaN winning.
        return x.isNegative() && !x.isNaN() ? APFloat::getZero(x.getSemantics())
                                            : x;
      },
      [](const APInt &x) -> OptInt {
        return x.isNegative() ? APInt::getZero(x.getBitWidth()) : x;
      });
}

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getX(), getType(),
      [](const APFloat &x) -> OptFloat {
        if (x.isNaN() || x.isZero())
          return x;
        // Not APFloat(semantics, -1): that constructor takes an unsigned
        // integerPart, so -1 would become 2^64 - 1.
        return APFloat::getOne(x.getSemantics(), x.isNegative());
      },
      [](const APInt &x) -> OptInt {
        int64_t sign = x.isNegative() ? -1 : (x.isZero() ? 0 : 1);
        return APInt(x.getBitWidth(), sign, /*isSigned=*/true);
      });
}

OpFoldResult StopGradientOp::fold(FoldAdaptor adaptor) {
  // A constant has no gradient anyway; anything else must keep the barrier.
  if (auto constant = dyn_cast_or_null<ElementsAttr>(adaptor.getX()))
    return constant;
  return {};
}

//===----------------------------------------------------------------------===//
// Binary folders
//===----------------------------------------------------------------------===//

/// `x op identity` folds to x when the identity is a splat and no
/// broadcasting changes x's type.
static Value foldIdentityOperand(Operation *op, Attribute rhs, double identity) {
  Value lhs = op->getOperand(0);
  if (isSplatValue(rhs, identity) && lhs.getType() == op->getResult(0).getType())
    return lhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // The float identity is -0.0, not +0.0: -0.0 + +0.0 is +0.0, so x + 0.0
  // would turn x = -0.0 into +0.0 (IEEE 754, as NumPy and arith.addf). Floats
  // match the splat bitwise, so +0.0 does not fold; integers compare as
  // doubles, where -0.0 == 0, so integer 0 still does.
  constexpr double identity = -0.0;
  if (Value x = foldIdentityOperand(*this, adaptor.getRhs(), identity))
    return x;
  // -0 + x: commute the check.
  if (isSplatValue(adaptor.getLhs(), identity) &&
      getRhs().getType() == getType())
    return getRhs();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat { return a + b; },
      [](const APInt &a, const APInt &b) -> OptInt { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  // x - +0.0 is x for every x (-0.0 - +0.0 = -0.0), but x - -0.0 is not
  // (-0.0 - -0.0 = +0.0): +0.0 is matched bitwise, so -0.0 does not fold.
  // 0 - x is not -x either (0 - 0 = +0, -(+0) = -0), so it is not folded.
  if (Value x = foldIdentityOperand(*this, adaptor.getRhs(), 0.0))
    return x;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat { return a - b; },
      [](const APInt &a, const APInt &b) -> OptInt { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (Value x = foldIdentityOperand(*this, adaptor.getRhs(), 1.0))
    return x;
  if (isSplatValue(adaptor.getLhs(), 1.0) && getRhs().getType() == getType())
    return getRhs();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat { return a * b; },
      [](const APInt &a, const APInt &b) -> OptInt { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (Value x = foldIdentityOperand(*this, adaptor.getRhs(), 1.0))
    return x;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat { return a / b; },
      [](const APInt &a, const APInt &b) -> OptInt {
        // As at run time: x / 0 is 0, INT_MIN / -1 wraps to INT_MIN.
        if (b.isZero())
          return APInt::getZero(a.getBitWidth());
        if (a.isMinSignedValue() && b.isAllOnes())
          return a;
        return a.sdiv(b);
      });
}

OpFoldResult RemOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat {
        APFloat r = a;
        r.mod(b); // fmod: exact, with the sign of a
        return r;
      },
      [](const APInt &a, const APInt &b) -> OptInt {
        // As at run time: x rem 0 is 0, and so is INT_MIN rem -1.
        if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
          return APInt::getZero(a.getBitWidth());
        return a.srem(b);
      });
}

OpFoldResult Atan2Op::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat {
        bool losesInfo = false;
        APFloat wa = a, wb = b;
        wa.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
        wb.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
        APFloat r(std::atan2(wa.convertToDouble(), wb.convertToDouble()));
        r.convert(a.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
        return r;
      },
      nullptr);
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (Value x = foldIdentityOperand(*this, adaptor.getRhs(), 1.0))
    return x;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat {
        bool losesInfo = false;
        APFloat wa = a, wb = b;
        wa.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
        wb.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
        APFloat r(std::pow(wa.convertToDouble(), wb.convertToDouble()));
        r.convert(a.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
        return r;
      },
      [](const APInt &a, const APInt &b) -> OptInt {
        if (b.isNegative())
          return std::nullopt; // Not an integer; left to run time.
        APInt result(a.getBitWidth(), 1);
        for (uint64_t i = 0, e = b.getZExtValue(); i < e && i < 64; ++i)
          result *= a;
        if (b.ugt(64) && !(a.isOne() || a.isZero()))
          return std::nullopt;
        return result;
      });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat {
        return llvm::maximum(a, b);
      },
      [](const APInt &a, const APInt &b) -> OptInt {
        return a.sge(b) ? a : b;
      });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> OptFloat {
        return llvm::minimum(a, b);
      },
      [](const APInt &a, const APInt &b) -> OptInt {
        return a.sle(b) ? a : b;
      });
}

//===----------------------------------------------------------------------===//
// Comparison folders (IEEE: every comparison with NaN is false but `ne`)
//===----------------------------------------------------------------------===//

/// Integers compare signed; booleans are 0 and 1 (false < true), not the
/// signed i1 values 0 and -1, so they are widened without sign first.
static APInt asSignedOperand(const APInt &value) {
  return value.getBitWidth() == 1 ? value.zext(2) : value;
}

#define TRACE_COMPARE_FOLDER(OP, FLOAT_TEST, INT_TEST)                         \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldCompare(                                                        \
        adaptor.getLhs(), adaptor.getRhs(), getType(),                         \
        [](const APFloat &a, const APFloat &b) {                               \
          APFloat::cmpResult c = a.compare(b);                                 \
          return FLOAT_TEST;                                                   \
        },                                                                     \
        [](const APInt &lhs, const APInt &rhs) {                               \
          APInt a = asSignedOperand(lhs), b = asSignedOperand(rhs);            \
          return INT_TEST;                                                     \
        });                                                                    \
  }

TRACE_COMPARE_FOLDER(EqOp, c == APFloat::cmpEqual, a == b)
TRACE_COMPARE_FOLDER(NeOp, c != APFloat::cmpEqual, a != b)
TRACE_COMPARE_FOLDER(LtOp, c == APFloat::cmpLessThan, a.slt(b))
TRACE_COMPARE_FOLDER(LeOp, c == APFloat::cmpLessThan || c == APFloat::cmpEqual,
                     a.sle(b))
TRACE_COMPARE_FOLDER(GtOp, c == APFloat::cmpGreaterThan, a.sgt(b))
TRACE_COMPARE_FOLDER(GeOp,
                     c == APFloat::cmpGreaterThan || c == APFloat::cmpEqual,
                     a.sge(b))
#undef TRACE_COMPARE_FOLDER

//===----------------------------------------------------------------------===//
// select
//===----------------------------------------------------------------------===//

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto cond = dyn_cast<RankedTensorType>(adaptor.getCond().getType());
  auto onTrue = dyn_cast<RankedTensorType>(adaptor.getOnTrue().getType());
  auto onFalse = dyn_cast<RankedTensorType>(adaptor.getOnFalse().getType());
  if (!cond || !onTrue || !onFalse)
    return emitOptionalError(loc, "'trace.select' op operands must be ranked tensors");
  if (onTrue.getElementType() != onFalse.getElementType())
    return emitOptionalError(loc, "'trace.select' op operand element types differ: "
                                  "on_true ",
                             onTrue.getElementType(), " vs on_false ",
                             onFalse.getElementType());
  auto values = broadcastShapes(onTrue.getShape(), onFalse.getShape());
  if (!values)
    return emitOptionalError(
        loc, "'trace.select' op shapes are not broadcast-compatible: on_true ",
        formatShape(onTrue.getShape()), " vs on_false ",
        formatShape(onFalse.getShape()), " (",
        describeBroadcastMismatch(onTrue.getShape(), "on_true",
                                  onFalse.getShape(), "on_false"),
        "; only a static 1 broadcasts)");
  auto shape = broadcastShapes(cond.getShape(), *values);
  if (!shape)
    return emitOptionalError(
        loc, "'trace.select' op shapes are not broadcast-compatible: cond ",
        formatShape(cond.getShape()), " vs values ", formatShape(*values), " (",
        describeBroadcastMismatch(cond.getShape(), "cond", *values, "values"),
        "; only a static 1 broadcasts)");
  types.push_back(RankedTensorType::get(*shape, onTrue.getElementType()));
  return success();
}

LogicalResult SelectOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  return reifyBroadcastResult(b, *this, shapes);
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  auto sameType = [&](Value v) { return v.getType() == getType(); };
  if (getOnTrue() == getOnFalse() && sameType(getOnTrue()))
    return getOnTrue();
  auto cond = dyn_cast_or_null<DenseElementsAttr>(adaptor.getCond());
  if (!cond || !cond.isSplat())
    return {};
  Value chosen = cond.getSplatValue<bool>() ? getOnTrue() : getOnFalse();
  return sameType(chosen) ? chosen : Value();
}

//===----------------------------------------------------------------------===//
// cast
//===----------------------------------------------------------------------===//

void CastOp::build(OpBuilder &builder, OperationState &state, Value x,
                   Type elementType) {
  auto type = cast<RankedTensorType>(x.getType());
  build(builder, state, type.clone(elementType), x);
}

LogicalResult CastOp::verify() {
  auto from = cast<RankedTensorType>(getX().getType());
  if (from.getShape() != getType().getShape())
    return emitOpError("shape must be preserved: operand ")
           << formatShape(from.getShape()) << " vs result "
           << formatShape(getType().getShape());
  return success();
}

LogicalResult CastOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  return reifySameShapeResult(b, *this, shapes);
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  Attribute operand = adaptor.getX();
  if (!operand)
    return {};
  Type from = cast<RankedTensorType>(getX().getType()).getElementType();
  Type to = getType().getElementType();
  RankedTensorType resultType = getType();
  auto toFloat = dyn_cast<FloatType>(to);
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    if (toFloat)
      return foldElementwise<APFloat, APFloat>(
          operand, resultType, [&](ArrayRef<APFloat> v) -> OptFloat {
            APFloat r = v[0];
            bool losesInfo = false;
            r.convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                      &losesInfo);
            return r;
          });
    unsigned width = to.getIntOrFloatBitWidth();
    return foldElementwise<APFloat, APInt>(
        operand, resultType, [&](ArrayRef<APFloat> v) -> OptInt {
          if (width == 1)
            return APInt(1, !v[0].isZero());
          llvm::APSInt r(width, /*isUnsigned=*/false);
          bool exact = false;
          // Out of range and NaN are undefined at run time: do not fold.
          if (v[0].convertToInteger(r, APFloat::rmTowardZero, &exact) &
              APFloat::opInvalidOp)
            return std::nullopt;
          return APInt(r);
        });
  }
  bool fromBool = from.isInteger(1);
  if (toFloat)
    return foldElementwise<APInt, APFloat>(
        operand, resultType, [&](ArrayRef<APInt> v) -> OptFloat {
          APFloat r(toFloat.getFloatSemantics());
          r.convertFromAPInt(v[0], /*isSigned=*/!fromBool,
                             APFloat::rmNearestTiesToEven);
          return r;
        });
  unsigned width = to.getIntOrFloatBitWidth();
  return foldElementwise<APInt, APInt>(
      operand, resultType, [&](ArrayRef<APInt> v) -> OptInt {
        if (width == 1)
          return APInt(1, !v[0].isZero());
        return fromBool ? v[0].zext(width) : v[0].sextOrTrunc(width);
      });
}
