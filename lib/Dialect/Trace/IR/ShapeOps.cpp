//===- ShapeOps.cpp - reshape, transpose, broadcast_to, size --------------===//

#include "ConstantFolding.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

static bool isIdentityPermutation(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

void ReshapeOp::build(OpBuilder &builder, OperationState &state, Value x,
                      ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> resolved(shape);
  // One -1 takes whatever the element count leaves (NumPy's reshape).
  auto inferred = llvm::find(resolved, -1);
  if (inferred != resolved.end() && type.hasStaticShape()) {
    int64_t known = 1;
    for (int64_t dim : resolved)
      if (dim != -1)
        known *= dim;
    *inferred = known ? type.getNumElements() / known : 0;
  }
  for (int64_t &dim : resolved)
    if (dim == -1)
      dim = ShapedType::kDynamic;
  build(builder, state, type.clone(resolved), x, Value());
}

void ReshapeOp::build(OpBuilder &builder, OperationState &state, Value x,
                      Value like) {
  auto type = cast<RankedTensorType>(x.getType());
  auto shape = cast<RankedTensorType>(like.getType()).getShape();
  build(builder, state, type.clone(shape), x, like);
}

LogicalResult ReshapeOp::verify() {
  auto from = cast<RankedTensorType>(getX().getType());
  RankedTensorType to = getType();
  if (from.getElementType() != to.getElementType())
    return emitOpError("element type must be preserved: operand ")
           << from.getElementType() << " vs result " << to.getElementType();
  if (Value like = getLike()) {
    // The shape is like's; only a static mismatch can be caught here.
    auto likeType = cast<RankedTensorType>(like.getType());
    if (likeType.getShape() != to.getShape())
      return emitOpError("result shape ")
             << formatShape(to.getShape()) << " must be the shape of 'like' "
             << formatShape(likeType.getShape());
    if (from.hasStaticShape() && to.hasStaticShape() &&
        from.getNumElements() != to.getNumElements())
      return emitOpError("element count differs: operand ")
             << formatShape(from.getShape()) << " (" << from.getNumElements()
             << ") vs result " << formatShape(to.getShape()) << " ("
             << to.getNumElements() << ")";
    return success();
  }
  if (from.hasStaticShape() && to.hasStaticShape() &&
      from.getNumElements() != to.getNumElements())
    return emitOpError("element count differs: operand ")
           << formatShape(from.getShape()) << " (" << from.getNumElements()
           << ") vs result " << formatShape(to.getShape()) << " ("
           << to.getNumElements() << ")";
  // With one side static, the other side's static dims must divide its
  // element count (the dynamic dims make up the rest).
  auto staticProduct = [](RankedTensorType type) {
    int64_t product = 1;
    for (int64_t dim : type.getShape())
      if (!ShapedType::isDynamic(dim))
        product *= dim;
    return product;
  };
  auto checkDivides = [&](RankedTensorType known, RankedTensorType partial,
                          StringRef knownName,
                          StringRef partialName) -> LogicalResult {
    if (!known.hasStaticShape() || partial.hasStaticShape())
      return success();
    int64_t count = known.getNumElements();
    int64_t product = staticProduct(partial);
    if (product == 0 ? count == 0 : count % product == 0)
      return success();
    if (product == 0)
      return emitOpError("element count differs: ")
             << knownName << " " << formatShape(known.getShape()) << " has "
             << count << " elements but " << partialName << " "
             << formatShape(partial.getShape()) << " has none";
    return emitOpError("element count differs: ")
           << knownName << " " << formatShape(known.getShape()) << " has "
           << count << " elements, not a multiple of " << product
           << " (the product of the static dims of " << partialName << " "
           << formatShape(partial.getShape()) << ")";
  };
  if (failed(checkDivides(from, to, "operand", "result")) ||
      failed(checkDivides(to, from, "result", "operand")))
    return failure();
  // A dynamic result dim is NumPy's -1: inferred at run time from the
  // element count, so there is at most one, and the other dims must not
  // multiply to 0 (0 elements say nothing about it).
  int64_t dynamicDims = to.getNumDynamicDims();
  if (dynamicDims > 1 && !onlyUnitDimsDiffer(from.getShape(), to.getShape()))
    return emitOpError("result ")
           << formatShape(to.getShape()) << " has " << dynamicDims
           << " dynamic dims, but only one can be inferred from the element "
              "count (unless the reshape only inserts or removes unit dims; "
              "else give the shape with 'like')";
  if (dynamicDims == 1 && staticProduct(to) == 0)
    return emitOpError("result ")
           << formatShape(to.getShape())
           << " has a dynamic dim that cannot be inferred: its other dims "
              "hold no elements";
  return success();
}

LogicalResult ReshapeOp::reifyResultShapes(OpBuilder &b,
                                           ReifiedRankedShapedTypeDims &shapes) {
  if (Value like = getLike())
    return reifySameShapeResult(b, *this, shapes, like);
  Location loc = getLoc();
  RankedTensorType to = getType();
  SmallVector<OpFoldResult> from = tensor::getMixedSizes(b, loc, getX());
  SmallVector<OpFoldResult> sizes;
  if (to.getNumDynamicDims() <= 1) {
    // The `?` is NumPy's -1: the element count over the other dims'.
    OpFoldResult count = b.getIndexAttr(1);
    for (OpFoldResult size : from)
      count = mulSizes(b, loc, count, size);
    int64_t known = 1;
    for (int64_t size : to.getShape())
      if (!ShapedType::isDynamic(size))
        known *= size;
    for (int64_t size : to.getShape())
      sizes.push_back(ShapedType::isDynamic(size)
                          ? divSizes(b, loc, count, b.getIndexAttr(known))
                          : b.getIndexAttr(size));
    return reifiedAs(b, getResult(), sizes, shapes);
  }
  // Only unit dims differ (the verifier says): the result's other dims are
  // the operand's other dims, in order.
  auto operandShape = cast<RankedTensorType>(getX().getType()).getShape();
  size_t next = 0;
  for (int64_t size : to.getShape()) {
    if (size == 1) {
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    while (next < from.size() && operandShape[next] == 1)
      ++next;
    if (next == from.size())
      return failure();
    sizes.push_back(from[next++]);
  }
  return reifiedAs(b, getResult(), sizes, shapes);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  return {};
}

namespace {
/// reshape(reshape(x)) -> reshape(x): only the final shape matters.
struct FoldReshapeOfReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getX().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    // Without `like`, several `?` result dims need a unit-dim reshape, which
    // the composition may not be.
    RankedTensorType type = op.getType();
    if (!op.getLike() && type.getNumDynamicDims() > 1 &&
        !onlyUnitDimsDiffer(inner.getX().getType().getShape(), type.getShape()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getXMutable().assign(inner.getX()); });
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<FoldReshapeOfReshape>(context);
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto x = dyn_cast<RankedTensorType>(adaptor.getX().getType());
  if (!x)
    return emitOptionalError(loc, "'trace.transpose' op operand must be a ranked tensor");
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (static_cast<int64_t>(perm.size()) != x.getRank())
    return emitOptionalError(loc, "'trace.transpose' op perm has ", perm.size(),
                             " entries but the operand has rank ", x.getRank());
  llvm::SmallBitVector seen(perm.size());
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= x.getRank() || seen.test(p))
      return emitOptionalError(loc, "'trace.transpose' op perm ", formatList(perm),
                               " is not a permutation of 0..", x.getRank() - 1);
    seen.set(p);
    shape.push_back(x.getDimSize(p));
  }
  types.push_back(x.clone(shape));
  return success();
}

