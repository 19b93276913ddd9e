//===- ShapeOps.cpp - reshape, transpose, broadcast_to, concat, ... -------===//

#include "ConstantFolding.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/PatternMatch.h"
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

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX());
  if (dense && dense.isSplat() && getType().hasStaticShape())
    return dense.resizeSplat(getType());
  return {};
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "'trace.concat' op needs at least one input");
  auto first = dyn_cast<RankedTensorType>(inputs.front().getType());
  if (!first)
    return emitOptionalError(loc, "'trace.concat' op inputs must be ranked tensors");
  int64_t rank = first.getRank();
  std::optional<int64_t> axis = normalizeAxis(adaptor.getAxis(), rank);
  if (!axis)
    return emitOptionalError(loc, "'trace.concat' op axis ", adaptor.getAxis(),
                             " is out of range for rank ", rank);
  SmallVector<int64_t> shape(first.getShape());
  // Which input fixed each non-axis dim, for the messages.
  SmallVector<size_t> fixedBy(rank, 0);
  for (auto [i, input] : llvm::enumerate(inputs.drop_front())) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type)
      return emitOptionalError(loc, "'trace.concat' op inputs must be ranked tensors");
    if (type.getElementType() != first.getElementType())
      return emitOptionalError(loc, "'trace.concat' op input ", i + 1, " has element type ",
                               type.getElementType(), " but input 0 has ",
                               first.getElementType());
    if (type.getRank() != rank)
      return emitOptionalError(loc, "'trace.concat' op input ", i + 1, " has rank ",
                               type.getRank(), " but input 0 has rank ", rank);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (d == *axis) {
        shape[d] = ShapedType::isDynamic(shape[d]) || ShapedType::isDynamic(size)
                       ? ShapedType::kDynamic
                       : shape[d] + size;
      } else if (ShapedType::isDynamic(shape[d])) {
        // A static size fixes the dim; the `?` inputs are checked against
        // it at run time.
        shape[d] = size;
        fixedBy[d] = i + 1;
      } else if (!ShapedType::isDynamic(size) && size != shape[d]) {
        auto other = cast<RankedTensorType>(inputs[fixedBy[d]].getType());
        return emitOptionalError(loc, "'trace.concat' op input ", i + 1,
                                 " has shape ", formatShape(type.getShape()),
                                 " but input ", fixedBy[d], " has ",
                                 formatShape(other.getShape()), " (only dim ",
                                 *axis, " may differ)");
      }
    }
  }
  types.push_back(first.clone(shape));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType())
    return getInputs()[0];
  return foldConcat(adaptor.getInputs(), getAxis(), getType());
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

void SliceOp::build(OpBuilder &builder, OperationState &state, Value x,
                    ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                    DenseI64ArrayAttr strides) {
  build(builder, state, x, Value(), builder.getDenseI64ArrayAttr(start),
        builder.getDenseI64ArrayAttr(limit), strides);
}

void SliceOp::build(OpBuilder &builder, OperationState &state, Value x,
                    Value like, ArrayRef<int64_t> start) {
  build(builder, state, x, like, builder.getDenseI64ArrayAttr(start),
        DenseI64ArrayAttr(), DenseI64ArrayAttr());
}

