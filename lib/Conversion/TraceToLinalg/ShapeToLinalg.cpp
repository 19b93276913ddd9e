//===- ShapeToLinalg.cpp - Shape trace ops -> tensor / linalg -------------===//
//
// Pure data movement maps onto the tensor dialect where it has the op
// (reshapes, slices, pads, concatenation by insert_slice) and onto the named
// linalg ops otherwise (transpose, broadcast). gather and one_hot are one
// linalg.generic each: gather reads `params` with tensor.extract at the
// clamped index, one_hot compares linalg.index of its new dim with the index.
// scatter_add, which writes at data-dependent places, is an scf.for nest
// over the indices whose body adds one row (a linalg.generic over the
// trailing dims) in place: O(indices x row) work, race-free.
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

/// `value` (an f64 attribute) as an attribute of `element`: rounded to the
/// nearest float, truncated toward zero (saturating, NaN -> 0) for integers,
/// non-zero for i1.
TypedAttr scalarAttr(Builder &b, Type element, llvm::APFloat value) {
  if (auto floatType = dyn_cast<FloatType>(element)) {
    bool losesInfo = false;
    value.convert(floatType.getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return b.getFloatAttr(element, value);
  }
  unsigned width = element.getIntOrFloatBitWidth();
  if (width == 1)
    return b.getBoolAttr(!value.isZero());
  llvm::APSInt result(width, /*isUnsigned=*/false);
  bool isExact = false;
  value.convertToInteger(result, llvm::APFloat::rmTowardZero, &isExact);
  if (value.isNaN())
    result = 0;
  return b.getIntegerAttr(element, result);
}

Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type,
                ValueRange dynamic = {}) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynamic);
}

