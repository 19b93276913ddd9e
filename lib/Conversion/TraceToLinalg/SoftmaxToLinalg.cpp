//===- SoftmaxToLinalg.cpp - softmax, log_softmax, argmax -> linalg -------===//
//
// softmax and log_softmax are lowered in the numerically stable form: the
// maximum m along the axis (a linalg.reduce) is subtracted before exp, so
// large inputs do not overflow:
//   softmax     = exp(x - m) / sum(exp(x - m))
//   log_softmax = (x - m) - log(sum(exp(x - m)))
// Reduced tensors are read back through indexing maps that skip the axis.
//
// argmax is one linalg.generic reducing along the axis into two outputs, the
// running maximum and its index (from linalg.index). The combiner does not
// depend on the visiting order: a candidate wins when it is greater, or
// equal with a lower index, so ties give the first maximum. NaN counts as
// greater than every number (NumPy's rule): the first NaN wins.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// `shape` without dim `axis`.
SmallVector<int64_t> dropAxis(ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<int64_t> reduced(shape);
  reduced.erase(reduced.begin() + axis);
  return reduced;
}

/// The map from a rank-`rank` iteration space to a tensor lacking `axis`.
AffineMap withoutAxis(int64_t rank, int64_t axis, MLIRContext *context) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      exprs.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(rank, 0, exprs, context);
}

/// Reduces `x` along `axis` with maximumf (from -inf) or addf (from 0).
Value reduceAlong(OpBuilder &b, Location loc, Value x, int64_t axis,
                  bool isMax) {
  auto type = cast<RankedTensorType>(x.getType());
  auto floatType = cast<FloatType>(type.getElementType());
  TypedAttr identity =
      isMax ? TypedAttr(b.getFloatAttr(
                  floatType,
                  llvm::APFloat::getInf(floatType.getFloatSemantics(), true)))
            : TypedAttr(b.getZeroAttr(floatType));
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != axis && type.isDynamicDim(d))
      dynamic.push_back(dimSize(b, loc, x, d));
  Value init =
      filledTensor(b, loc, dropAxis(type.getShape(), axis), dynamic, identity);
  return linalg::ReduceOp::create(
             b, loc, ValueRange{x}, ValueRange{init}, {axis},
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value combined =
                   isMax
                       ? Value(
                             arith::MaximumFOp::create(nb, l, args[0], args[1]))
                       : Value(arith::AddFOp::create(nb, l, args[0], args[1]));
               linalg::YieldOp::create(nb, l, combined);
             })
      .getResult(0);
}

/// A parallel linalg.generic over `type`'s shape reading `full` (of `type`)
/// and `reduced` (each lacking `axis`), computing each element with `body`.
Value mapWithReduced(
    OpBuilder &b, Location loc, RankedTensorType type, ValueRange full,
    ValueRange reduced, int64_t axis,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps(full.size(), b.getMultiDimIdentityMap(rank));
  maps.append(reduced.size(), withoutAxis(rank, axis, context));
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<Value> inputs(full);
  llvm::append_range(inputs, reduced);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value out =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                              dynamicSizes(b, loc, full.front()));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{out}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args.drop_back()));
             })
      .getResult(0);
}

