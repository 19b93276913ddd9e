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
    dims); reductions become linalg.reduce. Dynamic dims get their sizes from
    `tensor.dim`; sizes that must agree but that the verifier could not
    compare become `cf.assert` checks (see trace-shape-functions). An op
    that cannot be lowered is reported with its location and the reason.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def TraceShapeFunctions : Pass<"trace-shape-functions", "::mlir::ModuleOp"> {
  let summary = "Per-entry shape functions that run the run-time size checks";
  let description = [{
    For every public function @f with a dynamic dim in its signature or a
    size check (`cf.assert (a == b)` from trace-to-linalg) in its body,
    adds `@__shape_f(<@f's arguments>, memref<Nxi64>)`: it writes the
    status of the checks (0, or 1 + the first failing check, with the two
    sizes it compared), then the dims of @f's dynamic result dims. The
    message of check k is the constant string `@__shape_f_check_<k>`. The
    checks are removed from @f: callers run the shape function first.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def TraceFuseElementwise : Pass<"trace-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops, keeping contractions pure";
  let description = [{
    Upstream's linalg-fuse-elementwise-ops (elementwise producers with one
    use into their consumers, reshapes folded by expansion, constants
    folded), except that nothing is fused into a contraction or a
    convolution: a producer fused into a transposed matmul's
    linalg.generic (`matmul(relu(a + b), w) {transpose_a}`) makes its body
    more than a multiply-add, so it is no longer recognized as a
    contraction and loses the packed micro-kernels (a scalar loop, ~100x
    slower). The producer then runs as its own elementwise op.

    A contraction with a splat operand (a splat constant or a fill:
    `ones((32, 256)) @ w`, an RNN's zero state) becomes the sum of its
    other operand over the contracted dims, scaled by the splat value and
    broadcast. Packed as it is, the splat's pack folds to a fill, which
    later fusion folds into the packed contraction: a generic loop with
    the reduction innermost, not the micro-kernel (70x slower than the same
    matmul with the matrix passed in).
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // TRACEC_CONVERSION_PASSES
