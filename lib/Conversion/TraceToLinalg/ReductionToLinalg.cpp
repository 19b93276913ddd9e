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

/// linalg.reduce of `x` over `axes` with `kind`, into a tensor of
/// `accumulator` elements (`x`'s, or wider) filled with its identity.
Value reduce(OpBuilder &builder, Location loc, Value x, ArrayRef<int64_t> axes,
             arith::AtomicRMWKind kind, Type accumulator) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(axes, d))
      continue;
    shape.push_back(type.getDimSize(d));
    if (type.isDynamicDim(d))
      dynamic.push_back(dimSize(builder, loc, x, d));
  }
  Value init = filledTensor(
      builder, loc, shape, dynamic,
      arith::getIdentityValueAttr(kind, accumulator, builder, loc));
  return linalg::ReduceOp::create(
             builder, loc, ValueRange{x}, ValueRange{init}, axes,
             [&](OpBuilder &b, Location l, ValueRange args) {
               Value element = args[0];
               if (element.getType() != accumulator)
                 element = arith::ExtFOp::create(b, l, accumulator, element);
               linalg::YieldOp::create(
                   b, l, arith::getReductionOp(kind, b, l, element, args[1]));
             })
      .getResult(0);
}

/// The longest run of elements a cascaded sum adds in its element type.
constexpr int64_t kCascadeBlock = 64;

/// A divisor of `size` in [8, kCascadeBlock], the largest, or 0.
int64_t cascadeFactor(int64_t size) {
  for (int64_t factor = kCascadeBlock; factor >= 8; --factor)
    if (size % factor == 0)
      return factor;
  return 0;
}

/// A sum of floats narrower than f64 over outer axes (the innermost dim
/// kept), in two links: blocks of at most kCascadeBlock elements along the
/// innermost reduced axis, summed in the element type while the input is
/// read in memory order; then the block sums, summed in f64 and rounded
/// once. Summing every reduced element into one f32 accumulator had up to
/// 90x PyTorch's error (the 64x32x32 rows of a 64x32x32x16 tensor: 7.3e-6
/// against 8.3e-8); in two links it has 5.3e-8, in the same time (the
/// second link reads a tensor 8x or more smaller; all of the input where
/// the innermost reduced axis is `?` or has no divisor in
/// [8, kCascadeBlock]). An innermost-axis sum keeps one link: the
/// vectorizer already splits it over the lanes of a vector.
Value cascadedReduce(OpBuilder &builder, Location loc, Value x,
                     ArrayRef<int64_t> axes, arith::AtomicRMWKind kind) {
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();
  int64_t inner = axes.back();
  int64_t size = type.getDimSize(inner);
  int64_t block = ShapedType::isDynamic(size) ? 0
                  : size <= kCascadeBlock     ? size
                                              : cascadeFactor(size);
  Value current = x;
  SmallVector<int64_t> rest(axes);
  if (block == size) {
    current = reduce(builder, loc, current, {inner}, kind, element);
    rest.pop_back();
  } else if (block) {
    // (.., size, ..) -> (.., size / block, block, ..).
    SmallVector<int64_t> shape(type.getShape());
    shape[inner] = size / block;
    shape.insert(shape.begin() + inner + 1, block);
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < type.getRank(); ++d)
      groups.push_back(d < inner    ? ReassociationIndices{d}
                       : d == inner ? ReassociationIndices{d, d + 1}
                                    : ReassociationIndices{d + 1});
    current = tensor::ExpandShapeOp::create(
        builder, loc, RankedTensorType::get(shape, element), current, groups);
    current = reduce(builder, loc, current, {inner + 1}, kind, element);
  }
  auto wide = Float64Type::get(builder.getContext());
  if (!rest.empty())
    current = reduce(builder, loc, current, rest, kind, wide);
  if (cast<RankedTensorType>(current.getType()).getElementType() == element)
    return current;
  // Round once.
  return roundTo(builder, loc, current, element);
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
    bool cascade = kind == arith::AtomicRMWKind::addf && !axes.empty() &&
                   element.getIntOrFloatBitWidth() < 64 &&
                   !llvm::is_contained(axes, rank - 1) &&
                   (dynamicCount || count > kCascadeBlock);
    Value result = cascade
                       ? cascadedReduce(rewriter, loc, op.getX(), axes, kind)
                       : reduce(rewriter, loc, op.getX(), axes, kind, element);

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
      return ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(type, rewriter.getFloatAttr(element, value)));
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
    Value infinite = EqOp::create(
        rewriter, loc, AbsOp::create(rewriter, loc, max), scalar(INFINITY));
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