LogicalResult
TransposeOp::reifyResultShapes(OpBuilder &b,
                               ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> in = tensor::getMixedSizes(b, getLoc(), getX());
  SmallVector<OpFoldResult> sizes;
  for (int64_t p : getPerm())
    sizes.push_back(in[p]);
  return reifiedAs(b, getResult(), sizes, shapes);
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (isIdentityPermutation(getPerm()))
    return getX();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX());
  if (!dense || !getType().hasStaticShape())
    return {};
  if (dense.isSplat())
    return dense.resizeSplat(getType());
  if (getType().getNumElements() > kMaxFoldedElements)
    return {};
  // Result element at multi-index r is operand element at p with
  // p[perm[i]] = r[i].
  auto operandType = cast<RankedTensorType>(dense.getType());
  SmallVector<int64_t> operandStrides(operandType.getRank(), 1);
  for (int64_t d = operandType.getRank() - 1; d > 0; --d)
    operandStrides[d - 1] = operandStrides[d] * operandType.getDimSize(d);
  SmallVector<Attribute> values(dense.getValues<Attribute>());
  SmallVector<Attribute> result;
  ArrayRef<int64_t> shape = getType().getShape();
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0, e = getType().getNumElements(); i < e; ++i) {
    int64_t source = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      source += index[d] * operandStrides[getPerm()[d]];
    result.push_back(values[source]);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(getType(), result);
}

