//===- IndexingOps.cpp - gather, scatter_add, one_hot ---------------------===//
//
// Ops that read or write a tensor at indices given by another.
//
//===----------------------------------------------------------------------===//

#include "ConstantFolding.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

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
  types.push_back(params.clone(
      gatheredShape(params.getShape(), indices.getShape(), *axis)));
  return success();
}

LogicalResult GatherOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  auto rank = cast<RankedTensorType>(getParams().getType()).getRank();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), rank);
  if (!axis)
    return failure();
  SmallVector<OpFoldResult> params = tensor::getMixedSizes(b, loc, getParams());
  SmallVector<OpFoldResult> indices =
      tensor::getMixedSizes(b, loc, getIndices());
  return reifiedAs(b, getResult(),
                   gatheredShape<OpFoldResult>(params, indices, *axis),
                   shapes);
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

LogicalResult
ScatterAddOp::reifyResultShapes(OpBuilder &b,
                                ReifiedRankedShapedTypeDims &shapes) {
  return reifySameShapeResult(b, *this, shapes, getOperand());
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

LogicalResult OneHotOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  int64_t rank = getType().getRank();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), rank);
  if (!axis)
    return failure();
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, getLoc(), getIndices());
  sizes.insert(sizes.begin() + *axis, b.getIndexAttr(getDepth()));
  return reifiedAs(b, getResult(), sizes, shapes);
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  return foldGather(adaptor.getParams(), adaptor.getIndices(), getAxis(),
                    getType());
}
