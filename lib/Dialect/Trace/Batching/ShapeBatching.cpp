//===- ShapeBatching.cpp - Rules of the shape ops -------------------------===//
//
// The shape ops move an example's elements: their batched forms move each
// example's the same way, with the batch dim in front left where it is.
// gather takes a table per example or indices per example. The forms
// that take their sizes from a `like` operand at run time (the
// `?` dims of gradients) are not batched: vmap maps static sizes.
//
//===----------------------------------------------------------------------===//

#include "BatchingRules.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

/// [value, original...]
static SmallVector<int64_t> prepend(int64_t value, ArrayRef<int64_t> original) {
  SmallVector<int64_t> result = {value};
  llvm::append_range(result, original);
  return result;
}

static LogicalResult refuseLike(Operation *op) {
  return op->emitOpError("with `like` cannot be batched (vmap): its sizes "
                         "come at run time");
}

static LogicalResult refuseDynamic(Operation *op, Type type) {
  return op->emitOpError("cannot be batched (vmap) at the dynamic type ")
         << type << ": vmap maps static shapes";
}

namespace {

/// reshape: each example to the original's shape.
struct ReshapeBatching
    : BatchableOpInterface::ExternalModel<ReshapeBatching, ReshapeOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto reshape = cast<ReshapeOp>(op);
    if (reshape.getLike())
      return refuseLike(op);
    if (!reshape.getType().hasStaticShape())
      return refuseDynamic(op, reshape.getType());
    Value x = state.lookup(reshape.getX());
    auto batched = ReshapeOp::create(
        builder, op->getLoc(), x,
        prepend(state.batchSize(), reshape.getType().getShape()));
    state.map(reshape.getResult(), batched, /*batched=*/true);
    return success();
  }
};

/// broadcast_to: each example broadcast to the original's shape (unit dims
/// after the batch dim align it first).
struct BroadcastToBatching
    : BatchableOpInterface::ExternalModel<BroadcastToBatching, BroadcastToOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto broadcast = cast<BroadcastToOp>(op);
    if (broadcast.getLike())
      return refuseLike(op);
    RankedTensorType type = broadcast.getType();
    if (!type.hasStaticShape())
      return refuseDynamic(op, type);
    FailureOr<Value> x = alignedOperand(builder, op->getLoc(), state,
                                        broadcast.getX(), type.getRank());
    if (failed(x))
      return failure();
    auto batched = BroadcastToOp::create(
        builder, op->getLoc(), *x, prepend(state.batchSize(), type.getShape()));
    state.map(broadcast.getResult(), batched, /*batched=*/true);
    return success();
  }
};

/// transpose: the batch dim stays in front.
struct TransposeBatching
    : BatchableOpInterface::ExternalModel<TransposeBatching, TransposeOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto transpose = cast<TransposeOp>(op);
    SmallVector<int64_t> perm = {0};
    for (int64_t dim : transpose.getPerm())
      perm.push_back(dim + 1);
    Operation *batched = rebuild(
        builder, op, state.lookup(transpose.getX()),
        withBatchDim(transpose.getType(), state.batchSize()),
        {builder.getNamedAttr(transpose.getPermAttrName(),
                              builder.getDenseI64ArrayAttr(perm))});
    state.map(transpose.getResult(), batched->getResult(0), true);
    return success();
  }
};

/// slice: all of the batch dim.
struct SliceBatching
    : BatchableOpInterface::ExternalModel<SliceBatching, SliceOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto slice = cast<SliceOp>(op);
    if (slice.getLike())
      return refuseLike(op);
    SmallVector<NamedAttribute> attributes = {builder.getNamedAttr(
        slice.getStartAttrName(),
        builder.getDenseI64ArrayAttr(prepend(0, slice.getStart())))};
    if (std::optional<ArrayRef<int64_t>> limit = slice.getLimit())
      attributes.push_back(builder.getNamedAttr(
          slice.getLimitAttrName(),
          builder.getDenseI64ArrayAttr(prepend(state.batchSize(), *limit))));
    if (std::optional<ArrayRef<int64_t>> strides = slice.getStrides())
      attributes.push_back(builder.getNamedAttr(
          slice.getStridesAttrName(),
          builder.getDenseI64ArrayAttr(prepend(1, *strides))));
    Operation *batched =
        rebuild(builder, op, state.lookup(slice.getX()),
                withBatchDim(slice.getType(), state.batchSize()), attributes);
    state.map(slice.getResult(), batched->getResult(0), true);
    return success();
  }
};

