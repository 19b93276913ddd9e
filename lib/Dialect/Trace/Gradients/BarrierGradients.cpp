//===- BarrierGradients.cpp - The rules of trace.optimization_barrier -----===//
//
// The barrier is the identity on each operand, so each result's cotangent
// flows back into its operand and each operand's tangent is its result's.
// The derivatives do not go through a barrier of their own: it only keeps
// CSE from merging a recomputation with the forward pass, and a derivative
// of that recomputation is new code with nothing to merge with.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

struct OptimizationBarrierGradient
    : DifferentiableOpInterface::ExternalModel<OptimizationBarrierGradient,
                                               OptimizationBarrierOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &,
                            AdjointState &state) const {
    for (auto [input, output] : llvm::zip(op->getOperands(), op->getResults()))
      if (Value ct = state.cotangent(output))
        if (failed(state.accumulate(input, ct)))
          return failure();
    return success();
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &,
                            TangentState &state) const {
    for (auto [input, output] : llvm::zip(op->getOperands(), op->getResults()))
      if (Value t = state.tangent(input))
        if (failed(state.setTangent(output, t)))
          return failure();
    return success();
  }
};

} // namespace

void mlir::trace::registerBarrierGradients(MLIRContext *context) {
  OptimizationBarrierOp::attachInterface<OptimizationBarrierGradient>(*context);
}
