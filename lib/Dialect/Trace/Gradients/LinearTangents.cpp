//===- LinearTangents.cpp - Tangents of (multi)linear ops -----------------===//
//
// An op that is linear in some of its operands is its own Jacobian there:
// its tangent is the op re-applied to the tangents. Shape ops, sums,
// gathers and the linear backprop ops use this, and the bilinear ops
// (matmul, conv2d, the conv2d backprop ops) sum it over their two operands
// (product rule).
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

LogicalResult mlir::trace::emitMultilinearTangent(
    Operation *op, OpBuilder &builder, TangentState &state,
    ArrayRef<SmallVector<unsigned>> groups,
    llvm::function_ref<void(Operation *)> adjust) {
  Location loc = op->getLoc();
  SmallVector<Value> sums(op->getNumResults());
  for (ArrayRef<unsigned> group : groups) {
    if (llvm::none_of(group, [&](unsigned i) {
          return state.tangent(op->getOperand(i)) != nullptr;
        }))
      continue;
    // The group's tangents first (zeros where one has none), so that they
    // are defined before the copy of the op that uses them.
    SmallVector<Value> tangents;
    for (unsigned i : group) {
      Value tangent = state.tangent(op->getOperand(i));
      if (!tangent) {
        FailureOr<Value> zeros =
            zerosLike(builder, loc, state.primal(op->getOperand(i)));
        if (failed(zeros))
          return failure();
        tangent = *zeros;
      }
      tangents.push_back(tangent);
    }
    // Operands are set by position: one value may be two operands (x @ x),
    // of which only the one in this group takes its tangent.
    Operation *applied = builder.clone(*op);
    for (OpOperand &operand : op->getOpOperands())
      applied->setOperand(operand.getOperandNumber(),
                          state.primal(operand.get()));
    for (auto [i, tangent] : llvm::zip(group, tangents))
      applied->setOperand(i, tangent);
    if (adjust)
      adjust(applied);
    for (auto [sum, result] : llvm::zip(sums, applied->getResults()))
      sum = sum ? Value(AddOp::create(builder, loc, sum, result)) : result;
  }
  for (auto [result, sum] : llvm::zip(op->getResults(), sums))
    if (sum && carriesGradient(result.getType()) &&
        failed(state.setTangent(result, sum)))
      return failure();
  return success();
}
