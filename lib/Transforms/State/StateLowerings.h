//===- StateLowerings.h - Lowerings of trace-lower-state's stateful ops ---===//

#ifndef TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H
#define TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

namespace mlir::trace {

/// random_uniform / random_normal: the op's run counter lives in a private
/// i64 `memref.global` (0 in a fresh module) that `memref.atomic_rmw`
/// advances on every run; a `linalg.generic` draws the numbers with Philox.
/// Replaces the tensor result; the caller erases the op and its token.
LogicalResult lowerRandom(Operation *random, SymbolTable &symbols);

/// print: a call of tracec_print_tensor (tracec/Runtime/PrintCallback.h)
/// on a contiguous copy of the tensor. The caller erases the op.
LogicalResult lowerPrint(PrintOp print, SymbolTable &symbols);

/// Drops the control tokens that scf ops carry (token operands, results,
/// block arguments and yield operands) and the trace.group joins, so that
/// only the stateful ops' own tokens remain for the caller to erase.
void stripRegionTokens(func::FuncOp func);

} // namespace mlir::trace

#endif // TRACEC_LIB_TRANSFORMS_STATELOWERINGS_H
