//===- Batching.h - Attaching the batching rules --------------------------===//

#ifndef TRACEC_DIALECT_TRACE_BATCHING_BATCHING_H
#define TRACEC_DIALECT_TRACE_BATCHING_BATCHING_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::trace {

/// Attaches BatchableOpInterface (trace-vmap's rules) to the trace ops and
/// func.call.
void registerBatchingRules(DialectRegistry &registry);

} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_BATCHING_BATCHING_H
