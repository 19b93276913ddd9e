//===- ReductionToLinalg.cpp - reduce_* -> linalg.reduce ------------------===//
//
// A reduction becomes linalg.reduce over its axes into an accumulator filled
// with the combiner's identity; mean divides the sum by the element count;
// keepdims re-inserts the reduced dims with tensor.expand_shape.
// logsumexp is rewritten into the other reductions.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceTraits.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// How a reduction combines its elements: upstream's kinds, which give the
/// identity (arith::getIdentityValueAttr: 0, 1, or the lowest/highest value
/// of the type, -inf/+inf for floats) and the combining op
/// (arith::getReductionOp).
struct Combiner {
  arith::AtomicRMWKind onFloats, onIntegers;
  arith::AtomicRMWKind of(Type element) const {
    return isa<FloatType>(element) ? onFloats : onIntegers;
  }
};
constexpr Combiner kSum{arith::AtomicRMWKind::addf, arith::AtomicRMWKind::addi};
constexpr Combiner kProd{arith::AtomicRMWKind::mulf,
                         arith::AtomicRMWKind::muli};
// NaN wins, as in NumPy: maximumf/minimumf, not maxnumf/minnumf.
constexpr Combiner kMax{arith::AtomicRMWKind::maximumf,
                        arith::AtomicRMWKind::maxs};
constexpr Combiner kMin{arith::AtomicRMWKind::minimumf,
                        arith::AtomicRMWKind::mins};

/// Groups of source dims that expand into the keepdims result: each kept dim
/// with the reduced (size-1) dims before it; trailing reduced dims join the
/// last group. A full reduction (rank-0 source) has no groups.
SmallVector<ReassociationIndices> keepdimsGroups(int64_t rank,
                                                 ArrayRef<int64_t> axes) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t d = 0; d < rank; ++d) {
    pending.push_back(d);
    if (!llvm::is_contained(axes, d)) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!pending.empty() && !groups.empty())
    llvm::append_range(groups.back(), pending);
  return groups;
}

