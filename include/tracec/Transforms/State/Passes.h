//===- Passes.h - tracec control dependencies and state lowering passes ----------------------------------===//

#ifndef TRACEC_TRANSFORMS_STATE_PASSES_H
#define TRACEC_TRANSFORMS_STATE_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"

namespace mlir::trace {

#define GEN_PASS_DECL
#include "tracec/Transforms/State/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tracec/Transforms/State/Passes.h.inc"

/// The memory effects of mpi.allreduce (reads its send buffer, writes its
/// receive buffer), which upstream does not declare and which buffer
/// deallocation needs after trace-lower-state's collectives.
void registerMpiMemoryEffects(DialectRegistry &registry);

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_STATE_PASSES_H