SmallVector<utils::IteratorType> parallel(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
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
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : to.getShape())
    sizes.push_back(
        ShapedType::isDynamic(size)
            ? divSizes(rewriter, loc, count, rewriter.getIndexAttr(known))
            : rewriter.getIndexAttr(size));
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
    SmallVector<Value> dynamic;
    Value like = op.getLike();
    for (int64_t d = 0; d < to.getRank(); ++d) {
      int64_t source = d - offset;
      bool dynamicSource = source >= 0 && from.isDynamicDim(source);
      if (like && to.isDynamicDim(d)) {
        Value size = dimSize(rewriter, loc, like, d);
        dynamic.push_back(size);
        if (source >= 0 && from.getDimSize(source) != 1)
          checkSameSize(rewriter, loc, op,
                        dimSize(rewriter, loc, op.getX(), source), size,
                        "dim " + Twine(source) + " of the operand and dim " +
                            Twine(d) + " of 'like' differ");
      } else if (to.isDynamicDim(d)) {
        if (!dynamicSource)
          return rewriter.notifyMatchFailure(
              op, "a dynamic result dim whose size the operand does not give");
        dynamic.push_back(dimSize(rewriter, loc, op.getX(), source));
      } else if (dynamicSource) {
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
// concat, slice, pad
//===----------------------------------------------------------------------===//

struct ConcatToTensor : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");

    // The result's sizes: the inputs' sum along the axis; elsewhere a
    // static input size where there is one (the inputs' `?`s are checked
    // against it at run time).
    SmallVector<OpFoldResult> sizes(rank);
    SmallVector<int64_t> from(rank, 0);
    OpFoldResult total = rewriter.getIndexAttr(0);
    for (auto [i, input] : llvm::enumerate(op.getInputs())) {
      SmallVector<OpFoldResult> inputSizes =
          tensor::getMixedSizes(rewriter, loc, input);
      total = addSizes(rewriter, loc, total, inputSizes[*axis]);
      for (int64_t d = 0; d < rank; ++d)
        if (d != *axis && (!sizes[d] || (!getConstantIntValue(sizes[d]) &&
                                         getConstantIntValue(inputSizes[d])))) {
          sizes[d] = inputSizes[d];
          from[d] = i;
        }
    }
    sizes[*axis] = total;
    for (auto [i, input] : llvm::enumerate(op.getInputs()))
      for (int64_t d = 0; d < rank; ++d)
        if (d != *axis && static_cast<int64_t>(i) != from[d] &&
            cast<RankedTensorType>(input.getType()).isDynamicDim(d))
          checkSameSize(
              rewriter, loc, op,
              getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]),
              dimSize(rewriter, loc, input, d),
              "dim " + Twine(d) + " of input " + Twine(from[d]) +
                  " and of input " + Twine(i) + " differ");

    // Each input goes into its own window of the result, one after another
    // along the axis.
    Value result =
        emptyLike(rewriter, loc, type, dynamicOf(rewriter, loc, type, sizes));
    OpFoldResult position = rewriter.getIndexAttr(0);
    for (Value input : op.getInputs()) {
      SmallVector<OpFoldResult> inputSizes =
          tensor::getMixedSizes(rewriter, loc, input);
      if (getConstantIntValue(inputSizes[*axis]) == 0)
        continue;
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*axis] = position;
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, inputSizes, strides);
      position = addSizes(rewriter, loc, position, inputSizes[*axis]);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SliceToTensor : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    MLIRContext *context = rewriter.getContext();
    SmallVector<int64_t> strides(type.getRank(), 1);
    if (std::optional<ArrayRef<int64_t>> given = op.getStrides())
      strides.assign(given->begin(), given->end());
    // The sizes: the static result's, or `like`'s (`?` read at run time).
    SmallVector<OpFoldResult> sizes =
        op.getLike() ? tensor::getMixedSizes(rewriter, loc, op.getLike())
                     : getAsIndexOpFoldResult(context, type.getShape());
    // A `?` operand dim must reach start + size (the verifier checked the
    // static ones).
    for (auto [d, start] : llvm::enumerate(op.getStart())) {
      OpFoldResult size = tensor::getMixedSize(rewriter, loc, op.getX(), d);
      if (std::optional<ArrayRef<int64_t>> limit = op.getLimit()) {
        checkAtLeast(rewriter, loc, op, size, rewriter.getIndexAttr((*limit)[d]),
                     "dim " + Twine(d) +
                         " of the operand is smaller than the slice's limit " +
                         Twine((*limit)[d]));
        continue;
      }
      checkAtLeast(
          rewriter, loc, op, size,
          addSizes(rewriter, loc, rewriter.getIndexAttr(start), sizes[d]),
          "dim " + Twine(d) +
              " of the operand is smaller than start + the size of 'like'");
    }
    rewriter.replaceOp(op, tensor::ExtractSliceOp::create(
                               rewriter, loc, type, op.getX(),
                               getAsIndexOpFoldResult(context, op.getStart()),
                               sizes, getAsIndexOpFoldResult(context, strides)));
    return success();
  }
};

struct PadToTensor : OpRewritePattern<PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PadOp op,
                                PatternRewriter &rewriter) const override {
    // A `?` dim stays `?` in the result; tensor.pad sizes it.
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value padValue = arith::ConstantOp::create(
        rewriter, loc,
        scalarAttr(rewriter, type.getElementType(), op.getValue()));
    MLIRContext *context = rewriter.getContext();
    SmallVector<OpFoldResult> high;
    if (std::optional<ArrayRef<int64_t>> given = op.getHigh()) {
      high = getAsIndexOpFoldResult(context, *given);
    } else {
      // Up to `like`'s sizes: high = like - low - x, at least 0.
      for (auto [d, low] : llvm::enumerate(op.getLow())) {
        OpFoldResult filled = addSizes(
            rewriter, loc, rewriter.getIndexAttr(low),
            tensor::getMixedSize(rewriter, loc, op.getX(), d));
        OpFoldResult target =
            tensor::getMixedSize(rewriter, loc, op.getLike(), d);
        checkAtLeast(rewriter, loc, op, target, filled,
                     "dim " + Twine(d) +
                         " of 'like' is smaller than low + the operand's");
        high.push_back(subSizes(rewriter, loc, target, filled));
      }
    }
    Value padded = tensor::PadOp::create(
        rewriter, loc, RankedTensorType(), op.getX(),
        getAsIndexOpFoldResult(context, op.getLow()), high, padValue);
    rewriter.replaceOp(op, castTo(rewriter, loc, padded, type));
    return success();
  }
};