template <typename OpTy, bool kLog>
struct SoftmaxToLinalg : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getX().getType());
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), type.getRank());
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");

    Value x = op.getX();
    Value max = reduceAlong(rewriter, loc, x, *axis, /*isMax=*/true);
    // exp(x - m), the numerator, and its sum along the axis.
    Value exp =
        mapWithReduced(rewriter, loc, type, {x}, {max}, *axis,
                       [](OpBuilder &b, Location l, ValueRange args) -> Value {
                         Value shifted =
                             arith::SubFOp::create(b, l, args[0], args[1]);
                         return math::ExpOp::create(b, l, shifted);
                       });
    Value sum = reduceAlong(rewriter, loc, exp, *axis, /*isMax=*/false);

    Value result;
    if (kLog) {
      result = mapWithReduced(
          rewriter, loc, type, {x}, {max, sum}, *axis,
          [](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value shifted = arith::SubFOp::create(b, l, args[0], args[1]);
            Value logSum = math::LogOp::create(b, l, args[2]);
            return arith::SubFOp::create(b, l, shifted, logSum);
          });
    } else {
      result = mapWithReduced(
          rewriter, loc, type, {exp}, {sum}, *axis,
          [](OpBuilder &b, Location l, ValueRange args) -> Value {
            return arith::DivFOp::create(b, l, args[0], args[1]);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The lowest value of `element`: -inf, or the smallest signed integer.
TypedAttr lowestOf(OpBuilder &b, Type element) {
  if (auto floatType = dyn_cast<FloatType>(element))
    return b.getFloatAttr(
        element, llvm::APFloat::getInf(floatType.getFloatSemantics(), true));
  return b.getIntegerAttr(
      element, llvm::APInt::getSignedMinValue(element.getIntOrFloatBitWidth()));
}

/// Whether the candidate (`value`, `index`) replaces the running maximum
/// (`best`, `bestIndex`): it is greater, or equal with a lower index. NaN is
/// greater than every number and equal to NaN.
Value candidateWins(OpBuilder &b, Location loc, Value value, Value index,
                    Value best, Value bestIndex) {
  Value lowerIndex = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           index, bestIndex);
  if (!isa<FloatType>(value.getType())) {
    Value greater =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, value, best);
    Value equal =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, value, best);
    Value tieWins = arith::AndIOp::create(b, loc, equal, lowerIndex);
    return arith::OrIOp::create(b, loc, greater, tieWins);
  }
  using Pred = arith::CmpFPredicate;
  Value valueNaN = arith::CmpFOp::create(b, loc, Pred::UNO, value, value);
  Value bestNaN = arith::CmpFOp::create(b, loc, Pred::UNO, best, best);
  // Ordered predicates: both false when either side is NaN.
  Value greater = arith::CmpFOp::create(b, loc, Pred::OGT, value, best);
  Value equal = arith::CmpFOp::create(b, loc, Pred::OEQ, value, best);
  Value bothNaN = arith::AndIOp::create(b, loc, valueNaN, bestNaN);
  Value notBestNaN = arith::XOrIOp::create(
      b, loc, bestNaN,
      arith::ConstantOp::create(b, loc, b.getBoolAttr(true)).getResult());
  Value nanOverNumber = arith::AndIOp::create(b, loc, valueNaN, notBestNaN);
  Value same = arith::OrIOp::create(b, loc, equal, bothNaN);
  Value tieWins = arith::AndIOp::create(b, loc, same, lowerIndex);
  Value wins = arith::OrIOp::create(b, loc, greater, nanOverNumber);
  return arith::OrIOp::create(b, loc, wins, tieWins);
}

struct ArgmaxToLinalg : OpRewritePattern<ArgmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ArgmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getX().getType());
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");

    // Accumulators: the lowest value at index 0. If nothing beats it, every
    // element is that lowest value and the first of them is at index 0.
    Type element = type.getElementType();
    SmallVector<int64_t> reducedShape = dropAxis(type.getShape(), *axis);
    // The kept `?` dims' sizes.
    SmallVector<Value> dynamic;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && type.isDynamicDim(d))
        dynamic.push_back(dimSize(rewriter, loc, op.getX(), d));
    Value initValue = filledTensor(rewriter, loc, reducedShape, dynamic,
                                   lowestOf(rewriter, element));
    Value initIndex = filledTensor(rewriter, loc, reducedShape, dynamic,
                                   rewriter.getI64IntegerAttr(0));

    MLIRContext *context = rewriter.getContext();
    AffineMap reducedMap = withoutAxis(rank, *axis, context);
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   reducedMap, reducedMap};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[*axis] = utils::IteratorType::reduction;
    int64_t reduceDim = *axis;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{initValue.getType(), initIndex.getType()},
        ValueRange{op.getX()}, ValueRange{initValue, initIndex}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value value = args[0], best = args[1], bestIndex = args[2];
          Value index = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, reduceDim));
          Value wins = candidateWins(b, l, value, index, best, bestIndex);
          Value newBest = arith::SelectOp::create(b, l, wins, value, best);
          Value newIndex =
              arith::SelectOp::create(b, l, wins, index, bestIndex);
          linalg::YieldOp::create(b, l, ValueRange{newBest, newIndex});
        });
    rewriter.replaceOp(op, generic.getResult(1));
    return success();
  }
};

} // namespace

void mlir::trace::populateSoftmaxToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SoftmaxToLinalg<SoftmaxOp, /*kLog=*/false>,
               SoftmaxToLinalg<LogSoftmaxOp, /*kLog=*/true>, ArgmaxToLinalg>(
      patterns.getContext());
}