/// The type of a `like` form (slice, pad): `x`'s element type, `like`'s
/// shape, after checking that exactly one of `like` and the attribute
/// `other` (limit, high) is given and that `start` (start, low) has one
/// entry per dim.
static FailureOr<RankedTensorType>
inferLikeForm(std::optional<Location> loc, StringRef op, RankedTensorType x,
              Value like, bool hasOther, StringRef other,
              ArrayRef<int64_t> start, StringRef startName) {
  std::string prefix = opPrefix(op);
  if (!like)
    return RankedTensorType();
  if (hasOther)
    return emitOptionalError(loc, prefix, " takes either '", other,
                             "' or 'like', not both");
  auto likeType = dyn_cast<RankedTensorType>(like.getType());
  if (!likeType || likeType.getRank() != x.getRank())
    return emitOptionalError(loc, prefix, " 'like' must have the operand's rank ",
                             x.getRank(), ", got ", like.getType());
  if (static_cast<int64_t>(start.size()) != x.getRank())
    return emitOptionalError(loc, prefix, " ", startName,
                             " needs one entry per dim (rank ", x.getRank(),
                             "), got ", start.size());
  for (auto [d, s] : llvm::enumerate(start))
    if (s < 0)
      return emitOptionalError(loc, prefix, " ", startName, " of dim ", d,
                               " must be non-negative, got ", s);
  return x.clone(likeType.getShape());
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto x = dyn_cast<RankedTensorType>(adaptor.getX().getType());
  if (!x)
    return emitOptionalError(loc, "'trace.slice' op operand must be a ranked tensor");
  int64_t rank = x.getRank();
  ArrayRef<int64_t> start = adaptor.getStart();
  if (Value like = adaptor.getLike()) {
    FailureOr<RankedTensorType> type =
        inferLikeForm(loc, getOperationName(), x, like,
                      adaptor.getLimit().has_value(), "limit", start, "start");
    if (failed(type))
      return failure();
    if (adaptor.getStrides() &&
        llvm::any_of(*adaptor.getStrides(), [](int64_t s) { return s != 1; }))
      return emitOptionalError(loc, "'trace.slice' op with 'like' takes unit "
                                    "strides, got ",
                               formatList(*adaptor.getStrides()));
    // start + like's size must fit in x where both are static.
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = x.getDimSize(d), extent = type->getDimSize(d);
      if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(extent) &&
          start[d] + extent > size)
        return emitOptionalError(loc, "'trace.slice' op dim ", d,
                                 " needs start + like's size <= ", size,
                                 ", got ", start[d], " + ", extent);
    }
    types.push_back(*type);
    return success();
  }
  if (!adaptor.getLimit())
    return emitOptionalError(loc, "'trace.slice' op needs 'limit' or 'like'");
  ArrayRef<int64_t> limit = *adaptor.getLimit();
  SmallVector<int64_t> strides(rank, 1);
  if (auto given = adaptor.getStrides())
    strides.assign(given->begin(), given->end());
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return emitOptionalError(loc, "'trace.slice' op start, limit and strides need one entry "
                                  "per dim (rank ",
                             rank, "), got ", start.size(), ", ", limit.size(),
                             " and ", strides.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = x.getDimSize(d);
    if (strides[d] < 1)
      return emitOptionalError(loc, "'trace.slice' op stride of dim ", d,
                               " must be positive, got ", strides[d]);
    if (start[d] < 0 || start[d] > limit[d] ||
        (!ShapedType::isDynamic(size) && limit[d] > size)) {
      std::string bound =
          ShapedType::isDynamic(size) ? "the dim size (?)" : std::to_string(size);
      return emitOptionalError(loc, "'trace.slice' op dim ", d,
                               " needs 0 <= start <= limit <= ", bound,
                               ", got start ", start[d], ", limit ", limit[d]);
    }
    // ceil((limit - start) / stride), written so that a huge stride cannot
    // overflow.
    int64_t extent = limit[d] - start[d];
    shape.push_back(extent == 0 ? 0 : (extent - 1) / strides[d] + 1);
  }
  types.push_back(x.clone(shape));
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  // Same static shape: the slice takes everything (a `like` form of a `?`
  // dim may start past 0).
  if (getX().getType() == getType() && getType().hasStaticShape())
    return getX();
  if (!getLike() && getX().getType() == getType())
    return getX();
  if (getLike())
    return {};
  SmallVector<int64_t> strides(getType().getRank(), 1);
  if (std::optional<ArrayRef<int64_t>> given = getStrides())
    strides.assign(given->begin(), given->end());
  return foldSlice(adaptor.getX(), getStart(), strides, getType());
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  return foldGather(adaptor.getParams(), adaptor.getIndices(), getAxis(),
                    getType());
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

void PadOp::build(OpBuilder &builder, OperationState &state, Value x,
                  ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                  const APFloat &value) {
  build(builder, state, x, Value(), builder.getDenseI64ArrayAttr(low),
        builder.getDenseI64ArrayAttr(high),
        builder.getF64FloatAttr(value.convertToDouble()));
}