/// split: consecutive windows of the operand along the axis, each sized
/// like its `like` operand; the pieces must cover the operand and have its
/// other sizes (checked at run time where a size is `?`).
struct SplitToTensor : OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SplitOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getX().getType());
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    SmallVector<OpFoldResult> whole =
        tensor::getMixedSizes(rewriter, loc, op.getX());
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    OpFoldResult position = rewriter.getIndexAttr(0);
    SmallVector<Value> pieces;
    for (auto [k, like] : llvm::enumerate(op.getLike())) {
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, like);
      for (int64_t d = 0; d < rank; ++d)
        if (d != *axis)
          checkSameSize(rewriter, loc, op,
                        getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]),
                        getValueOrCreateConstantIndexOp(rewriter, loc, whole[d]),
                        "dim " + Twine(d) + " of 'like' operand " + Twine(k) +
                            " differs from the operand's");
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*axis] = position;
      pieces.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, cast<RankedTensorType>(op.getResult(k).getType()),
          op.getX(), offsets, sizes, strides));
      position = addSizes(rewriter, loc, position, sizes[*axis]);
    }
    checkSameSize(rewriter, loc, op,
                  getValueOrCreateConstantIndexOp(rewriter, loc, position),
                  getValueOrCreateConstantIndexOp(rewriter, loc, whole[*axis]),
                  "the pieces do not cover dim " + Twine(*axis) +
                      " of the operand");
    rewriter.replaceOp(op, pieces);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// gather, one_hot
//===----------------------------------------------------------------------===//

/// The shape of gather's result (and scatter_add's updates): the sizes of
/// the gathered-from tensor around `axis`, the indices' in it.
SmallVector<OpFoldResult> gatheredSizes(ArrayRef<OpFoldResult> sourceSizes,
                                        ArrayRef<OpFoldResult> indexSizes,
                                        int64_t axis) {
  SmallVector<OpFoldResult> sizes(sourceSizes.take_front(axis));
  llvm::append_range(sizes, indexSizes);
  llvm::append_range(sizes, sourceSizes.drop_front(axis + 1));
  return sizes;
}

/// A `?` axis must hold an element wherever there is an index to clamp
/// into it: a run-time check that `axisSize` is at least 1 where the
/// indices (of sizes `indexSizes`) are not empty. `axisName` names the axis
/// in the message.
void checkAxisHoldsIndices(PatternRewriter &rewriter, Location loc,
                           Operation *op, OpFoldResult axisSize,
                           ArrayRef<OpFoldResult> indexSizes,
                           const Twine &axisName) {
  if (getConstantIntValue(axisSize))
    return;
  OpFoldResult count = rewriter.getIndexAttr(1);
  for (OpFoldResult size : indexSizes)
    count = mulSizes(rewriter, loc, count, size);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value any = arith::MinSIOp::create(
      rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, count), one);
  checkAtLeast(rewriter, loc, op, axisSize, any,
               axisName + " is empty but there are indices");
}

