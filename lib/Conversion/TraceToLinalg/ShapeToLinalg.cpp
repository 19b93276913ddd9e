//===- ShapeToLinalg.cpp - reshape, transpose, broadcast_to, size ---------===//
//
// Pure data movement: reshapes onto the tensor dialect's, transpose and
// broadcast_to onto the named linalg ops; size reads the dims. (concat,
// slice, pad and split: ConcatSliceToTensor.cpp; gather, scatter_add and
// one_hot: IndexingToLinalg.cpp.)
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "DynamicSizes.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

bool allStatic(Operation *op) {
  auto isStatic = [](Type type) {
    return cast<RankedTensorType>(type).hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

/// One group holding every dim of a rank-`rank` tensor (none for rank 0).
SmallVector<ReassociationIndices> allInOneGroup(int64_t rank) {
  if (rank == 0)
    return {};
  ReassociationIndices group;
  for (int64_t d = 0; d < rank; ++d)
    group.push_back(d);
  return {group};
}

/// A reshape with `?` dims that is no collapse or expand: the operand
/// collapsed to its flat (row-major) vector of elements, expanded to the
/// result. The result's `?` (at most one, the verifier says) is the element
/// count over the product of its static dims, which must divide it (a
/// run-time check).
Value reshapeThroughFlat(PatternRewriter &rewriter, ReshapeOp op) {
  Location loc = op.getLoc();
  Value x = op.getX();
  auto from = cast<RankedTensorType>(x.getType());
  RankedTensorType to = op.getType();
  OpFoldResult count = rewriter.getIndexAttr(1);
  for (OpFoldResult size : tensor::getMixedSizes(rewriter, loc, x))
    count = mulSizes(rewriter, loc, count, size);
  int64_t known = 1;
  for (int64_t size : to.getShape())
    if (!ShapedType::isDynamic(size))
      known *= size;
  // The op's rule: the `?` is the count over `known` (which must divide it).
  SmallVector<OpFoldResult> sizes = *reifiedSizes(rewriter, op);
  OpFoldResult product = rewriter.getIndexAttr(1);
  for (OpFoldResult size : sizes)
    product = mulSizes(rewriter, loc, product, size);
  checkSameSize(rewriter, loc, op,
                getValueOrCreateConstantIndexOp(rewriter, loc, count),
                getValueOrCreateConstantIndexOp(rewriter, loc, product),
                "the operand's element count is not the result's (a "
                "multiple of " +
                    Twine(known) + ")");

  auto flatType =
      RankedTensorType::get(staticShape({count}), from.getElementType());
  Value flat = x;
  if (from.getRank() != 1)
    flat = from.getRank() == 0
               ? tensor::ExpandShapeOp::create(rewriter, loc, flatType, x,
                                               allInOneGroup(0))
                     .getResult()
               : tensor::CollapseShapeOp::create(rewriter, loc, flatType, x,
                                                 allInOneGroup(from.getRank()))
                     .getResult();
  // A static result takes a static flat vector (checked above).
  if (std::optional<int64_t> total = getConstantIntValue(product))
    flat = castTo(rewriter, loc, flat,
                  RankedTensorType::get({*total}, from.getElementType()));
  if (to.getRank() == 1)
    return castTo(rewriter, loc, flat, to);
  if (to.getRank() == 0) {
    // One element (checked above).
    return tensor::CollapseShapeOp::create(rewriter, loc, to, flat,
                                           allInOneGroup(0));
  }
  auto expandedType =
      RankedTensorType::get(staticShape(sizes), from.getElementType());
  Value expanded = tensor::ExpandShapeOp::create(
      rewriter, loc, expandedType, flat, allInOneGroup(to.getRank()), sizes);
  return castTo(rewriter, loc, expanded, to);
}

/// A reshape to `like`'s run-time shape: a linalg.generic copy that reads
/// each result element at its row-major position in the operand
/// (tensor.extract), the element counts checked to agree. (Several `?` in
/// one reassociation group, which an expand_shape would need here, are not
/// handled by expand-strided-metadata, nor memref.reshape with a dynamic
/// shape by the LLVM lowering.)
Value reshapeLike(PatternRewriter &rewriter, ReshapeOp op) {
  Location loc = op.getLoc();
  Value x = op.getX();
  auto from = cast<RankedTensorType>(x.getType());
  RankedTensorType to = op.getType();
  Value like = op.getLike();
  SmallVector<Value> fromSizes, toSizes, dynamic;
  for (int64_t d = 0; d < from.getRank(); ++d)
    fromSizes.push_back(dimSize(rewriter, loc, x, d));
  for (int64_t d = 0; d < to.getRank(); ++d) {
    toSizes.push_back(dimSize(rewriter, loc, like, d));
    if (to.isDynamicDim(d))
      dynamic.push_back(toSizes.back());
  }
  auto product = [&](ArrayRef<Value> sizes) {
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (Value size : sizes)
      count = arith::MulIOp::create(rewriter, loc, count, size);
    return count;
  };
  checkSameSize(rewriter, loc, op, product(fromSizes), product(toSizes),
                "the operand's element count and that of 'like' differ");
  Value init = emptyLike(rewriter, loc, to, dynamic);
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(to.getRank())};
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{to}, ValueRange{}, ValueRange{init}, maps,
             parallel(to.getRank()),
             [&](OpBuilder &b, Location l, ValueRange) {
               // The row-major position in the result, then the operand's
               // indices of that position.
               Value flat = arith::ConstantIndexOp::create(b, l, 0);
               for (int64_t d = 0; d < to.getRank(); ++d)
                 flat = arith::AddIOp::create(
                     b, l, arith::MulIOp::create(b, l, flat, toSizes[d]),
                     linalg::IndexOp::create(b, l, d));
               SmallVector<Value> indices(from.getRank());
               for (int64_t d = from.getRank() - 1; d >= 0; --d) {
                 indices[d] = arith::RemUIOp::create(b, l, flat, fromSizes[d]);
                 flat = arith::DivUIOp::create(b, l, flat, fromSizes[d]);
               }
               linalg::YieldOp::create(
                   b, l,
                   tensor::ExtractOp::create(b, l, x, indices).getResult());
             })
      .getResult(0);
}