void PadOp::build(OpBuilder &builder, OperationState &state, Value x,
                  Value like, ArrayRef<int64_t> low) {
  build(builder, state, x, like, builder.getDenseI64ArrayAttr(low),
        DenseI64ArrayAttr(), builder.getF64FloatAttr(0.0));
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  auto x = dyn_cast<RankedTensorType>(adaptor.getX().getType());
  if (!x)
    return emitOptionalError(loc, "'trace.pad' op operand must be a ranked tensor");
  ArrayRef<int64_t> low = adaptor.getLow();
  int64_t rank = x.getRank();
  if (Value like = adaptor.getLike()) {
    FailureOr<RankedTensorType> type =
        inferLikeForm(loc, getOperationName(), x, like,
                      adaptor.getHigh().has_value(), "high", low, "low");
    if (failed(type))
      return failure();
    // low + x's size must fit in like's where both are static.
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = x.getDimSize(d), target = type->getDimSize(d);
      if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(target) &&
          low[d] + size > target)
        return emitOptionalError(loc, "'trace.pad' op dim ", d,
                                 " needs low + operand size <= like's size ",
                                 target, ", got ", low[d], " + ", size);
    }
    types.push_back(*type);
    return success();
  }
  if (!adaptor.getHigh())
    return emitOptionalError(loc, "'trace.pad' op needs 'high' or 'like'");
  ArrayRef<int64_t> high = *adaptor.getHigh();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank)
    return emitOptionalError(loc, "'trace.pad' op low and high need one entry per dim (rank ",
                             rank, "), got ", low.size(), " and ", high.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0)
      return emitOptionalError(loc, "'trace.pad' op padding of dim ", d,
                               " must be non-negative, got low ", low[d],
                               ", high ", high[d]);
    int64_t size = x.getDimSize(d);
    if (ShapedType::isDynamic(size)) {
      shape.push_back(size);
      continue;
    }
    int64_t padded;
    if (llvm::AddOverflow(size, low[d], padded) ||
        llvm::AddOverflow(padded, high[d], padded))
      return emitOptionalError(loc, "'trace.pad' op padded size of dim ", d,
                               " overflows: ", size, " + ", low[d], " + ",
                               high[d]);
    shape.push_back(padded);
  }
  types.push_back(x.clone(shape));
  return success();
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  // Only zero padding is the identity: a dynamic dim keeps the same type
  // even when it is padded (and a `like` form may pad a `?` dim).
  auto isZero = [](int64_t p) { return p == 0; };
  if (getLike()) {
    if (getType().hasStaticShape() && getX().getType() == getType())
      return getX();
    return {};
  }
  if (llvm::all_of(getLow(), isZero) && llvm::all_of(*getHigh(), isZero) &&
      getX().getType() == getType())
    return getX();
  return {};
}

//===----------------------------------------------------------------------===//
// split
//===----------------------------------------------------------------------===//

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto x = dyn_cast<RankedTensorType>(adaptor.getX().getType());
  if (!x)
    return emitOptionalError(loc, "'trace.split' op operand must be a ranked tensor");
  ValueRange likes = adaptor.getLike();
  if (likes.empty())
    return emitOptionalError(loc, "'trace.split' op needs at least one 'like' operand");
  int64_t rank = x.getRank();
  std::optional<int64_t> axis = normalizeAxis(adaptor.getAxis(), rank);
  if (!axis)
    return emitOptionalError(loc, "'trace.split' op axis ", adaptor.getAxis(),
                             " is out of range for rank ", rank);
  int64_t total = 0;
  for (auto [k, like] : llvm::enumerate(likes)) {
    auto type = dyn_cast<RankedTensorType>(like.getType());
    if (!type || type.getRank() != rank)
      return emitOptionalError(loc, "'trace.split' op 'like' operand ", k,
                               " must have the operand's rank ", rank,
                               ", got ", like.getType());
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d), whole = x.getDimSize(d);
      if (d == *axis || ShapedType::isDynamic(size) ||
          ShapedType::isDynamic(whole) || size == whole)
        continue;
      return emitOptionalError(loc, "'trace.split' op 'like' operand ", k,
                               " has shape ", formatShape(type.getShape()),
                               " but the operand has ",
                               formatShape(x.getShape()), " (only dim ", *axis,
                               " may differ)");
    }
    int64_t size = type.getDimSize(*axis);
    total = ShapedType::isDynamic(size) || ShapedType::isDynamic(total)
                ? ShapedType::kDynamic
                : total + size;
    types.push_back(x.clone(type.getShape()));
  }
  // The pieces cover the axis (checked at run time where a size is `?`).
  int64_t whole = x.getDimSize(*axis);
  if (!ShapedType::isDynamic(total) && !ShapedType::isDynamic(whole) &&
      total != whole)
    return emitOptionalError(loc, "'trace.split' op pieces cover ", total,
                             " elements along axis ", *axis,
                             " but the operand has ", whole);
  return success();
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto params = dyn_cast<RankedTensorType>(adaptor.getParams().getType());
  auto indices = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
  if (!params || !indices)
    return emitOptionalError(loc, "'trace.gather' op operands must be ranked tensors");
  if (params.getRank() == 0)
    return emitOptionalError(loc, "'trace.gather' op params must have rank >= 1");
  std::optional<int64_t> axis =
      normalizeAxis(adaptor.getAxis(), params.getRank());
  if (!axis)
    return emitOptionalError(loc, "'trace.gather' op axis ", adaptor.getAxis(),
                             " is out of range for params of rank ",
                             params.getRank());
  ArrayRef<int64_t> p = params.getShape();
  SmallVector<int64_t> shape(p.take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, p.drop_front(*axis + 1));
  types.push_back(params.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// scatter_add
//===----------------------------------------------------------------------===//

LogicalResult ScatterAddOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  auto operand = dyn_cast<RankedTensorType>(adaptor.getOperand().getType());
  auto indices = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
  auto updates = dyn_cast<RankedTensorType>(adaptor.getUpdates().getType());
  if (!operand || !indices || !updates)
    return emitOptionalError(
        loc, "'trace.scatter_add' op operands must be ranked tensors");
  if (operand.getRank() == 0)
    return emitOptionalError(
        loc, "'trace.scatter_add' op operand must have rank >= 1");
  std::optional<int64_t> axis =
      normalizeAxis(adaptor.getAxis(), operand.getRank());
  if (!axis)
    return emitOptionalError(loc, "'trace.scatter_add' op axis ",
                             adaptor.getAxis(),
                             " is out of range for an operand of rank ",
                             operand.getRank());
  if (operand.getElementType() != updates.getElementType())
    return emitOptionalError(
        loc, "'trace.scatter_add' op updates element type ",
        updates.getElementType(), " differs from the operand's ",
        operand.getElementType());
  // updates: gather's result shape for operand and indices.
  ArrayRef<int64_t> o = operand.getShape();
  SmallVector<int64_t> expected(o.take_front(*axis));
  llvm::append_range(expected, indices.getShape());
  llvm::append_range(expected, o.drop_front(*axis + 1));
  bool matches = updates.getRank() == static_cast<int64_t>(expected.size());
  for (int64_t d = 0; matches && d < updates.getRank(); ++d) {
    int64_t actual = updates.getDimSize(d), wanted = expected[d];
    matches = ShapedType::isDynamic(actual) || ShapedType::isDynamic(wanted) ||
              actual == wanted;
  }
  if (!matches)
    return emitOptionalError(
        loc, "'trace.scatter_add' op updates shape ",
        formatShape(updates.getShape()), " does not match ",
        formatShape(expected),
        ", gather's result shape (operand dims before axis ", *axis,
        ", the indices' dims, operand dims after it)");
  types.push_back(operand);
  return success();
}