struct GatherToLinalg : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto params = cast<RankedTensorType>(op.getParams().getType());
    auto indices = cast<RankedTensorType>(op.getIndices().getType());
    RankedTensorType type = op.getType();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), params.getRank());
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    if (params.getDimSize(*axis) == 0 && type.hasStaticShape() &&
        type.getNumElements() != 0)
      return rewriter.notifyMatchFailure(
          op, "gathers from an empty axis: no index can be clamped into it");

    // The result's sizes: params' around the axis, the indices' in it.
    SmallVector<OpFoldResult> paramSizes =
        tensor::getMixedSizes(rewriter, loc, op.getParams());
    SmallVector<OpFoldResult> indexSizes =
        tensor::getMixedSizes(rewriter, loc, op.getIndices());
    SmallVector<OpFoldResult> sizes =
        gatheredSizes(paramSizes, indexSizes, *axis);
    OpFoldResult axisSize = paramSizes[*axis];
    checkAxisHoldsIndices(rewriter, loc, op, axisSize, indexSizes,
                          "params dim " + Twine(*axis) + " (the gather axis)");
    // The last index along the axis: a constant in the body where static.
    std::optional<int64_t> staticAxisSize = getConstantIntValue(axisSize);
    Value dynamicLast;
    if (!staticAxisSize)
      dynamicLast = getValueOrCreateConstantIndexOp(
          rewriter, loc,
          subSizes(rewriter, loc, axisSize, rewriter.getIndexAttr(1)));

    // Iteration space: the result's dims, i.e. params.shape[:axis],
    // indices.shape, params.shape[axis+1:]. The indices are read at the
    // middle group.
    int64_t rank = type.getRank();
    int64_t indicesRank = indices.getRank();
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indicesRank; ++d)
      indexExprs.push_back(getAffineDimExpr(*axis + d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, indexExprs, context),
        rewriter.getMultiDimIdentityMap(rank)};
    Value init =
        emptyLike(rewriter, loc, type, dynamicOf(rewriter, loc, type, sizes));
    Value source = op.getParams();
    int64_t paramsRank = params.getRank();
    int64_t gatherAxis = *axis;

    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{op.getIndices()},
            ValueRange{init}, maps, parallel(rank),
            [&](OpBuilder &b, Location l, ValueRange args) {
              // Out-of-range indices are clamped to [0, dim - 1].
              Value index = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                       args[0]);
              Value zero = arith::ConstantIndexOp::create(b, l, 0);
              Value last = staticAxisSize ? arith::ConstantIndexOp::create(
                                                b, l, *staticAxisSize - 1)
                                                .getResult()
                                          : dynamicLast;
              index = arith::MaxSIOp::create(b, l, index, zero);
              index = arith::MinSIOp::create(b, l, index, last);
              SmallVector<Value> position;
              for (int64_t d = 0; d < paramsRank; ++d) {
                if (d < gatherAxis)
                  position.push_back(linalg::IndexOp::create(b, l, d));
                else if (d == gatherAxis)
                  position.push_back(index);
                else
                  position.push_back(
                      linalg::IndexOp::create(b, l, d - 1 + indicesRank));
              }
              Value element = tensor::ExtractOp::create(b, l, source, position);
              linalg::YieldOp::create(b, l, element);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// scatter_add: an scf.for nest over operand dims before the axis and the