struct ReshapeToTensor : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto from = cast<RankedTensorType>(op.getX().getType());
    RankedTensorType to = op.getType();
    if (from == to) {
      rewriter.replaceOp(op, op.getX());
      return success();
    }
    if (op.getLike() && !to.hasStaticShape()) {
      rewriter.replaceOp(op, reshapeLike(rewriter, op));
      return success();
    }
    if (!allStatic(op)) {
      // With dynamic dims: a collapse or expand of contiguous groups, each
      // with at most one dynamic dim (its size is the other side's).
      if (from.getRank() > to.getRank())
        if (auto groups = getReassociationIndicesForCollapse(from.getShape(),
                                                             to.getShape())) {
          rewriter.replaceOp(op, tensor::CollapseShapeOp::create(
                                     rewriter, loc, to, op.getX(), *groups));
          return success();
        }
      if (from.getRank() < to.getRank())
        if (auto groups = getReassociationIndicesForCollapse(to.getShape(),
                                                             from.getShape())) {
          rewriter.replaceOp(op, tensor::ExpandShapeOp::create(
                                     rewriter, loc, to, op.getX(), *groups));
          return success();
        }
      // Several `?` (only unit dims differ, the verifier says) need `like`.
      if (to.getNumDynamicDims() > 1)
        return rewriter.notifyMatchFailure(op, "several ? dims without like");
      rewriter.replaceOp(op, reshapeThroughFlat(rewriter, op));
      return success();
    }
    if (to.getNumElements() == 0) {
      // Nothing to move; reshapes through a zero-sized dim are ambiguous.
      rewriter.replaceOp(op, emptyLike(rewriter, loc, to));
      return success();
    }
    // A pure collapse (or expand) of contiguous groups of dims.
    if (from.getRank() > to.getRank()) {
      if (auto groups = getReassociationIndicesForCollapse(from.getShape(),
                                                           to.getShape())) {
        rewriter.replaceOp(op, tensor::CollapseShapeOp::create(
                                   rewriter, loc, to, op.getX(), *groups));
        return success();
      }
    } else if (from.getRank() < to.getRank()) {
      if (auto groups = getReassociationIndicesForCollapse(to.getShape(),
                                                           from.getShape())) {
        rewriter.replaceOp(op, tensor::ExpandShapeOp::create(
                                   rewriter, loc, to, op.getX(), *groups));
        return success();
      }
    }
    // Otherwise through the flat (row-major) vector of elements.
    auto flatType = RankedTensorType::get({from.getNumElements()},
                                          from.getElementType());
    Value flat = op.getX();
    if (from.getRank() > 1)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flatType, flat,
                                             allInOneGroup(from.getRank()));
    else if (from.getRank() == 0)
      flat = tensor::ExpandShapeOp::create(rewriter, loc, flatType, flat,
                                           allInOneGroup(0));
    Value result = flat;
    if (to.getRank() > 1)
      result = tensor::ExpandShapeOp::create(rewriter, loc, to, flat,
                                             allInOneGroup(to.getRank()));
    else if (to.getRank() == 0)
      result = tensor::CollapseShapeOp::create(rewriter, loc, to, flat,
                                               allInOneGroup(0));
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// transpose, broadcast_to
//===----------------------------------------------------------------------===//

