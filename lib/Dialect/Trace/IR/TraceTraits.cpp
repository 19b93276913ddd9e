//===- TraceTraits.cpp - Verifiers of the trace dialect's traits ----------===//

#include "tracec/Dialect/Trace/IR/TraceTraits.h"
#include "tracec/Tensor/ByteSize.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

LogicalResult OpTrait::trace::verifyAddressableTensors(Operation *op) {
  auto check = [&](Type type, llvm::StringRef what,
                   unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.getElementType().isIntOrFloat())
      return success();
    // `?` dims count as 1: the static ones alone must fit.
    llvm::SmallVector<int64_t> dims;
    for (int64_t dim : tensor.getShape())
      dims.push_back(ShapedType::isDynamic(dim) ? 1 : dim);
    int64_t elementBytes =
        (tensor.getElementType().getIntOrFloatBitWidth() + 7) / 8;
    if (tracec::tensorByteSize(elementBytes, dims))
      return success();
    return op->emitOpError()
           << what << " " << index << " is " << type
           << ", larger than a tensor can be (at most 2^48 bytes)";
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

llvm::SmallVector<int64_t> OpTrait::trace::reducedDims(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type)
    return {};
  llvm::SmallVector<int64_t> axes;
  if (auto list = op->getAttrOfType<DenseI64ArrayAttr>("axes"))
    axes.assign(list.asArrayRef().begin(), list.asArrayRef().end());
  else if (auto axis = op->getAttrOfType<IntegerAttr>("axis"))
    axes.push_back(axis.getInt());
  llvm::SmallVector<int64_t> dims;
  int64_t rank = type.getRank();
  for (int64_t axis : axes)
    if (axis >= -rank && axis < rank)
      dims.push_back(axis < 0 ? axis + rank : axis);
  return dims;
}

LogicalResult OpTrait::trace::verifyReducesNonEmpty(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  for (int64_t dim : reducedDims(op))
    if (type.getDimSize(dim) == 0)
      return op->emitOpError()
             << "reduces dim " << dim << " of " << type
             << ", which is empty: a maximum, minimum or argmax of no "
                "elements is undefined";
  return success();
}
