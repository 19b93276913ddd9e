//===- VmapOp.cpp - trace.vmap --------------------------------------------===//

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

int64_t VmapOp::getBatchSize() {
  for (auto [arg, axis] : llvm::zip(getArgs(), getInAxes()))
    if (axis >= 0)
      return cast<RankedTensorType>(arg.getType()).getDimSize(axis);
  return 0;
}

LogicalResult VmapOp::verify() {
  if (getInAxes().size() != getArgs().size())
    return emitOpError("needs one in_axes entry per argument: ")
           << getArgs().size() << " arguments, " << getInAxes().size()
           << " in_axes";
  if (getOutAxes().size() != getNumResults())
    return emitOpError("needs one out_axes entry per result: ")
           << getNumResults() << " results, " << getOutAxes().size()
           << " out_axes";
  std::optional<int64_t> size;
  for (auto [i, arg, axis] : llvm::enumerate(getArgs(), getInAxes())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type) {
      if (axis == -1)
        continue;
      return emitOpError("maps argument ")
             << i << " of type " << arg.getType()
             << ": only tensors can be mapped (in_axes -1)";
    }
    if (axis < -1 || axis >= type.getRank())
      return emitOpError("in_axes[")
             << i << "] = " << axis << " is not a dim of argument " << i
             << " of type " << type << " (-1: not mapped)";
    if (axis < 0)
      continue;
    int64_t dim = type.getDimSize(axis);
    if (ShapedType::isDynamic(dim))
      return emitOpError("argument ")
             << i << " is mapped over a dynamic dim (" << type
             << "): the batch size must be static";
    if (size && *size != dim)
      return emitOpError("mapped dims differ in size: argument ")
             << i << " has " << dim << " along dim " << axis
             << ", an earlier argument " << *size;
    size = dim;
  }
  if (!size)
    return emitOpError("maps no argument: at least one in_axes entry must "
                       "name a dim");
  return success();
}

LogicalResult VmapOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("callee ") << getCalleeAttr() << " is not a function";
  FunctionType type = callee.getFunctionType();
  if (type.getNumInputs() != getArgs().size())
    return emitOpError("passes ") << getArgs().size() << " arguments to "
                                  << getCalleeAttr() << ", which takes "
                                  << type.getNumInputs();
  for (auto [i, arg, axis, expected] :
       llvm::enumerate(getArgs(), getInAxes(), type.getInputs())) {
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    if (!tensor) {
      if (arg.getType() != expected)
        return emitOpError("argument ")
               << i << " of type " << arg.getType() << " is passed to "
               << getCalleeAttr() << ", which takes " << expected;
      continue;
    }
    SmallVector<int64_t> shape(tensor.getShape());
    if (axis >= 0)
      shape.erase(shape.begin() + axis);
    if (tensor.clone(shape) != expected)
      return emitOpError("argument ")
             << i << " of type " << tensor << " mapped along dim " << axis
             << " gives examples of type " << tensor.clone(shape) << ", but "
             << getCalleeAttr() << " takes " << expected;
  }
  if (type.getNumResults() != getNumResults())
    return emitOpError("has ") << getNumResults() << " results, but "
                               << getCalleeAttr() << " returns "
                               << type.getNumResults();
  for (auto [i, result, axis, example] :
       llvm::enumerate(getResults(), getOutAxes(), type.getResults())) {
    auto tensor = dyn_cast<RankedTensorType>(example);
    if (!tensor)
      return emitOpError("callee result ") << i << " is not a tensor";
    if (axis < 0 || axis > tensor.getRank())
      return emitOpError("out_axes[")
             << i << "] = " << axis << " is not a dim of result " << i
             << " (rank " << tensor.getRank() + 1 << ")";
    SmallVector<int64_t> shape(tensor.getShape());
    shape.insert(shape.begin() + axis, getBatchSize());
    if (tensor.clone(shape) != result.getType())
      return emitOpError("result ")
             << i << " must be " << getCalleeAttr() << "'s result " << example
             << " with the batch dim at " << axis << ": "
             << tensor.clone(shape) << ", not " << result.getType();
  }
  return success();
}
