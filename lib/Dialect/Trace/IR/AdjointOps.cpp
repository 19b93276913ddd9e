//===- AdjointOps.cpp - scatter_add, max_pool2d_select --------------------===//
//
// Type inference and folding of the adjoints of gather and max_pool2d_grad
// (dialects/Trace/TraceAdjointOps.td).
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceAdjointOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "tracec/Dialect/Trace/IR/TraceShapes.h"
#include "tracec/Dialect/Trace/IR/TraceTypeConstraints.h"

using namespace mlir;
using namespace mlir::trace;

#define GET_OP_CLASSES
#include "tracec/Dialect/Trace/IR/TraceAdjointOps.cpp.inc"

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
// max_pool2d_select
//===----------------------------------------------------------------------===//

LogicalResult MaxPool2DSelectOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  std::string label = opPrefix(getOperationName());
  if (failed(inferPoolResult(loc, getOperationName(),
                             adaptor.getInput().getType(), adaptor.getWindow(),
                             adaptor.getStrides(), adaptor.getPadding(),
                             types)))
    return failure();
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  auto t = dyn_cast<RankedTensorType>(adaptor.getT().getType());
  if (!t || t.getRank() != 4)
    return emitOptionalError(loc, label, " t must be a 4-D NHWC tensor, got ",
                             adaptor.getT().getType());
  if (t.getElementType() != input.getElementType())
    return emitOptionalError(loc, label,
                             " operand element types differ: input ",
                             input.getElementType(), " vs t ",
                             t.getElementType());
  for (auto [actual, wanted] : llvm::zip_equal(t.getShape(), input.getShape()))
    if (!ShapedType::isDynamic(actual) && !ShapedType::isDynamic(wanted) &&
        actual != wanted)
      return emitOptionalError(loc, label, " t shape ",
                               formatShape(t.getShape()),
                               " does not match the input shape ",
                               formatShape(input.getShape()));
  return success();
}