namespace {
/// transpose(transpose(x, p1), p2) -> transpose(x, p1[p2[i]]).
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getX().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPerm())
      perm.push_back(inner.getPerm()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, inner.getX(), perm);
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<ComposeTransposes>(context);
}

//===----------------------------------------------------------------------===//
// broadcast_to
//===----------------------------------------------------------------------===//

void BroadcastToOp::build(OpBuilder &builder, OperationState &state, Value x,
                          ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(x.getType());
  build(builder, state, type.clone(shape), x, Value());
}

void BroadcastToOp::build(OpBuilder &builder, OperationState &state, Value x,
                          Value like) {
  auto type = cast<RankedTensorType>(x.getType());
  auto shape = cast<RankedTensorType>(like.getType()).getShape();
  build(builder, state, type.clone(shape), x, like);
}

LogicalResult BroadcastToOp::verify() {
  auto from = cast<RankedTensorType>(getX().getType());
  RankedTensorType to = getType();
  if (from.getElementType() != to.getElementType())
    return emitOpError("element type must be preserved: operand ")
           << from.getElementType() << " vs result " << to.getElementType();
  if (from.getRank() > to.getRank())
    return emitOpError("cannot broadcast rank ")
           << from.getRank() << " to the lower rank " << to.getRank();
  int64_t offset = to.getRank() - from.getRank();
  if (Value like = getLike()) {
    // The sizes are like's; a `?` on either side is checked at run time.
    auto likeType = cast<RankedTensorType>(like.getType());
    if (likeType.getShape() != to.getShape())
      return emitOpError("result shape ")
             << formatShape(to.getShape()) << " must be the shape of 'like' "
             << formatShape(likeType.getShape());
    for (int64_t d = 0; d < from.getRank(); ++d) {
      int64_t size = from.getDimSize(d), target = to.getDimSize(d + offset);
      if (size == 1 || ShapedType::isDynamic(size) ||
          ShapedType::isDynamic(target) || size == target)
        continue;
      return emitOpError("operand shape ")
             << formatShape(from.getShape()) << " does not broadcast to "
             << formatShape(to.getShape()) << ": operand dim " << d << " is "
             << size << " but result dim " << d + offset << " is " << target;
    }
    return success();
  }
  // A dynamic result dim takes its run-time size from the aligned operand
  // dim, which must be dynamic too: a static operand dim (a 1 included) or a
  // missing one gives no size (give it with `like`).
  for (int64_t d = 0; d < to.getRank(); ++d) {
    if (!to.isDynamicDim(d))
      continue;
    if (d < offset)
      return emitOpError("result dim ")
             << d << " is dynamic, but the operand "
             << formatShape(from.getShape())
             << " has no dim aligned with it to give its size at run time "
                "(give the shape with 'like')";
    if (!from.isDynamicDim(d - offset))
      return emitOpError("result dim ")
             << d << " is dynamic, but operand dim " << d - offset
             << " is a static " << from.getDimSize(d - offset)
             << " and gives no size at run time (give the shape with 'like')";
  }
  auto broadcast = broadcastShapes(from.getShape(), to.getShape());
  if (!broadcast || *broadcast != to.getShape())
    return emitOpError("operand shape ")
           << formatShape(from.getShape()) << " does not broadcast to "
           << formatShape(to.getShape())
           << " (each dim must equal the target's or be 1)";
  return success();
}

