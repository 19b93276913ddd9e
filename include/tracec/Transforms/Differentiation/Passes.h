//===- Passes.h - tracec differentiation passes ----------------------------------===//

#ifndef TRACEC_TRANSFORMS_DIFFERENTIATION_PASSES_H
#define TRACEC_TRANSFORMS_DIFFERENTIATION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"

namespace mlir::trace {

#define GEN_PASS_DECL
#include "tracec/Transforms/Differentiation/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tracec/Transforms/Differentiation/Passes.h.inc"

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_DIFFERENTIATION_PASSES_H
