//===- StateLowerings.h - Lowerings of trace-lower-state's stateful ops ---===//

#ifndef TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H
#define TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H

#include "mlir/IR/SymbolTable.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

namespace mlir::trace {

/// random_uniform / random_normal: the op's run counter lives in a private
/// i64 `memref.global` (0 in a fresh module) that `memref.atomic_rmw`
/// advances on every run; a `linalg.generic` draws the numbers with Philox.
/// Replaces the tensor result; the caller erases the op and its token.
LogicalResult lowerRandom(Operation *random, SymbolTable &symbols);

/// print: a call of tracec_print_tensor (tracec/ABI/tracec_print.h)
/// on a contiguous copy of the tensor. The caller erases the op.
LogicalResult lowerPrint(PrintOp print, SymbolTable &symbols);

} // namespace mlir::trace

#endif // TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H
