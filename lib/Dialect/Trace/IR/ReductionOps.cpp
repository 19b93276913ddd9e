//===- ReductionOps.cpp - reductions, argmax, softmax ---------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

/// Reducing over no axes is the identity.
static OpFoldResult foldEmptyReduction(Operation *op, ArrayRef<int64_t> axes) {
  Value x = op->getOperand(0);
  if (axes.empty() && x.getType() == op->getResult(0).getType())
    return x;
  return {};
}

OpFoldResult ReduceSumOp::fold(FoldAdaptor) {
  return foldEmptyReduction(*this, getAxes());
}
OpFoldResult ReduceMeanOp::fold(FoldAdaptor) {
  return foldEmptyReduction(*this, getAxes());
}
OpFoldResult ReduceMaxOp::fold(FoldAdaptor) {
  return foldEmptyReduction(*this, getAxes());
}
OpFoldResult ReduceMinOp::fold(FoldAdaptor) {
  return foldEmptyReduction(*this, getAxes());
}

LogicalResult ArgmaxOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  SmallVector<Type, 1> reduced;
  if (failed(inferReductionResult(loc, getOperationName(),
                                  adaptor.getX().getType(),
                                  {static_cast<int64_t>(adaptor.getAxis())}, /*keepdims=*/false,
                                  reduced)))
    return failure();
  types.push_back(
      cast<RankedTensorType>(reduced[0]).clone(IntegerType::get(context, 64)));
  return success();
}

template <typename SoftmaxLikeOp>
static LogicalResult verifySoftmaxAxis(SoftmaxLikeOp op) {
  int64_t rank = op.getType().getRank();
  if (rank == 0)
    return op.emitOpError("operand must have rank >= 1");
  if (!normalizeAxis(op.getAxis(), rank))
    return op.emitOpError("axis ")
           << op.getAxis() << " is out of range for rank " << rank;
  return success();
}

LogicalResult SoftmaxOp::verify() { return verifySoftmaxAxis(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifySoftmaxAxis(*this); }