LogicalResult
BroadcastToOp::reifyResultShapes(OpBuilder &b,
                                 ReifiedRankedShapedTypeDims &shapes) {
  if (Value like = getLike())
    return reifySameShapeResult(b, *this, shapes, like);
  // A `?` result dim is the aligned operand dim (the verifier says).
  return reifiedAs(b, getResult(),
                   reifyBroadcastSizes(b, getLoc(), getX(), getType()), shapes);
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX());
  if (dense && dense.isSplat() && getType().hasStaticShape())
    return dense.resizeSplat(getType());
  return {};
}

//===----------------------------------------------------------------------===//
// size
//===----------------------------------------------------------------------===//

void SizeOp::build(OpBuilder &builder, OperationState &state, Value x,
                   ArrayRef<int64_t> axes, Type elementType) {
  build(builder, state, RankedTensorType::get({}, elementType), x,
        builder.getDenseI64ArrayAttr(axes));
}

LogicalResult SizeOp::verify() {
  if (getType().getRank() != 0)
    return emitOpError("result must be a scalar (rank 0), got ") << getType();
  std::optional<ArrayRef<int64_t>> axes = getAxes();
  if (!axes)
    return success();
  int64_t rank = getX().getType().getRank();
  llvm::SmallBitVector seen(rank);
  for (int64_t axis : *axes) {
    std::optional<int64_t> normalized = normalizeAxis(axis, rank);
    if (!normalized)
      return emitOpError("axis ")
             << axis << " is out of range for rank " << rank;
    if (seen.test(*normalized))
      return emitOpError("axes ")
             << formatList(*axes) << " repeat dim " << *normalized;
    seen.set(*normalized);
  }
  return success();
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  RankedTensorType type = getX().getType();
  SmallVector<int64_t> dims;
  if (std::optional<ArrayRef<int64_t>> axes = getAxes()) {
    for (int64_t axis : *axes)
      dims.push_back(*normalizeAxis(axis, type.getRank()));
  } else {
    for (int64_t d = 0; d < type.getRank(); ++d)
      dims.push_back(d);
  }
  int64_t count = 1;
  for (int64_t d : dims) {
    if (type.isDynamicDim(d))
      return {};
    count *= type.getDimSize(d);
  }
  Type element = getType().getElementType();
  if (isa<FloatType>(element))
    return DenseElementsAttr::get(
        getType(), FloatAttr::get(element, static_cast<double>(count)));
  return DenseElementsAttr::get(getType(), IntegerAttr::get(element, count));
}

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

LogicalResult SortOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  llvm::append_range(types, adaptor.getInputs().getTypes());
  return success();
}

LogicalResult SortOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  for (Value input : getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(tensor::getMixedSize(b, getLoc(), input, d));
    shapes.push_back(sizes);
  }
  return success();
}

LogicalResult SortOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one operand (the keys)");
  auto keys = cast<RankedTensorType>(getInputs().front().getType());
  if (keys.getRank() == 0)
    return emitOpError("operands must have rank >= 1, got a scalar");
  if (!normalizeAxis(getAxis(), keys.getRank()))
    return emitOpError("axis ")
           << getAxis() << " is out of range for rank " << keys.getRank();
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    if (failed(verifyCompatibleShape(type.getShape(), keys.getShape())))
      return emitOpError("operand #")
             << i << " has shape " << formatShape(type.getShape())
             << ", the keys " << formatShape(keys.getShape());
  }
  return success();
}
