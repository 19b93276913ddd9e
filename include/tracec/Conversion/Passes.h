//===- Passes.h - Conversions out of the trace dialect --------------------===//

#ifndef TRACEC_CONVERSION_PASSES_H
#define TRACEC_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::trace {

#define GEN_PASS_DECL
#include "tracec/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tracec/Conversion/Passes.h.inc"

} // namespace mlir::trace

#endif // TRACEC_CONVERSION_PASSES_H