/// indices' dims carrying the result (initially the operand); each
/// iteration reads its index, clamps it to [0, N - 1] as gather does, and
/// adds the updates' row (the trailing dims) to the result's row at that
/// index with extract_slice / linalg.generic / insert_slice, which
/// bufferize in place. Without trailing dims the row is one element
/// (tensor.extract / tensor.insert).
struct ScatterAddToLinalg : OpRewritePattern<ScatterAddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterAddOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto operand = cast<RankedTensorType>(op.getOperand().getType());
    auto indices = cast<RankedTensorType>(op.getIndices().getType());
    auto updates = cast<RankedTensorType>(op.getUpdates().getType());
    std::optional<int64_t> maybeAxis =
        normalizeAxis(op.getAxis(), operand.getRank());
    if (!maybeAxis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    int64_t axis = *maybeAxis;
    if (operand.getDimSize(axis) == 0 && updates.hasStaticShape() &&
        updates.getNumElements() != 0)
      return rewriter.notifyMatchFailure(
          op, "scatters into an empty axis: no index can be clamped into it");
    int64_t rank = operand.getRank();
    int64_t indicesRank = indices.getRank();
    int64_t outer = axis + indicesRank; // The loops.
    Type element = operand.getElementType();

    SmallVector<OpFoldResult> operandSizes =
        tensor::getMixedSizes(rewriter, loc, op.getOperand());
    SmallVector<OpFoldResult> indexSizes =
        tensor::getMixedSizes(rewriter, loc, op.getIndices());
    // updates: operand[:axis] + indices + operand[axis+1:], checked at run
    // time where a side is `?`.
    SmallVector<OpFoldResult> expected =
        gatheredSizes(operandSizes, indexSizes, axis);
    for (int64_t d = 0; d < updates.getRank(); ++d) {
      if (!updates.isDynamicDim(d) && getConstantIntValue(expected[d]))
        continue;
      checkSameSize(rewriter, loc, op, dimSize(rewriter, loc, op.getUpdates(), d),
                    getValueOrCreateConstantIndexOp(rewriter, loc, expected[d]),
                    "updates dim " + Twine(d) +
                        " differs from gather's result shape for the operand "
                        "and indices");
    }
    OpFoldResult axisSize = operandSizes[axis];
    checkAxisHoldsIndices(rewriter, loc, op, axisSize, indexSizes,
                          "operand dim " + Twine(axis) + " (the scatter axis)");
    Value last = getValueOrCreateConstantIndexOp(
        rewriter, loc, subSizes(rewriter, loc, axisSize, rewriter.getIndexAttr(1)));

    SmallVector<Value> lbs, ubs, steps;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t d = 0; d < outer; ++d) {
      lbs.push_back(zero);
      steps.push_back(one);
      ubs.push_back(getValueOrCreateConstantIndexOp(
          rewriter, loc, d < axis ? operandSizes[d] : indexSizes[d - axis]));
    }
    // The rows: operand dims after the axis (the row type is the
    // operand's; updates' rows are cast to it).
    ArrayRef<OpFoldResult> rowSizes = ArrayRef(operandSizes).drop_front(axis + 1);
    auto rowType =
        RankedTensorType::get(operand.getShape().drop_front(axis + 1), element);
    auto updateRowType = RankedTensorType::get(
        updates.getShape().drop_front(outer), element);
    SmallVector<OpFoldResult> updateRowSizes(
        ArrayRef(tensor::getMixedSizes(rewriter, loc, op.getUpdates()))
            .drop_front(outer));
    Value source = op.getUpdates();
    Value indexTensor = op.getIndices();
    bool isFloat = isa<FloatType>(element);

    // A splat operand (the zeros of gather's gradient) starts as a
    // linalg.fill the loop updates in place, rather than a constant global
    // that bufferization would have to copy.
    Value init = op.getOperand();
    DenseElementsAttr dense;
    if (operand.hasStaticShape() && matchPattern(init, m_Constant(&dense)) &&
        dense.isSplat())
      init = filledTensor(rewriter, loc, operand.getShape(),
                          dense.getSplatValue<TypedAttr>());

    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{init},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iterArgs) -> scf::ValueVector {
          Value acc = iterArgs[0];
          Value index = tensor::ExtractOp::create(b, l, indexTensor,
                                                  ivs.drop_front(axis));
          index = arith::IndexCastOp::create(b, l, b.getIndexType(), index);
          index = arith::MaxSIOp::create(
              b, l, index, arith::ConstantIndexOp::create(b, l, 0));
          index = arith::MinSIOp::create(b, l, index, last);
          SmallVector<Value> at(ivs.take_front(axis));
          at.push_back(index);
          // (i1: or, the sum saturated as a boolean.)
          auto add = [&](OpBuilder &ob, Location ol, Value lhs,
                         Value rhs) -> Value {
            if (isFloat)
              return arith::AddFOp::create(ob, ol, lhs, rhs);
            if (element.isInteger(1))
              return arith::OrIOp::create(ob, ol, lhs, rhs);
            return arith::AddIOp::create(ob, ol, lhs, rhs);
          };
          if (rowSizes.empty()) {
            Value current = tensor::ExtractOp::create(b, l, acc, at);
            Value update = tensor::ExtractOp::create(b, l, source, ivs);
            return {tensor::InsertOp::create(b, l, add(b, l, current, update),
                                             acc, at)};
          }
          SmallVector<OpFoldResult> offsets(getAsOpFoldResult(at));
          offsets.append(rowSizes.size(), b.getIndexAttr(0));
          SmallVector<OpFoldResult> sizes(axis + 1, b.getIndexAttr(1));
          llvm::append_range(sizes, rowSizes);
          SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
          Value row = tensor::ExtractSliceOp::create(b, l, rowType, acc,
                                                     offsets, sizes, strides);
          SmallVector<OpFoldResult> updateOffsets(getAsOpFoldResult(ivs));
          updateOffsets.append(rowSizes.size(), b.getIndexAttr(0));
          SmallVector<OpFoldResult> updateSizes(outer, b.getIndexAttr(1));
          llvm::append_range(updateSizes, updateRowSizes);
          SmallVector<OpFoldResult> updateStrides(updates.getRank(),
                                                  b.getIndexAttr(1));
          Value update = tensor::ExtractSliceOp::create(
              b, l, updateRowType, source, updateOffsets, updateSizes,
              updateStrides);
          update = castTo(b, l, update, rowType);
          int64_t rowRank = rowType.getRank();
          SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rowRank));
          Value sum =
              linalg::GenericOp::create(
                  b, l, TypeRange{rowType}, ValueRange{update}, ValueRange{row},
                  maps, parallel(rowRank),
                  [&](OpBuilder &nb, Location nl, ValueRange args) {
                    linalg::YieldOp::create(nb, nl,
                                            add(nb, nl, args[1], args[0]));
                  })
                  .getResult(0);
          return {tensor::InsertSliceOp::create(b, l, sum, acc, offsets, sizes,
                                                strides)};
        });
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};

