//===- TraceBatchingOps.td - vmap --------------------------*- tablegen -*-===//
//
// vmap, which references the function to batch by symbol and is replaced by
// trace-vmap.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_BATCHING_OPS_TD
#define TRACE_BATCHING_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"
include "mlir/IR/SymbolInterfaces.td"

def Trace_VmapOp : Trace_Op<"vmap", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the function mapped over a batch dim of its arguments";
  let description = [{
    JAX's `vmap`: runs `callee` once per index of the batch dim of the
    mapped arguments and stacks the results along their batch dims.
    ```mlir
    %y = trace.vmap @f(%xs, %w) {in_axes = array<i64: 1, -1>,
                                 out_axes = array<i64: 0>}
        : (tensor<3x8xf32>, tensor<3xf32>) -> tensor<8x3xf32>
    ```
    `in_axes` gives, per argument, the dim that is mapped (-1: the argument
    is not mapped, every example sees all of it; an unmapped argument may be
    any type, a loop bound's `index` too); the mapped dims have one
    static size, the batch size. `out_axes` gives, per result, where the
    batch dim goes; each result has the callee's result type with that dim
    inserted. The callee must not use variables (pass their values).
    `trace-vmap` rewrites the op into a call of the generated batched
    function, built by the ops' batching rules (BatchableOpInterface).
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
                       DenseI64ArrayAttr:$in_axes, DenseI64ArrayAttr:$out_axes);
  let results = (outs Variadic<Trace_Tensor>:$results);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` "
                       "functional-type($args, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The size of the mapped dims (checked equal and static by the
    /// verifier; 0 when no argument is mapped).
    int64_t getBatchSize();
  }];
}

#endif // TRACE_BATCHING_OPS_TD