struct TransposeToLinalg : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    SmallVector<Value> dynamic;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamic.push_back(dimSize(rewriter, loc, op.getX(), op.getPerm()[d]));
    Value init = emptyLike(rewriter, loc, type, dynamic);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc, op.getX(),
                                                       init, op.getPerm())
                               .getResult());
    return success();
  }
};

struct BroadcastToToLinalg : OpRewritePattern<BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastToOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto from = cast<RankedTensorType>(op.getX().getType());
    RankedTensorType to = op.getType();
    if (from == to) {
      rewriter.replaceOp(op, op.getX());
      return success();
    }
    // Operand dims align with the trailing result dims.
    // A dynamic result dim takes its size from `like` when given, else from
    // a dynamic operand dim (a `?` never grows); a `?` operand dim read
    // along a static one is checked, and so is a non-1 operand dim against
    // a `like` dim.
    int64_t offset = to.getRank() - from.getRank();
    bool expandsUnitDims = false;
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return failure();
    SmallVector<Value> dynamic = dynamicOf(rewriter, loc, to, *sizes);
    Value like = op.getLike();
    for (int64_t d = 0; d < to.getRank(); ++d) {
      int64_t source = d - offset;
      bool dynamicSource = source >= 0 && from.isDynamicDim(source);
      if (like && to.isDynamicDim(d)) {
        if (source >= 0 && from.getDimSize(source) != 1)
          checkSameSize(rewriter, loc, op,
                        dimSize(rewriter, loc, op.getX(), source),
                        getValueOrCreateConstantIndexOp(rewriter, loc,
                                                        (*sizes)[d]),
                        "dim " + Twine(source) + " of the operand and dim " +
                            Twine(d) + " of 'like' differ");
      } else if (!to.isDynamicDim(d) && dynamicSource) {
        checkSameSize(
            rewriter, loc, op, dimSize(rewriter, loc, op.getX(), source),
            arith::ConstantIndexOp::create(rewriter, loc, to.getDimSize(d)),
            "dim " + Twine(source) + " of the operand and dim " + Twine(d) +
                " of the result differ");
      }
      if (source >= 0 && !dynamicSource)
        expandsUnitDims |= from.getDimSize(source) != to.getDimSize(d);
    }
    Value init = emptyLike(rewriter, loc, to, dynamic);

    if (!expandsUnitDims) {
      // Only new leading dims: what linalg.broadcast does.
      SmallVector<int64_t> added;
      for (int64_t d = 0; d < offset; ++d)
        added.push_back(d);
      rewriter.replaceOp(op, linalg::BroadcastOp::create(rewriter, loc,
                                                         op.getX(), init, added)
                                 .getResult());
      return success();
    }

    // Size-1 dims that grow are read at index 0 (the others were checked to
    // match).
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < from.getRank(); ++d)
      exprs.push_back(from.getDimSize(d) == 1 && to.getDimSize(d + offset) != 1
                          ? getAffineConstantExpr(0, context)
                          : getAffineDimExpr(d + offset, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(to.getRank(), 0, exprs, context),
        rewriter.getMultiDimIdentityMap(to.getRank())};
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{to}, ValueRange{op.getX()},
            ValueRange{init}, maps, parallel(to.getRank()),
            [](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(b, l, args[0]);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// size
//===----------------------------------------------------------------------===//

/// The product of the dims (tensor.dim where `?`) as a rank-0 tensor.
struct SizeToTensor : OpRewritePattern<SizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getX().getType();
    SmallVector<int64_t> dims;
    if (std::optional<ArrayRef<int64_t>> axes = op.getAxes()) {
      for (int64_t axis : *axes)
        dims.push_back(*normalizeAxis(axis, type.getRank()));
    } else {
      for (int64_t d = 0; d < type.getRank(); ++d)
        dims.push_back(d);
    }
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t d : dims)
      count = arith::MulIOp::create(rewriter, loc, count,
                                    dimSize(rewriter, loc, op.getX(), d));
    Type element = op.getType().getElementType();
    Value scalar =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), count);
    if (isa<FloatType>(element))
      scalar = arith::SIToFPOp::create(rewriter, loc, element, scalar);
    else if (element != scalar.getType())
      scalar = arith::TruncIOp::create(rewriter, loc, element, scalar);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(),
                                                        scalar);
    return success();
  }
};

} // namespace

void mlir::trace::populateShapeToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ReshapeToTensor, TransposeToLinalg, BroadcastToToLinalg,
               SizeToTensor>(patterns.getContext());
}
