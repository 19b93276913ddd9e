//===- BatchingRules.h - Shared by the batching rules ---------------------===//

#ifndef TRACEC_LIB_DIALECT_TRACE_BATCHING_BATCHINGRULES_H
#define TRACEC_LIB_DIALECT_TRACE_BATCHING_BATCHINGRULES_H

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"

namespace mlir::trace {

/// The batched form of original `operand` with its example dims aligned to
/// `rank` (NumPy broadcasting aligns trailing dims, so a batched operand of
/// lower rank gets unit dims after its batch dim); unbatched operands are
/// returned as they are, as broadcasting already aligns them.
FailureOr<Value> alignedOperand(OpBuilder &builder, Location loc,
                                BatchState &state, Value operand,
                                int64_t rank);

/// `op` built again at `builder` with `operands`, `resultTypes` and its
/// attributes, with those of `replaced` replaced.
Operation *rebuild(OpBuilder &builder, Operation *op, ValueRange operands,
                   TypeRange resultTypes,
                   ArrayRef<NamedAttribute> replaced = {});

void registerShapeBatching(MLIRContext *context);
void registerConvPoolBatching(MLIRContext *context);
void registerCallBatching(MLIRContext *context);
void registerGradientRequestBatching(MLIRContext *context);
void registerTensorBatching(MLIRContext *context);
void registerControlFlowBatching(MLIRContext *context);

} // namespace mlir::trace

#endif // TRACEC_LIB_DIALECT_TRACE_BATCHING_BATCHINGRULES_H
