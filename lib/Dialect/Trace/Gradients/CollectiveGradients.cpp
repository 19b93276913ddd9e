//===- CollectiveGradients.cpp - all_reduce's and broadcast's rules -------===//
//
// A sum over processes is linear, and every process's operand reaches every
// process's result: the cotangent of each operand is the sum over processes
// of the results' cotangents (Horovod's and JAX's psum transpose), the
// tangent the sum of the tangents. A mean is the sum scaled by 1 / size,
// so the same with mean. max and min have no rule. A broadcast's
// cotangent is that sum too, on the root only.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

Value allReduce(OpBuilder &builder, Location loc, Value x,
                StringRef reduction) {
  return AllReduceOp::create(builder, loc, x.getType(),
                             ControlType::get(builder.getContext()), x,
                             ValueRange{}, reduction)
      .getResult();
}

LogicalResult checkLinear(AllReduceOp op) {
  if (op.getReduction() == "sum" || op.getReduction() == "mean")
    return success();
  return op.emitOpError("has no gradient for reduction '")
         << op.getReduction() << "' (only sum and mean are differentiable)";
}

struct AllReduceGradient
    : DifferentiableOpInterface::ExternalModel<AllReduceGradient, AllReduceOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reduce = cast<AllReduceOp>(op);
    Value dy = state.cotangent(reduce.getResult());
    if (!dy)
      return success();
    if (failed(checkLinear(reduce)))
      return failure();
    return state.accumulate(reduce.getX(), allReduce(builder, op->getLoc(), dy,
                                                     reduce.getReduction()));
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto reduce = cast<AllReduceOp>(op);
    Value tangent = state.tangent(reduce.getX());
    if (!tangent)
      return success();
    if (failed(checkLinear(reduce)))
      return failure();
    return state.setTangent(
        reduce.getResult(),
        allReduce(builder, op->getLoc(), tangent, reduce.getReduction()));
  }
};

/// A broadcast is linear: every process's result is the root's operand.
/// The root's operand reaches every result, so its cotangent is the sum
/// over processes of their results' cotangents; another process's operand
/// reaches nothing (zero).
struct BroadcastGradient
    : DifferentiableOpInterface::ExternalModel<BroadcastGradient, BroadcastOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto broadcast = cast<BroadcastOp>(op);
    Value dy = state.cotangent(broadcast.getResult());
    if (!dy)
      return success();
    Value sum = allReduce(builder, op->getLoc(), dy, "sum");
    return state.accumulate(broadcast.getX(),
                            BroadcastOp::onRootOnly(builder, op->getLoc(), sum,
                                                    broadcast.getRoot()));
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto broadcast = cast<BroadcastOp>(op);
    Value tangent = state.tangent(broadcast.getX());
    if (!tangent)
      return success();
    return state.setTangent(
        broadcast.getResult(),
        BroadcastOp::create(builder, op->getLoc(), tangent.getType(),
                            ControlType::get(builder.getContext()), tangent,
                            ValueRange{}, broadcast.getRoot())
            .getResult());
  }
};

} // namespace

void mlir::trace::registerCollectiveGradients(MLIRContext *context) {
  AllReduceOp::attachInterface<AllReduceGradient>(*context);
  BroadcastOp::attachInterface<BroadcastGradient>(*context);
  // The rank and the size are integers: nothing flows through them.
}
