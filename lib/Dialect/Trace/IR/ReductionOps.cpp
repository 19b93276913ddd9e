//===- ReductionOps.cpp - reductions, argmax, softmax ---------------------===//

#include "ConstantFolding.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

/// Reducing over no axes, or only over size-1 dims kept with `keepdims`, is
/// the identity: the maximum, minimum and product of one element are that
/// element.
/// Both cases are exactly those where the result type is the operand type
/// (a reduced dim that is kept becomes a static 1).
static OpFoldResult foldIdentityReduction(Operation *op) {
  Value x = op->getOperand(0);
  if (x.getType() == op->getResult(0).getType())
    return x;
  return {};
}

/// A sum starts from +0.0 (as NumPy's and PyTorch's do), and
/// +0.0 + -0.0 = +0.0: the float sum or mean of one element is that element
/// except for -0.0, so only integer sums fold to their operand.
static OpFoldResult foldIdentitySum(Operation *op) {
  if (isa<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType())))
    return {};
  return foldIdentityReduction(op);
}

OpFoldResult ReduceSumOp::fold(FoldAdaptor) { return foldIdentitySum(*this); }
OpFoldResult ReduceMeanOp::fold(FoldAdaptor) { return foldIdentitySum(*this); }
OpFoldResult ReduceMaxOp::fold(FoldAdaptor) {
  return foldIdentityReduction(*this);
}
OpFoldResult ReduceMinOp::fold(FoldAdaptor) {
  return foldIdentityReduction(*this);
}
// A product starts from 1, and 1 * x is x (-0.0 and NaN included). The
// product of a small integer constant (a shape's element count) is
// evaluated.
OpFoldResult ReduceProdOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult identity = foldIdentityReduction(*this))
    return identity;
  return foldIntegerProduct(adaptor.getX(), getAxes(), getType());
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

LogicalResult ArgmaxOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  return reifyReductionResult(b, *this, getX(), {static_cast<int64_t>(getAxis())}, /*keepdims=*/false,
                              shapes);
}

template <typename SoftmaxLikeOp>
static LogicalResult verifySoftmaxAxis(SoftmaxLikeOp op) {
  int64_t rank = op.getType().getRank();
  if (rank == 0)
    return op.emitOpError("operand must have rank >= 1, got a scalar");
  if (!normalizeAxis(op.getAxis(), rank))
    return op.emitOpError("axis ")
           << op.getAxis() << " is out of range for rank " << rank;
  return success();
}

LogicalResult SoftmaxOp::verify() { return verifySoftmaxAxis(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifySoftmaxAxis(*this); }
