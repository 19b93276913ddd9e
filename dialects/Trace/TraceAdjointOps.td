//===- TraceAdjointOps.td - Adjoints of the selecting ops --*- tablegen -*-===//
//
// scatter_add undoes gather, and max_pool2d_select undoes max_pool2d_grad.
// Each is the transpose of the other op of its pair, so both pairs are
// closed under differentiation (derivatives of any order). Their own file
// (and TraceAdjointOps.h.inc): the trace dialect registers them next to
// TraceOps.td's ops.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_ADJOINT_OPS_TD
#define TRACE_ADJOINT_OPS_TD

include "Trace/TraceBase.td"


// The adjoint of gather with the same `axis`: every slice of `updates` is
// added into `operand` at its index, duplicates summing. Indices are clamped
// to [0, dim - 1] exactly as gather clamps them, so
// <scatter_add(0, i, u), p> == <u, gather(p, i)> for every i.
def Trace_ScatterAddOp : Trace_Op<"scatter_add",
                                  [Pure, InferTypeOpAdaptor]> {
  let summary = "add `updates` into `operand` at `indices` along `axis`";
  let description = [{
    `updates` has gather's result shape for `operand` and `indices`:
    `operand.shape[:axis] + indices.shape + operand.shape[axis+1:]`; the
    result has `operand`'s type. For operand [P, N, Q] (N at `axis`) and
    indices [I]:
      result[p, clamp(indices[i], 0, N - 1), q] += updates[p, i, q]
    for every i, in any order (repeated indices add up, as NumPy's
    `np.add.at`). `?` dims are allowed anywhere; an empty `axis` with
    indices to clamp into it is an error at run time, as for gather.
    ```mlir
    %t = trace.scatter_add %table, %ids, %rows {axis = 0} : (tensor<?x64xf32>, tensor<?xi32>, tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
    Tangent (forward mode): t_result = scatter_add(t_operand, indices,
    t_updates) (the op is linear in operand and updates together).
  }];
  let arguments = (ins Trace_Tensor:$operand, Trace_IndexTensor:$indices,
                       Trace_Tensor:$updates,
                       DefaultValuedAttr<Trace_I64Attr, "0">:$axis);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat =
      "$operand `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

// For every max_pool2d window of `input`, the value of `t` at the window's
// maximum of `input` (the FIRST one in row-major window order on ties, a NaN
// counting as the largest value; padding is never picked), i.e.
// max_pool2d_grad transposed: <max_pool2d_grad(x, dy), t> ==
// <dy, max_pool2d_select(x, t)>.
def Trace_MaxPool2DSelectOp : Trace_Op<"max_pool2d_select",
                                       [Pure, InferTypeOpAdaptor]> {
  let summary = "`t` at each max_pool2d window's argmax of `input`";
  let description = [{
    `t` has `input`'s shape; the result has max_pool2d's shape. With
    `t = input` it is max_pool2d itself.
    ```mlir
    %s = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
    ```
    Tangent (forward mode): t_result = max_pool2d_select(input, t_t) (the
    argmax is piecewise constant in `input`); it is also max_pool2d's
    tangent: t_y = max_pool2d_select(x, t_x).
  }];
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$t,
      DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $t attr-dict `:` functional-type(operands, results)";
}

#endif // TRACE_ADJOINT_OPS_TD