template <typename OpTy, const Combiner &kCombiner, bool kMean = false>
struct ReductionToLinalg : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getX().getType());
    int64_t rank = input.getRank();
    SmallVector<int64_t> axes;
    for (int64_t axis : op.getAxes())
      axes.push_back(*normalizeAxis(axis, rank));
    llvm::sort(axes);
    if (axes.empty() && op.getX().getType() == op.getType()) {
      rewriter.replaceOp(op, op.getX()); // Nothing to reduce.
      return success();
    }

    // The kept dims' dynamic sizes; the element count (an index value
    // where a reduced dim is dynamic).
    SmallVector<int64_t> reducedShape;
    SmallVector<Value> dynamic;
    int64_t count = 1;
    Value dynamicCount;
    for (int64_t d = 0; d < rank; ++d) {
      if (!llvm::is_contained(axes, d)) {
        reducedShape.push_back(input.getDimSize(d));
        if (input.isDynamicDim(d))
          dynamic.push_back(dimSize(rewriter, loc, op.getX(), d));
      } else if (!input.isDynamicDim(d)) {
        count *= input.getDimSize(d);
      } else {
        Value size = dimSize(rewriter, loc, op.getX(), d);
        dynamicCount = dynamicCount ? arith::MulIOp::create(rewriter, loc,
                                                            dynamicCount, size)
                                    : size;
      }
    }
    Type element = input.getElementType();
    auto reducedType = RankedTensorType::get(reducedShape, element);

    arith::AtomicRMWKind kind = kCombiner.of(element);
    Value init = filledTensor(
        rewriter, loc, reducedShape, dynamic,
        arith::getIdentityValueAttr(kind, element, rewriter, loc));
    Value result =
        linalg::ReduceOp::create(
            rewriter, loc, ValueRange{op.getX()}, ValueRange{init}, axes,
            [&](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  b, l, arith::getReductionOp(kind, b, l, args[0], args[1]));
            })
            .getResult(0);

    if (kMean) {
      Value divisor = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(element, count));
      if (dynamicCount) {
        Value total = arith::MulIOp::create(
            rewriter, loc, dynamicCount,
            arith::ConstantIndexOp::create(rewriter, loc, count));
        Value wide = arith::IndexCastOp::create(rewriter, loc,
                                                rewriter.getI64Type(), total);
        divisor = arith::SIToFPOp::create(rewriter, loc, element, wide);
      }
      SmallVector<AffineMap> maps(
          2, rewriter.getMultiDimIdentityMap(reducedType.getRank()));
      SmallVector<utils::IteratorType> iterators(reducedType.getRank(),
                                                 utils::IteratorType::parallel);
      Value out = tensor::EmptyOp::create(rewriter, loc, reducedShape, element,
                                          dynamic);
      result = linalg::GenericOp::create(
                   rewriter, loc, TypeRange{reducedType}, ValueRange{result},
                   ValueRange{out}, maps, iterators,
                   [&](OpBuilder &b, Location l, ValueRange args) {
                     Value mean = arith::DivFOp::create(b, l, args[0], divisor);
                     linalg::YieldOp::create(b, l, mean);
                   })
                   .getResult(0);
    }

    if (op.getKeepdims())
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, op.getType(), result, keepdimsGroups(rank, axes));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// reduce_logsumexp -> m + log(reduce_sum(exp(x - m))), m the keepdims
/// maximum (0 where infinite, so that -inf/+inf elements give -inf/+inf
/// rather than NaN). The trace ops it makes are lowered in turn.
struct LogSumExpToReductions : OpRewritePattern<ReduceLogSumExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceLogSumExpOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX();
    auto element = cast<RankedTensorType>(x.getType()).getElementType();
    auto scalar = [&](double value) -> Value {
      auto type = RankedTensorType::get({}, element);
      return ConstantOp::create(rewriter, loc,
                                DenseElementsAttr::get(
                                    type, rewriter.getFloatAttr(element, value)));
    };
    // Over an empty dim the sum is 0 and the result -inf: no maximum to
    // take (reduce_max of nothing is an error).
    auto type = cast<RankedTensorType>(x.getType());
    if (llvm::any_of(OpTrait::trace::reducedDims(op),
                     [&](int64_t dim) { return type.getDimSize(dim) == 0; })) {
      Value sum =
          ReduceSumOp::create(rewriter, loc, ExpOp::create(rewriter, loc, x),
                              op.getAxes(), op.getKeepdims());
      rewriter.replaceOpWithNewOp<LogOp>(op, sum);
      return success();
    }
    Value max = ReduceMaxOp::create(rewriter, loc, x, op.getAxes(),
                                    /*keepdims=*/true);
    Value infinite = EqOp::create(rewriter, loc, AbsOp::create(rewriter, loc, max),
                                  scalar(INFINITY));
    Value shift = SelectOp::create(rewriter, loc, infinite, scalar(0), max);
    Value sum = ReduceSumOp::create(
        rewriter, loc,
        ExpOp::create(rewriter, loc, SubOp::create(rewriter, loc, x, shift)),
        op.getAxes(), op.getKeepdims());
    if (!op.getKeepdims())
      shift = ReshapeOp::create(rewriter, loc, op.getType(), shift);
    rewriter.replaceOpWithNewOp<AddOp>(op, LogOp::create(rewriter, loc, sum),
                                       shift);
    return success();
  }
};

} // namespace

void mlir::trace::populateReductionToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReductionToLinalg<ReduceSumOp, kSum>,
               ReductionToLinalg<ReduceMeanOp, kSum, /*kMean=*/true>,
               ReductionToLinalg<ReduceMaxOp, kMax>,
               ReductionToLinalg<ReduceMinOp, kMin>,
               ReductionToLinalg<ReduceProdOp, kProd>, LogSumExpToReductions>(
      patterns.getContext());
}