OpFoldResult ScatterAddOp::fold(FoldAdaptor adaptor) {
  // No updates (an empty index list or an empty operand dim besides the
  // axis): the operand unchanged.
  auto updates = cast<RankedTensorType>(getUpdates().getType());
  if (llvm::is_contained(updates.getShape(), 0))
    return getOperand();
  // Adding zeros anywhere changes nothing.
  if (auto splat =
          dyn_cast_if_present<SplatElementsAttr>(adaptor.getUpdates())) {
    Attribute value = splat.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(value); f && f.getValue().isPosZero())
      return getOperand();
    if (auto i = dyn_cast<IntegerAttr>(value); i && i.getValue().isZero())
      return getOperand();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// one_hot
//===----------------------------------------------------------------------===//

/// The one-hot shape: `depth` inserted into the indices' shape at `axis`.
static std::optional<SmallVector<int64_t>>
oneHotShape(ArrayRef<int64_t> indices, int64_t depth, int64_t axis) {
  std::optional<int64_t> at = normalizeAxis(axis, indices.size() + 1);
  if (!at)
    return std::nullopt;
  SmallVector<int64_t> shape(indices);
  shape.insert(shape.begin() + *at, depth);
  return shape;
}

void OneHotOp::build(OpBuilder &builder, OperationState &state, Value indices,
                     int64_t depth, Type elementType, int64_t axis) {
  auto type = cast<RankedTensorType>(indices.getType());
  SmallVector<int64_t> shape =
      oneHotShape(type.getShape(), depth, axis).value_or(SmallVector<int64_t>());
  build(builder, state, RankedTensorType::get(shape, elementType), indices,
        builder.getI64IntegerAttr(depth), builder.getI64IntegerAttr(axis),
        builder.getF64FloatAttr(1.0), builder.getF64FloatAttr(0.0));
}

LogicalResult OneHotOp::verify() {
  if (getDepth() < 1)
    return emitOpError("depth must be positive, got ") << getDepth();
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto shape = oneHotShape(indices.getShape(), getDepth(), getAxis());
  if (!shape)
    return emitOpError("axis ") << getAxis() << " is out of range for rank "
                                << indices.getRank() + 1;
  if (ArrayRef<int64_t>(*shape) != getType().getShape())
    return emitOpError("result shape must be ")
           << formatShape(*shape) << " (indices " << formatShape(indices.getShape())
           << " with depth " << getDepth() << " at axis " << getAxis()
           << "), got " << formatShape(getType().getShape());
  return success();
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
