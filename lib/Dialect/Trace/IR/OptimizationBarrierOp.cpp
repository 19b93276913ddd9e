//===- OptimizationBarrierOp.cpp - Values no optimization looks through ---===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trace;

LogicalResult OptimizationBarrierOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  // Each result is its operand.
  llvm::append_range(types, adaptor.getInputs().getTypes());
  return success();
}

LogicalResult OptimizationBarrierOp::reifyResultShapes(
    OpBuilder &b, ReifiedRankedShapedTypeDims &shapes) {
  for (auto [input, result] : llvm::zip(getInputs(), getResults())) {
    if (!isa<RankedTensorType>(result.getType())) {
      shapes.emplace_back();
      continue;
    }
    if (failed(reifiedAs(b, result, tensor::getMixedSizes(b, getLoc(), input),
                         shapes)))
      return failure();
  }
  return success();
}

LogicalResult OptimizationBarrierOp::verify() {
  // A barrier over nothing guards nothing; an empty one is a mistake of
  // whoever built it.
  if (getInputs().empty())
    return emitOpError("expects at least one operand");
  return success();
}
