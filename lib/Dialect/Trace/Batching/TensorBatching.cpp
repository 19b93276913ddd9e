//===- TensorBatching.cpp - Rules of the tensor dialect's ops -------------===//
//
// The tensor ops a traced program holds: a cond's `tensor.extract` of its
// condition, a loop's `x[i]` (`tensor.extract_slice` at the loop index),
// and the tapes of a loop's gradient (slices inserted and extracted at
// the iteration). A slice at an offset the same for every example is the
// same slice of every example; an offset per example runs once per example
// (the fallback).
//
//===----------------------------------------------------------------------===//

#include "BatchingRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// tensor.extract of a batched rank-0 tensor: the batch's values, as a
/// rank-1 tensor (how a batched scalar is represented).
struct ExtractBatching
    : BatchableOpInterface::ExternalModel<ExtractBatching, tensor::ExtractOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto extract = cast<tensor::ExtractOp>(op);
    if (extract.getTensor().getType().getRank() != 0)
      return state.emitLoop(builder, op);
    state.map(extract.getResult(), state.lookup(extract.getTensor()),
              /*batched=*/true);
    return success();
  }
};

/// Whether a slice's offsets, sizes or strides vary across the batch.
bool variesPerExample(OffsetSizeAndStrideOpInterface slice,
                      BatchState &state) {
  return llvm::any_of(slice->getOperands().drop_front(
                          slice.getOffsetSizeAndStrideStartOperandIndex()),
                      [&](Value v) { return state.isBatched(v); });
}

/// A slice's offsets, sizes and strides with the batch dim's in front
/// (the whole batch), the dynamic ones looked up.
struct BatchedSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};

BatchedSlice batchedSlice(OffsetSizeAndStrideOpInterface slice,
                          OpBuilder &builder, BatchState &state) {
  auto lookedUp = [&](SmallVector<OpFoldResult> mixed) {
    for (OpFoldResult &entry : mixed)
      if (auto value = dyn_cast<Value>(entry))
        entry = state.lookup(value);
    return mixed;
  };
  BatchedSlice batched;
  batched.offsets.push_back(builder.getIndexAttr(0));
  batched.sizes.push_back(builder.getIndexAttr(state.batchSize()));
  batched.strides.push_back(builder.getIndexAttr(1));
  llvm::append_range(batched.offsets, lookedUp(slice.getMixedOffsets()));
  llvm::append_range(batched.sizes, lookedUp(slice.getMixedSizes()));
  llvm::append_range(batched.strides, lookedUp(slice.getMixedStrides()));
  return batched;
}

struct ExtractSliceBatching
    : BatchableOpInterface::ExternalModel<ExtractSliceBatching,
                                          tensor::ExtractSliceOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto slice = cast<tensor::ExtractSliceOp>(op);
    if (variesPerExample(slice, state))
      return state.emitLoop(builder, op);
    BatchedSlice batched = batchedSlice(slice, builder, state);
    Value result = tensor::ExtractSliceOp::create(
        builder, op->getLoc(),
        withBatchDim(slice.getType(), state.batchSize()),
        state.lookup(slice.getSource()), batched.offsets, batched.sizes,
        batched.strides);
    state.map(slice.getResult(), result, /*batched=*/true);
    return success();
  }
};

struct InsertSliceBatching
    : BatchableOpInterface::ExternalModel<InsertSliceBatching,
                                          tensor::InsertSliceOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto slice = cast<tensor::InsertSliceOp>(op);
    if (variesPerExample(slice, state))
      return state.emitLoop(builder, op);
    BatchedSlice batched = batchedSlice(slice, builder, state);
    Value result = tensor::InsertSliceOp::create(
        builder, op->getLoc(), state.materialize(builder, slice.getSource()),
        state.materialize(builder, slice.getDest()), batched.offsets,
        batched.sizes, batched.strides);
    state.map(slice.getResult(), result, /*batched=*/true);
    return success();
  }
};

/// tensor.dim of a batched tensor: the same dim, one further on.
struct DimBatching
    : BatchableOpInterface::ExternalModel<DimBatching, tensor::DimOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto dim = cast<tensor::DimOp>(op);
    if (state.isBatched(dim.getIndex()))
      return state.emitLoop(builder, op);
    Location loc = op->getLoc();
    Value next = arith::AddIOp::create(
        builder, loc, state.lookup(dim.getIndex()),
        arith::ConstantIndexOp::create(builder, loc, 1));
    state.map(dim.getResult(),
              tensor::DimOp::create(builder, loc,
                                    state.lookup(dim.getSource()), next),
              /*batched=*/false);
    return success();
  }
};

} // namespace

void mlir::trace::registerTensorBatching(MLIRContext *context) {
  tensor::ExtractOp::attachInterface<ExtractBatching>(*context);
  tensor::ExtractSliceOp::attachInterface<ExtractSliceBatching>(*context);
  tensor::InsertSliceOp::attachInterface<InsertSliceBatching>(*context);
  tensor::DimOp::attachInterface<DimBatching>(*context);
}
