//===- ConcatSliceOps.cpp - concat, slice, pad, split ---------------------===//
//
// Ops that cut a tensor along its dims or join tensors along one.
//
//===----------------------------------------------------------------------===//

#include "ConstantFolding.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

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

LogicalResult ConcatOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  ValueRange inputs = getInputs();
  int64_t rank = getType().getRank();
  int64_t axis = *normalizeAxis(getAxis(), rank);
  // The axis: the sum of the inputs' sizes; another dim: the first
  // input's (a `?` result dim is `?` in every input, which must agree).
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, loc, inputs.front());
  AffineExpr sum = getAffineConstantExpr(0, b.getContext());
  SmallVector<OpFoldResult> axisSizes;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    sum = sum + getAffineSymbolExpr(i, b.getContext());
    axisSizes.push_back(tensor::getMixedSize(b, loc, input, axis));
  }
  sizes[axis] = affine::makeComposedFoldedAffineApply(b, loc, sum, axisSizes);
  return reifiedAs(b, getResult(), sizes, shapes);
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

LogicalResult SliceOp::reifyResultShapes(OpBuilder &b,
                                         ReifiedRankedShapedTypeDims &shapes) {
  if (Value like = getLike())
    return reifySameShapeResult(b, *this, shapes, like);
  // Without `like`, start, limit and strides fix every size.
  return reifiedAs(b, getResult(), getAsIndexOpFoldResult(
                                       b.getContext(), getType().getShape()),
                   shapes);
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

LogicalResult PadOp::reifyResultShapes(OpBuilder &b,
                                       ReifiedRankedShapedTypeDims &shapes) {
  if (getLike())
    return reifySameShapeResult(b, *this, shapes, getLike());
  // low + size + high per dim.
  SmallVector<OpFoldResult> sizes;
  AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
  for (auto [d, size] :
       llvm::enumerate(tensor::getMixedSizes(b, getLoc(), getX())))
    sizes.push_back(affine::makeComposedFoldedAffineApply(
        b, getLoc(), s0 + (getLow()[d] + (*getHigh())[d]), {size}));
  return reifiedAs(b, getResult(), sizes, shapes);
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

LogicalResult SplitOp::reifyResultShapes(OpBuilder &b,
                                         ReifiedRankedShapedTypeDims &shapes) {
  for (auto [result, like] : llvm::zip(getResults(), getLike()))
    if (failed(reifiedAs(b, result, tensor::getMixedSizes(b, getLoc(), like),
                         shapes)))
      return failure();
  return success();
}
