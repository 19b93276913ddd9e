//===- Passes.h - tracec bufferization helpers passes ----------------------------------===//

#ifndef TRACEC_TRANSFORMS_BUFFERIZATION_PASSES_H
#define TRACEC_TRANSFORMS_BUFFERIZATION_PASSES_H

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"

namespace mlir::trace {

/// Marks a function that only borrows its memref arguments: it neither
/// keeps, frees nor returns them (the kernels trace-cpu-dedup-kernels
/// outlines). A buffer passed to a call of it stays the caller's own, which
/// trace-plan-workspace may place in the workspace.
inline constexpr llvm::StringLiteral kBorrowsArgumentsAttrName =
    "trace.borrows_arguments";

#define GEN_PASS_DECL
#include "tracec/Transforms/Bufferization/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tracec/Transforms/Bufferization/Passes.h.inc"

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_BUFFERIZATION_PASSES_H