struct OneHotToLinalg : OpRewritePattern<OneHotOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(OneHotOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    if (type.isDynamicDim(*axis))
      return rewriter.notifyMatchFailure(op, "the depth is dynamic");
    SmallVector<Value> dynamic;
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        dynamic.push_back(
            dimSize(rewriter, loc, op.getIndices(), d < *axis ? d : d - 1));

    // The indices are read at every result dim but the new one.
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis)
        indexExprs.push_back(getAffineDimExpr(d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, indexExprs, context),
        rewriter.getMultiDimIdentityMap(rank)};
    Type element = type.getElementType();
    Value on = arith::ConstantOp::create(
        rewriter, loc, scalarAttr(rewriter, element, op.getOnValue()));
    Value off = arith::ConstantOp::create(
        rewriter, loc, scalarAttr(rewriter, element, op.getOffValue()));
    Value init = emptyLike(rewriter, loc, type, dynamic);
    int64_t hotDim = *axis;

    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{op.getIndices()},
            ValueRange{init}, maps, parallel(rank),
            [&](OpBuilder &b, Location l, ValueRange args) {
              // The index, sign-extended, is compared with the position
              // along the new dim: an out-of-range one (negative or >= depth)
              // matches none, giving all off_value.
              Value position = linalg::IndexOp::create(b, l, hotDim);
              Value index = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                       args[0]);
              Value hot = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                position, index);
              Value element = arith::SelectOp::create(b, l, hot, on, off);
              linalg::YieldOp::create(b, l, element);
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
               ConcatToTensor, SliceToTensor, PadToTensor, SplitToTensor,
               GatherToLinalg, ScatterAddToLinalg,
               OneHotToLinalg, SizeToTensor>(patterns.getContext());
}
