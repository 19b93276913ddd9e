//===- Passes.h - tracec CPU code generation passes ----------------------------------===//

#ifndef TRACEC_TARGET_CPU_PASSES_H
#define TRACEC_TARGET_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"

namespace mlir::trace {

#define GEN_PASS_DECL
#include "tracec/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tracec/Codegen/CPU/Passes.h.inc"

} // namespace mlir::trace

#endif // TRACEC_TARGET_CPU_PASSES_H
