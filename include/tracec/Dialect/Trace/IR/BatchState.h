//===- BatchState.h - What a batching rule sees of trace-vmap -------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_BATCHSTATE_H
#define TRACEC_DIALECT_TRACE_IR_BATCHSTATE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::trace {

/// A batched function and which of its results are batched (the others are
/// the same for every example and keep their type).
struct BatchedFunction {
  func::FuncOp func;
  SmallVector<bool> batchedResults;
};

/// What a batching rule (BatchableOpInterface) sees of the function being
/// batched. Values passed in are the ORIGINAL function's; the state maps
/// them to the batched function being built. A batched value has the
/// original's type with a leading batch dim of `batchSize()` (a batched
/// scalar, as `tensor.extract` of a batched rank-0 tensor gives, is that
/// rank-1 tensor); an unbatched one is the same for every example and keeps
/// the original type.
class BatchState {
public:
  virtual ~BatchState() = default;

  /// The size of the batch dim (static).
  virtual int64_t batchSize() = 0;
  /// The batched function's value for an original value.
  virtual Value lookup(Value original) = 0;
  /// Whether that value carries the batch dim.
  virtual bool isBatched(Value original) = 0;
  /// The value with the batch dim: an unbatched one broadcast along a new
  /// leading dim.
  virtual Value materialize(OpBuilder &builder, Value original) = 0;
  /// Records the batched function's value for an original result.
  virtual void map(Value original, Value value, bool batched) = 0;
  /// Emits the ops of `block` (not its terminator) at `builder`, batched as
  /// the function's own ops are, and maps their results: for the rules of
  /// region ops.
  virtual LogicalResult emitBlock(OpBuilder &builder, Block &block) = 0;
  /// Emits `op` once per example, in a loop over the batch (each batched
  /// value it reads sliced to its example, its results stacked), and maps
  /// its results as batched: the fallback for ops without a batching rule,
  /// and for the cases a rule does not cover. Correct for any op whose
  /// results are static tensors or scalars, without the batch's
  /// parallelism.
  virtual LogicalResult emitLoop(OpBuilder &builder, Operation *op) = 0;
  /// The batched form of function `callee`, its arguments batched where
  /// `batchedArgs` says; with `batchAllResults`, its results are all
  /// batched (unbatched ones broadcast). Generated once per callee and
  /// batching.
  virtual FailureOr<BatchedFunction>
  batchedCallee(Location loc, FlatSymbolRefAttr callee,
                ArrayRef<bool> batchedArgs, bool batchAllResults) = 0;
};

/// `type` (a ranked tensor) with a leading dim of `size`; a scalar type as
/// a rank-1 tensor of `size`.
RankedTensorType withBatchDim(Type type, int64_t size);

} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_IR_BATCHSTATE_H
