//===- TraceLinearAlgebraOps.td - matmul -------------------*- tablegen -*-===//
//
// Linear algebra: matmul (2-D and batched, broadcasting batch dims).
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_LINEAR_ALGEBRA_OPS_TD
#define TRACE_LINEAR_ALGEBRA_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"

def Trace_MatmulOp : Trace_Op<"matmul",
                              [Pure, InferTypeOpAdaptor, Trace_ReifiesShapes,
                               Trace_Contraction,
                               Trace_PromotesOperands]> {
  let summary = "matrix product, batched over broadcast leading dims";
  let description = [{
    `lhs` is `[..., M, K]` (`[..., K, M]` with `transpose_a`), `rhs` is
    `[..., K, N]` (`[..., N, K]` with `transpose_b`); the batch dims broadcast
    as in NumPy. Both operands are at least 2-D.
  }];
  let arguments = (ins Trace_NumericTensor:$lhs, Trace_NumericTensor:$rhs,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let results = (outs Trace_NumericTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  // Outer products (contraction dim 1) as multiplies; a batch of matrices
  // times one matrix as one product.
  let hasCanonicalizer = 1;
}

#endif // TRACE_LINEAR_ALGEBRA_OPS_TD