/// pad: nothing along the batch dim.
struct PadBatching : BatchableOpInterface::ExternalModel<PadBatching, PadOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto pad = cast<PadOp>(op);
    if (pad.getLike())
      return refuseLike(op);
    SmallVector<NamedAttribute> attributes = {builder.getNamedAttr(
        pad.getLowAttrName(),
        builder.getDenseI64ArrayAttr(prepend(0, pad.getLow())))};
    if (std::optional<ArrayRef<int64_t>> high = pad.getHigh())
      attributes.push_back(builder.getNamedAttr(
          pad.getHighAttrName(),
          builder.getDenseI64ArrayAttr(prepend(0, *high))));
    Operation *batched =
        rebuild(builder, op, state.lookup(pad.getX()),
                withBatchDim(pad.getType(), state.batchSize()), attributes);
    state.map(pad.getResult(), batched->getResult(0), true);
    return success();
  }
};

/// size: an example's size, the same for every example (unbatched).
struct SizeBatching : BatchableOpInterface::ExternalModel<SizeBatching, SizeOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto size = cast<SizeOp>(op);
    int64_t rank = size.getX().getType().getRank();
    SmallVector<int64_t> axes;
    if (std::optional<ArrayRef<int64_t>> original = size.getAxes()) {
      for (int64_t axis : *original)
        axes.push_back(axis < 0 ? axis : axis + 1);
    } else {
      for (int64_t axis = 0; axis < rank; ++axis)
        axes.push_back(axis + 1);
    }
    Operation *batched =
        rebuild(builder, op, state.lookup(size.getX()), size.getType(),
                {builder.getNamedAttr(size.getAxesAttrName(),
                                      builder.getDenseI64ArrayAttr(axes))});
    state.map(size.getResult(), batched->getResult(0), /*batched=*/false);
    return success();
  }
};

/// gather: with params batched, along the same axis one further on; with
/// indices batched, the batch dim of the result (where the indices' dims
/// go) moved to the front. Both batched (a different table per example)
/// has no rule yet.
struct GatherBatching
    : BatchableOpInterface::ExternalModel<GatherBatching, GatherOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto gather = cast<GatherOp>(op);
    bool params = state.isBatched(gather.getParams());
    bool indices = state.isBatched(gather.getIndices());
    // A table and indices per example: one gather per example.
    if (params && indices)
      return state.emitLoop(builder, op);
    int64_t rank = gather.getParams().getType().getRank();
    int64_t axis = gather.getAxis() < 0 ? gather.getAxis() + rank
                                        : gather.getAxis();
    Location loc = op->getLoc();
    Value paramsValue = state.lookup(gather.getParams());
    Value indicesValue = state.lookup(gather.getIndices());
    if (params) {
      Operation *batched = rebuild(
          builder, op, {paramsValue, indicesValue},
          withBatchDim(gather.getType(), state.batchSize()),
          {builder.getNamedAttr(gather.getAxisAttrName(),
                                builder.getI64IntegerAttr(axis + 1))});
      state.map(gather.getResult(), batched->getResult(0), true);
      return success();
    }
    // The indices' batch dim lands at `axis` of the result.
    SmallVector<int64_t> shape(gather.getType().getShape());
    shape.insert(shape.begin() + axis, state.batchSize());
    Operation *batched =
        rebuild(builder, op, {paramsValue, indicesValue},
                gather.getType().clone(shape),
                {builder.getNamedAttr(gather.getAxisAttrName(),
                                      builder.getI64IntegerAttr(axis))});
    Value result = batched->getResult(0);
    if (axis != 0) {
      SmallVector<int64_t> perm = {axis}, moved = {shape[axis]};
      for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
        if (d != axis) {
          perm.push_back(d);
          moved.push_back(shape[d]);
        }
      result = TransposeOp::create(builder, loc, gather.getType().clone(moved),
                                   result, builder.getDenseI64ArrayAttr(perm));
    }
    state.map(gather.getResult(), result, true);
    return success();
  }
};

} // namespace

void mlir::trace::registerShapeBatching(MLIRContext *context) {
  GatherOp::attachInterface<GatherBatching>(*context);
  ReshapeOp::attachInterface<ReshapeBatching>(*context);
  BroadcastToOp::attachInterface<BroadcastToBatching>(*context);
  TransposeOp::attachInterface<TransposeBatching>(*context);
  SliceOp::attachInterface<SliceBatching>(*context);
  PadOp::attachInterface<PadBatching>(*context);
  SizeOp::attachInterface<SizeBatching>(*context);
}
