//===- InferResultTypes.h - Ops built from operands alone -----------------===//
//
// The tracers (the C++ frontend, the GraphDef importer) build ops by name
// from operands and attributes, with the result types the op infers. An
// op's properties only exist once it is created, so it is created with
// placeholder result types, then given the inferred ones.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_INFERRESULTTYPES_H
#define TRACEC_DIALECT_TRACE_IR_INFERRESULTTYPES_H

#include "mlir/IR/Operation.h"

namespace mlir::trace {

/// Creates (not inserted) the op `state` describes, with `numResults`
/// results whose types its InferTypeOpInterface infers. On failure
/// (inference fails, or gives another number of results) the diagnostics
/// are emitted at the state's location and the op is destroyed: null.
Operation *createWithInferredTypes(OperationState &state, unsigned numResults);

} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_IR_INFERRESULTTYPES_H
