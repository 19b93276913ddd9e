//===- Passes.td - Conversions out of the trace dialect ------*- tablegen -*-===//

#ifndef TRACEC_CONVERSION_PASSES
#define TRACEC_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def TraceToLinalg : Pass<"trace-to-linalg"> {
  let summary = "Lower trace ops to linalg, tensor, arith and math";
  let description = [{
    Elementwise ops (with NumPy broadcasting) become `linalg.generic` ops
    whose broadcast operands are read through indexing maps, so no
    broadcast is materialized. matmul becomes linalg.matmul or
    linalg.batch_matmul (linalg.generic with transposes or broadcast batch
    dims); reductions become linalg.reduce. An op that cannot be lowered (for now: one
    with dynamic dims) is reported with its location and the reason.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // TRACEC_CONVERSION_PASSES
