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

#define GEN_PASS_DECL
#include "tracec/Transforms/Bufferization/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tracec/Transforms/Bufferization/Passes.h.inc"

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_BUFFERIZATION_PASSES_H
