//===- TraceShapeOps.td - Shape ops ------------------------*- tablegen -*-===//
//
// reshape, transpose, broadcast_to, size, concat, slice, pad, split, gather
// and one_hot; scatter_add, gather's adjoint (each is the transpose of the
// other, so the pair is closed under differentiation).
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_SHAPE_OPS_TD
#define TRACE_SHAPE_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"

def Trace_ReshapeOp : Trace_Op<"reshape", [Pure, Trace_ReifiesShapes]> {
  let summary = "same elements (row-major order), new shape";
  let description = [{
    Without `like`, a `?` result dim is NumPy's -1, inferred from the
    element count (so there is one at most), except where the reshape only
    inserts or removes unit dims: then each `?` keeps its operand dim's size.
    With `like`, the result has `like`'s shape at run time (any number of
    `?`; the element counts must agree, checked at run time): what the
    gradient of a flattening reshape needs to restore a shape with several
    `?` dims.
    ```mlir
    %r = trace.reshape %dy like %x : tensor<?x4xf32>, tensor<?x?x4xf32> -> tensor<?x?x4xf32>
    ```
  }];
  let arguments = (ins Trace_Tensor:$x, Optional<Trace_Tensor>:$like);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = [{
    $x (`like` $like^)? attr-dict `:` type($x) (`,` type($like)^)? `->`
    type($result)
  }];
  let builders = [
    // `shape` may hold one -1, inferred from the element count.
    OpBuilder<(ins "::mlir::Value":$x, "::llvm::ArrayRef<int64_t>":$shape)>,
    // A reshape to `type` (no `like`).
    OpBuilder<(ins "::mlir::Type":$type, "::mlir::Value":$x), [{
      build($_builder, $_state, type, x, ::mlir::Value());
    }]>,
    // `like`'s shape, `x`'s element type.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$like)>
  ];
  let hasFolder = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Trace_TransposeOp : Trace_Op<"transpose", [Pure, InferTypeOpAdaptor,
                                                Trace_ReifiesShapes]> {
  let summary = "permute dims: result dim i is operand dim perm[i]";
  let arguments = (ins Trace_Tensor:$x, DenseI64ArrayAttr:$perm);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Trace_BroadcastToOp : Trace_Op<"broadcast_to",
                                   [Pure,
                                    Trace_ReifiesShapes]> {
  let summary = "NumPy broadcast to the result shape";
  let description = [{
    Without `like`, a `?` result dim takes its size from the aligned `?`
    dim of `x`. With `like`, the result has `like`'s shape at run time
    (StableHLO's dynamic_broadcast_in_dim, the output dims read off a
    value, as TensorFlow's gradients read them with tf.shape): how a
    gradient broadcasts a cotangent back to an operand with `?` dims. `x`'s
    dims broadcast as in NumPy (a static 1 stretches; other sizes must
    equal `like`'s, checked at run time where a side is `?`).
    ```mlir
    %r = trace.broadcast_to %dy like %x : tensor<1x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Trace_Tensor:$x, Optional<Trace_Tensor>:$like);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = [{
    $x (`like` $like^)? attr-dict `:` type($x) (`,` type($like)^)? `->`
    type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::llvm::ArrayRef<int64_t>":$shape)>,
    // A broadcast to `type` (no `like`).
    OpBuilder<(ins "::mlir::Type":$type, "::mlir::Value":$x), [{
      build($_builder, $_state, type, x, ::mlir::Value());
    }]>,
    // `like`'s shape, `x`'s element type.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$like)>
  ];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Trace_SizeOp : Trace_Op<"size", [Pure]> {
  let summary = "the number of elements of `x` along `axes`";
  let description = [{
    TensorFlow's `tf.size` over some dims: the product of the sizes of dims
    `axes` of `x` (all of them when `axes` is omitted; negative axes count
    from the end), as a rank-0 tensor of the result's element type. It
    reads only `x`'s shape: it folds to a constant where those dims are
    static, and reads them at run time where they are `?` (the count of a
    mean's gradient over a dynamic batch).
    ```mlir
    %n = trace.size %x {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<f32>
    ```
  }];
  let arguments = (ins Trace_Tensor:$x,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Trace_NumericTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::llvm::ArrayRef<int64_t>":$axes,
                   "::mlir::Type":$elementType)>
  ];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Trace_ConcatOp : Trace_Op<"concat", [Pure, InferTypeOpAdaptor,
                                          Trace_ReifiesShapes,
                                          Trace_PromotesOperands]> {
  let summary = "join tensors along `axis`";
  let arguments = (ins Variadic<Trace_Tensor>:$inputs, Trace_I64Attr:$axis);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type($inputs, results)";
  let hasFolder = 1;
}

def Trace_SliceOp : Trace_Op<"slice",
                             [Pure,
                              InferTypeOpAdaptor,
                              Trace_ReifiesShapes]> {
  let summary = "x[start:limit:strides] per dim";
  let description = [{
    `0 <= start <= limit <= dim` and `strides >= 1` (all ones when omitted).
    With `like` instead of `limit`, the result has `like`'s shape at run
    time: `x[start : start + dim(like)]` per dim, unit strides (the bound is
    checked at run time where a size is `?`). That is how pad's gradient
    takes its operand's window back out of a cotangent with `?` dims.
    ```mlir
    %r = trace.slice %dy like %x {start = array<i64: 0, 1>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Trace_Tensor:$x, Optional<Trace_Tensor>:$like,
                       DenseI64ArrayAttr:$start,
                       OptionalAttr<DenseI64ArrayAttr>:$limit,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = [{
    $x (`like` $like^)? attr-dict `:` type($x) (`,` type($like)^)? `->`
    type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::llvm::ArrayRef<int64_t>":$start,
                   "::llvm::ArrayRef<int64_t>":$limit,
                   "::mlir::DenseI64ArrayAttr":$strides)>,
    // `like`'s shape from `start`.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$like,
                   "::llvm::ArrayRef<int64_t>":$start)>
  ];
  let hasFolder = 1;
}

def Trace_PadOp : Trace_Op<"pad", [Pure, InferTypeOpAdaptor,
                                    Trace_ReifiesShapes]> {
  let summary = "pad each dim with `low`/`high` elements of `value`";
  let description = [{
    With `like` instead of `high`, the result has `like`'s shape at run
    time: each dim gets `low` elements before and whatever `like`'s size
    leaves after (at least 0, checked at run time where a size is `?`). That
    is how slice's gradient puts a cotangent back into its operand's shape
    where that has `?` dims.
    ```mlir
    %r = trace.pad %dy like %x {low = array<i64: 0, 1>} : tensor<?x2xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Trace_Tensor:$x, Optional<Trace_Tensor>:$like,
                       DenseI64ArrayAttr:$low,
                       OptionalAttr<DenseI64ArrayAttr>:$high,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = [{
    $x (`like` $like^)? attr-dict `:` type($x) (`,` type($like)^)? `->`
    type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::llvm::ArrayRef<int64_t>":$low,
                   "::llvm::ArrayRef<int64_t>":$high,
                   "const ::llvm::APFloat &":$value)>,
    // Zero padding up to `like`'s shape.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$like,
                   "::llvm::ArrayRef<int64_t>":$low)>
  ];
  let hasFolder = 1;
}

def Trace_SplitOp : Trace_Op<"split",
                             [Pure,
                              InferTypeOpAdaptor,
                              Trace_ReifiesShapes]> {
  let summary = "cut `x` along `axis` into pieces shaped like the `like` operands";
  let description = [{
    The inverse of concat (TensorFlow's `tf.split` with `size_splits`, the
    sizes read off values at run time): result k has `x`'s element type and
    the shape of `like` operand k, and starts along `axis` where result
    k - 1 ends. The pieces must cover `x` along the axis and have its other
    dims (checked at run time where a size is `?`). That is how concat's
    gradient cuts its cotangent where the inputs' sizes along the axis are
    `?`, so the offsets are only known at run time.
    ```mlir
    %a, %b = trace.split %dy like %x, %y {axis = 0 : i64} : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>, tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Trace_Tensor:$x, Variadic<Trace_Tensor>:$like,
                       Trace_I64Attr:$axis);
  let results = (outs Variadic<Trace_Tensor>:$results);
  let assemblyFormat = [{
    $x `like` $like attr-dict `:` type($x) `,` type($like) `->` type($results)
  }];
}

def Trace_GatherOp : Trace_Op<"gather",
                              [Pure,
                               InferTypeOpAdaptor,
                               Trace_ReifiesShapes]> {
  let summary = "take slices of `params` at `indices` along `axis`";
  let description = [{
    TensorFlow's `tf.gather`: the result shape is
    `params.shape[:axis] + indices.shape + params.shape[axis+1:]`.
    Out-of-range indices are clamped.
  }];
  let arguments = (ins Trace_Tensor:$params, Trace_IndexTensor:$indices,
                       DefaultValuedAttr<Trace_I64Attr, "0">:$axis);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat =
      "$params `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

// The adjoint of gather with the same `axis`: every slice of `updates` is
// added into `operand` at its index, duplicates summing. Indices are clamped
// to [0, dim - 1] exactly as gather clamps them, so
// <scatter_add(0, i, u), p> == <u, gather(p, i)> for every i.
def Trace_ScatterAddOp : Trace_Op<"scatter_add",
                                  [Pure, InferTypeOpAdaptor,
                                   Trace_ReifiesShapes]> {
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

def Trace_SortOp : Trace_Op<"sort", [Pure, InferTypeOpAdaptor,
                                      Trace_ReifiesShapes]> {
  let summary = "sort along `axis` by the first operand, the others carried";
  let description = [{
    XLA's and `lax.sort`'s sort with one key: the slices of every operand
    along `axis` are permuted by the stable order of the first operand's
    (ascending, or with `descending` descending; NaN is above every number,
    so it comes last ascending and first descending, as in NumPy and
    `lax.top_k`; equal keys keep their order either way). The operands
    share one shape; each result has its operand's type. NumPy's `argsort`
    is the second result of sorting `(x, iota)`:
    ```mlir
    %v, %i = trace.sort %x, %iota {axis = 1} : tensor<4x?xf32>, tensor<4x?xi32>
    ```
    Gradient: each operand's cotangent is its result's, permuted back (a
    sort of the permutation with the cotangent carried); tangents are
    carried by the same sort.
  }];
  let arguments = (ins Variadic<Trace_Tensor>:$inputs,
                       DefaultValuedAttr<Trace_I64Attr, "-1">:$axis,
                       UnitAttr:$descending);
  let results = (outs Variadic<Trace_Tensor>:$results);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

def Trace_OneHotOp : Trace_Op<"one_hot", [Pure, Trace_ReifiesShapes]> {
  let summary = "one-hot encode indices: a new dim of size `depth` at `axis`";
  let description = [{
    `%r = trace.one_hot %i {depth = 10} : tensor<32xi32> -> tensor<32x10xf32>`;
    the element type is the result's. Out-of-range indices give all
    `off_value`.
  }];
  let arguments = (ins Trace_IndexTensor:$indices, Trace_I64Attr:$depth,
                       DefaultValuedAttr<Trace_I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1.0">:$on_value,
                       DefaultValuedAttr<F64Attr, "0.0">:$off_value);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = "$indices attr-dict `:` type($indices) `->` type($result)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$indices, "int64_t":$depth,
                   "::mlir::Type":$elementType, CArg<"int64_t", "-1">:$axis)>
  ];
  let hasVerifier = 1;
}

#endif // TRACE_SHAPE_OPS_TD
