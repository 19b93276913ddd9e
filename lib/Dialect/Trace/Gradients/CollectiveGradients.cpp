//===- CollectiveGradients.cpp - The collectives' gradient rules ---------===//
//
// A sum over processes is linear, and every process's operand reaches every
// process's result: the cotangent of each operand is the sum over processes
// of the results' cotangents (Horovod's and JAX's psum transpose), the
// tangent the sum of the tangents. A mean is the sum scaled by 1 / size,
// so the same with mean. max and min have no rule. A broadcast's
// cotangent is that sum too, on the root only. all_gather and
// reduce_scatter are each other's transpose (JAX's all_gather and
// psum_scatter). Each rule keeps its op's groups.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"
#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// An all_reduce of `x`, in `groups` (null: the world).
Value allReduce(OpBuilder &builder, Location loc, Value x, StringRef reduction,
                DenseIntElementsAttr groups = nullptr) {
  return AllReduceOp::create(builder, loc, x.getType(),
                             ControlType::get(builder.getContext()), x,
                             ValueRange{}, reduction, groups)
      .getResult();
}

LogicalResult checkLinear(Operation *op, StringRef reduction) {
  if (reduction == "sum" || reduction == "mean")
    return success();
  return op->emitOpError("has no gradient for reduction '")
         << reduction << "' (only sum and mean are differentiable)";
}

struct AllReduceGradient
    : DifferentiableOpInterface::ExternalModel<AllReduceGradient, AllReduceOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reduce = cast<AllReduceOp>(op);
    Value dy = state.cotangent(reduce.getResult());
    if (!dy)
      return success();
    if (failed(checkLinear(op, reduce.getReduction())))
      return failure();
    return state.accumulate(reduce.getX(), allReduce(builder, op->getLoc(), dy,
                                                     reduce.getReduction(),
                                                     reduce.getGroupsAttr()));
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto reduce = cast<AllReduceOp>(op);
    Value tangent = state.tangent(reduce.getX());
    if (!tangent)
      return success();
    if (failed(checkLinear(op, reduce.getReduction())))
      return failure();
    return state.setTangent(reduce.getResult(),
                            allReduce(builder, op->getLoc(), tangent,
                                      reduce.getReduction(),
                                      reduce.getGroupsAttr()));
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
    Value sum =
        allReduce(builder, op->getLoc(), dy, "sum", broadcast.getGroupsAttr());
    return state.accumulate(broadcast.getX(),
                            BroadcastOp::onRootOnly(builder, op->getLoc(), sum,
                                                    broadcast.getRoot(),
                                                    broadcast.getGroupsAttr()));
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
                            ValueRange{}, broadcast.getRoot(),
                            broadcast.getGroupsAttr())
            .getResult());
  }
};

Value allGather(OpBuilder &builder, Location loc, Value x, int64_t axis,
                int64_t worldSize, DenseIntElementsAttr groups) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] *= worldSize;
  return AllGatherOp::create(
             builder, loc, RankedTensorType::get(shape, type.getElementType()),
             ControlType::get(builder.getContext()), x, ValueRange{}, axis,
             worldSize, groups)
      .getResult();
}

Value reduceScatter(OpBuilder &builder, Location loc, Value x,
                    StringRef reduction, int64_t axis, int64_t worldSize,
                    DenseIntElementsAttr groups) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] /= worldSize;
  return ReduceScatterOp::create(
             builder, loc, RankedTensorType::get(shape, type.getElementType()),
             ControlType::get(builder.getContext()), x, ValueRange{}, reduction,
             axis, worldSize, groups)
      .getResult();
}

/// Process r's operand is slice r of every result: its cotangent is slice
/// r of the sum over processes of the results' cotangents.
struct AllGatherGradient
    : DifferentiableOpInterface::ExternalModel<AllGatherGradient, AllGatherOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto gather = cast<AllGatherOp>(op);
    Value dy = state.cotangent(gather.getResult());
    if (!dy)
      return success();
    return state.accumulate(gather.getX(),
                            reduceScatter(builder, op->getLoc(), dy, "sum",
                                          gather.getAxisAttr().getInt(),
                                          gather.getWorldSizeAttr().getInt(),
                                          gather.getGroupsAttr()));
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto gather = cast<AllGatherOp>(op);
    Value tangent = state.tangent(gather.getX());
    if (!tangent)
      return success();
    return state.setTangent(
        gather.getResult(),
        allGather(builder, op->getLoc(), tangent, gather.getAxisAttr().getInt(),
                  gather.getWorldSizeAttr().getInt(), gather.getGroupsAttr()));
  }
};

/// Slice r of every process's operand reaches process r's result (a sum,
/// or a mean: the sum over world_size): the operand's cotangent is the
/// results' cotangents gathered, over world_size for a mean.
struct ReduceScatterGradient
    : DifferentiableOpInterface::ExternalModel<ReduceScatterGradient,
                                               ReduceScatterOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto scatter = cast<ReduceScatterOp>(op);
    Value dy = state.cotangent(scatter.getResult());
    if (!dy)
      return success();
    if (failed(checkLinear(op, scatter.getReduction())))
      return failure();
    Location loc = op->getLoc();
    int64_t worldSize = scatter.getWorldSizeAttr().getInt();
    Value dx = allGather(builder, loc, dy, scatter.getAxisAttr().getInt(),
                         worldSize, scatter.getGroupsAttr());
    if (scatter.getReduction() == "mean")
      dx = DivOp::create(builder, loc, dx,
                         GradientBuilder(builder, loc).constant(worldSize, dx));
    return state.accumulate(scatter.getX(), dx);
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto scatter = cast<ReduceScatterOp>(op);
    Value tangent = state.tangent(scatter.getX());
    if (!tangent)
      return success();
    if (failed(checkLinear(op, scatter.getReduction())))
      return failure();
    return state.setTangent(scatter.getResult(),
                            reduceScatter(builder, op->getLoc(), tangent,
                                          scatter.getReduction(),
                                          scatter.getAxisAttr().getInt(),
                                          scatter.getWorldSizeAttr().getInt(),
                                          scatter.getGroupsAttr()));
  }
};

} // namespace

void mlir::trace::registerCollectiveGradients(MLIRContext *context) {
  AllReduceOp::attachInterface<AllReduceGradient>(*context);
  BroadcastOp::attachInterface<BroadcastGradient>(*context);
  AllGatherOp::attachInterface<AllGatherGradient>(*context);
  ReduceScatterOp::attachInterface<ReduceScatterGradient>(*context);
  // The rank and the size are integers: nothing flows through them.
}
