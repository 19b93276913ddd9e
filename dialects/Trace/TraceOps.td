//===- TraceOps.td - The ops of the trace dialect ------------*- tablegen -*-===//
//
// Op families: sources, elementwise (unary, binary with NumPy broadcasting,
// comparisons, select, cast), linear algebra, reductions, shape ops, neural
// network ops, differentiation and state. Shape rules, folders and
// canonicalizations are implemented in lib/Dialect/Trace/IR, one file per
// family.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_OPS_TD
#define TRACE_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"
include "Trace/GradientRequestOpInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"

def Trace_UnconnectedAttr : EnumAttr<Trace_Dialect, Trace_Unconnected,
                                     "unconnected"> {
  // #trace.unconnected<zero>; the default "$value" would neither parse nor
  // print in that form.
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

def Trace_ConstantOp : Trace_Op<"constant",
    [ConstantLike, Pure, InferTypeOpAdaptor]> {
  let summary = "a tensor literal";
  let description = [{
    ```mlir
    %c = trace.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Trace_FillOp : Trace_Op<"fill", [Pure]> {
  let summary = "a tensor of the given shape filled with a scalar";
  let description = [{
    TensorFlow's `tf.fill`: `%r = trace.fill %v : tensor<f32> -> tensor<2x3xf32>`.
    With `like`, the result has `like`'s shape at run time (its `?` dims
    included; `tf.fill(tf.shape(x), v)`); the result type is `like`'s shape:
    ```mlir
    %r = trace.fill %v like %x : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Trace_Tensor:$value, Optional<Trace_Tensor>:$like);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = [{
    $value (`like` $like^)? attr-dict `:` type($value) (`,` type($like)^)?
    `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$value, "::llvm::ArrayRef<int64_t>":$shape)>,
    // A fill of `type` (no `like`).
    OpBuilder<(ins "::mlir::Type":$type, "::mlir::Value":$value), [{
      build($_builder, $_state, type, value, ::mlir::Value());
    }]>,
    // `like`'s shape, `value`'s element type.
    OpBuilder<(ins "::mlir::Value":$value, "::mlir::Value":$like)>
  ];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Trace_IotaOp : Trace_Op<"iota", [Pure]> {
  let summary = "0, 1, 2, ... along one axis";
  let description = [{
    `%r = trace.iota {axis = 1} : tensor<2x3xi32>` is `[[0,1,2],[0,1,2]]`.
    With `like`, the result has `like`'s shape at run time (StableHLO's
    dynamic_iota); the result type is `like`'s shape:
    ```mlir
    %r = trace.iota like %x {axis = 0} : tensor<?x4xf32> -> tensor<?x4xi32>
    ```
  }];
  let arguments = (ins Optional<Trace_Tensor>:$like,
                       DefaultValuedAttr<Trace_I64Attr, "0">:$axis);
  let results = (outs Trace_NumericTensor:$result);
  let assemblyFormat = [{
    (`like` $like^)? attr-dict `:` custom<LikeType>(type($like), type($result))
  }];
  let builders = [
    // An iota of `type` (no `like`).
    OpBuilder<(ins "::mlir::Type":$type, "int64_t":$axis), [{
      build($_builder, $_state, type, ::mlir::Value(), axis);
    }]>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
}

class Trace_RandomOp<string mnemonic, string distribution>
    : Trace_Op<mnemonic, [MemoryEffects<[MemRead, MemWrite]>,
                          AttrSizedOperandSegments]> {
  let summary = "stateful random numbers (" # distribution # ")";
  let description = [{
    A stateful source: a seeded generator whose counter advances on every
    run, so a fixed seed gives a reproducible sequence. Like every stateful
    op it takes `after(...)` control tokens and yields one. With `like`, the
    result has `like`'s shape at run time (`tf.random.uniform(tf.shape(x))`)
    and the same numbers as the static op of that shape and seed:
    ```mlir
    %u, %t = trace.random_uniform like %x {seed = 1 : i64} : tensor<?x4xf32> -> tensor<?x4xf32>
    ```
  }];
  let results = (outs Trace_FloatTensor:$result, Trace_ControlType:$control);
  let assemblyFormat = [{
    (`like` $like^)? (`after` `(` $after^ `)`)? attr-dict `:`
    custom<LikeType>(type($like), type($result))
  }];
  let builders = [
    // The two distribution parameters: low/high or mean/stddev.
    OpBuilder<(ins "::mlir::Type":$type, "::mlir::ValueRange":$after,
                   "int64_t":$seed, "double":$first, "double":$second), [{
      build($_builder, $_state, type,
            ::mlir::trace::ControlType::get($_builder.getContext()),
            ::mlir::Value(), after, seed, ::llvm::APFloat(first),
            ::llvm::APFloat(second));
    }]>
  ];
  let hasVerifier = 1;
}

// `after` tokens stay the trailing operands (AutoControlDeps appends there).
def Trace_RandomUniformOp : Trace_RandomOp<"random_uniform", "uniform"> {
  let arguments = (ins Optional<Trace_Tensor>:$like,
                       Variadic<Trace_ControlType>:$after,
                       DefaultValuedAttr<Trace_I64Attr, "0">:$seed,
                       DefaultValuedAttr<F64Attr, "0.0">:$low,
                       DefaultValuedAttr<F64Attr, "1.0">:$high);
}

def Trace_RandomNormalOp : Trace_RandomOp<"random_normal", "normal"> {
  let arguments = (ins Optional<Trace_Tensor>:$like,
                       Variadic<Trace_ControlType>:$after,
                       DefaultValuedAttr<Trace_I64Attr, "0">:$seed,
                       DefaultValuedAttr<F64Attr, "0.0">:$mean,
                       DefaultValuedAttr<F64Attr, "1.0">:$stddev);
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

class Trace_UnaryOp<string mnemonic, Type type, string what,
                    list<Trait> traits = []>
    : Trace_Op<mnemonic, !listconcat(traits,
        [Pure, Elementwise, SameOperandsAndResultType, InferTypeOpInterface])> {
  let summary = what;
  let arguments = (ins type:$x);
  let results = (outs type:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasFolder = 1;
}

def Trace_NegOp : Trace_UnaryOp<"neg", Trace_NumericTensor, "-x">;
def Trace_AbsOp : Trace_UnaryOp<"abs", Trace_NumericTensor, "|x|">;
def Trace_ExpOp : Trace_UnaryOp<"exp", Trace_FloatTensor, "e^x">;
def Trace_LogOp : Trace_UnaryOp<"log", Trace_FloatTensor, "natural logarithm">;
def Trace_Log1pOp : Trace_UnaryOp<"log1p", Trace_FloatTensor, "log(1 + x)">;
def Trace_SqrtOp : Trace_UnaryOp<"sqrt", Trace_FloatTensor, "square root">;
def Trace_RsqrtOp : Trace_UnaryOp<"rsqrt", Trace_FloatTensor, "1 / sqrt(x)">;
def Trace_TanhOp : Trace_UnaryOp<"tanh", Trace_FloatTensor, "hyperbolic tangent">;
def Trace_SigmoidOp : Trace_UnaryOp<"sigmoid", Trace_FloatTensor, "1 / (1 + e^-x)">;
def Trace_ReluOp : Trace_UnaryOp<"relu", Trace_NumericTensor, "max(x, 0)">;
def Trace_GeluOp : Trace_UnaryOp<"gelu", Trace_FloatTensor,
    "x * Phi(x), the exact (erf) form">;
def Trace_ErfOp : Trace_UnaryOp<"erf", Trace_FloatTensor,
    "the error function (gelu's gradient needs it)">;
def Trace_SinOp : Trace_UnaryOp<"sin", Trace_FloatTensor, "sine">;
def Trace_CosOp : Trace_UnaryOp<"cos", Trace_FloatTensor, "cosine">;
def Trace_SignOp : Trace_UnaryOp<"sign", Trace_NumericTensor, "-1, 0 or 1">;
def Trace_FloorOp : Trace_UnaryOp<"floor", Trace_FloatTensor, "round down">;

//===----------------------------------------------------------------------===//
// Elementwise binary (NumPy broadcasting), comparisons, select, cast
//===----------------------------------------------------------------------===//

// The result shape is the NumPy broadcast of the operand shapes; operand
// element types must match (no implicit promotion). Comparisons return i1.
class Trace_BroadcastingOp<string mnemonic, Type type, Type resultType,
                           string what, bit isComparison>
    : Trace_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = what;
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs resultType:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastResult(loc, getOperationName(),
          {adaptor.getLhs().getType(), adaptor.getRhs().getType()},
          /*isComparison=*/}] # !if(isComparison, "true", "false") # [{, types);
    }
  }];
}

class Trace_BinaryOp<string mnemonic, string what>
    : Trace_BroadcastingOp<mnemonic, Trace_NumericTensor, Trace_NumericTensor,
                           what, 0>;
class Trace_CompareOp<string mnemonic, string what>
    : Trace_BroadcastingOp<mnemonic, Trace_Tensor, Trace_BoolTensor, what, 1>;

def Trace_AddOp : Trace_BinaryOp<"add", "lhs + rhs">;
def Trace_SubOp : Trace_BinaryOp<"sub", "lhs - rhs">;
def Trace_MulOp : Trace_BinaryOp<"mul", "lhs * rhs">;
def Trace_DivOp : Trace_BinaryOp<"div",
    "lhs / rhs (integers: truncating division)">;
def Trace_PowOp : Trace_BinaryOp<"pow", "lhs ^ rhs">;
def Trace_MaxOp : Trace_BinaryOp<"max", "elementwise maximum (NaN wins)">;
def Trace_MinOp : Trace_BinaryOp<"min", "elementwise minimum (NaN wins)">;

def Trace_EqOp : Trace_CompareOp<"eq", "lhs == rhs">;
def Trace_NeOp : Trace_CompareOp<"ne", "lhs != rhs">;
def Trace_LtOp : Trace_CompareOp<"lt", "lhs < rhs">;
def Trace_LeOp : Trace_CompareOp<"le", "lhs <= rhs">;
def Trace_GtOp : Trace_CompareOp<"gt", "lhs > rhs">;
def Trace_GeOp : Trace_CompareOp<"ge", "lhs >= rhs">;

def Trace_SelectOp : Trace_Op<"select", [Pure, InferTypeOpAdaptor]> {
  let summary = "cond ? on_true : on_false, broadcasting all three";
  let arguments = (ins Trace_BoolTensor:$cond, Trace_Tensor:$on_true,
                       Trace_Tensor:$on_false);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $on_true `,` $on_false attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

// No `Elementwise` trait: its generic shape check would run before, and
// hide, the verifier's "shape must be preserved" message.
def Trace_CastOp : Trace_Op<"cast", [Pure]> {
  let summary = "convert the element type (float<->int truncates toward zero)";
  let description = [{
    `%y = trace.cast %x : tensor<4xf32> to tensor<4xi32>`; bool casts give
    0/1, casts to bool test for non-zero.
  }];
  let arguments = (ins Trace_Tensor:$x);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `to` type($result)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Type":$elementType)>
  ];
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Trace_MatmulOp : Trace_Op<"matmul",
                              [Pure, InferTypeOpAdaptor, Trace_Contraction]> {
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
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// `axes` may be negative (counted from the end) and must be unique; with
// `keepdims` the reduced dims stay as size 1.
class Trace_ReductionOp<string mnemonic, Type type, string what>
    : Trace_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = what;
  let arguments = (ins type:$x, DenseI64ArrayAttr:$axes, UnitAttr:$keepdims);
  let results = (outs type:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferReductionResult(loc, getOperationName(),
          adaptor.getX().getType(), adaptor.getAxes(), adaptor.getKeepdims(),
          types);
    }
  }];
}

def Trace_ReduceSumOp : Trace_ReductionOp<"reduce_sum", Trace_NumericTensor, "sum">;
def Trace_ReduceMeanOp : Trace_ReductionOp<"reduce_mean", Trace_FloatTensor, "mean">;
def Trace_ReduceMaxOp : Trace_ReductionOp<"reduce_max", Trace_NumericTensor, "maximum">;
def Trace_ReduceMinOp : Trace_ReductionOp<"reduce_min", Trace_NumericTensor, "minimum">;
def Trace_ReduceProdOp : Trace_ReductionOp<"reduce_prod", Trace_NumericTensor, "product">;

def Trace_ArgmaxOp : Trace_Op<"argmax", [Pure, InferTypeOpAdaptor]> {
  let summary = "index (i64) of the first maximum along `axis`";
  let arguments = (ins Trace_NumericTensor:$x, Trace_I64Attr:$axis);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
}

class Trace_SoftmaxOp<string mnemonic, string what>
    : Trace_Op<mnemonic, [Pure, SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = what;
  let description = [{
    Normalizes along `axis` (default -1). Lowered and differentiated in the
    numerically stable form (the maximum is subtracted first).
  }];
  let arguments = (ins Trace_FloatTensor:$x,
                       DefaultValuedAttr<Trace_I64Attr, "-1">:$axis);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasVerifier = 1;
}

def Trace_SoftmaxOp : Trace_SoftmaxOp<"softmax", "exp(x) / sum(exp(x))">;
def Trace_LogSoftmaxOp : Trace_SoftmaxOp<"log_softmax", "x - log(sum(exp(x)))">;

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Trace_ReshapeOp : Trace_Op<"reshape", [Pure]> {
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

def Trace_TransposeOp : Trace_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "permute dims: result dim i is operand dim perm[i]";
  let arguments = (ins Trace_Tensor:$x, DenseI64ArrayAttr:$perm);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Trace_BroadcastToOp : Trace_Op<"broadcast_to", [Pure]> {
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

def Trace_ConcatOp : Trace_Op<"concat", [Pure, InferTypeOpAdaptor]> {
  let summary = "join tensors along `axis`";
  let arguments = (ins Variadic<Trace_Tensor>:$inputs, Trace_I64Attr:$axis);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type($inputs, results)";
  let hasFolder = 1;
}

def Trace_SliceOp : Trace_Op<"slice", [Pure, InferTypeOpAdaptor]> {
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

def Trace_PadOp : Trace_Op<"pad", [Pure, InferTypeOpAdaptor]> {
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

def Trace_SplitOp : Trace_Op<"split", [Pure, InferTypeOpAdaptor]> {
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

def Trace_GatherOp : Trace_Op<"gather", [Pure, InferTypeOpAdaptor]> {
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
}

def Trace_OneHotOp : Trace_Op<"one_hot", [Pure]> {
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

//===----------------------------------------------------------------------===//
// Neural network ops (NHWC activations, HWCF filters)
//===----------------------------------------------------------------------===//

// `padding` is explicit: [top, bottom, left, right].
def Trace_Conv2DOp : Trace_Op<"conv2d",
                              [Pure, InferTypeOpAdaptor, Trace_Contraction]> {
  let summary = "2-D convolution, NHWC input and HWCF filter";
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$filter,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

class Trace_Pool2DOp<string mnemonic, string what>
    : Trace_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = what;
  let arguments = (ins Trace_FloatTensor:$input, DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferPoolResult(loc, getOperationName(),
          adaptor.getInput().getType(), adaptor.getWindow(),
          adaptor.getStrides(), adaptor.getPadding(), types);
    }
  }];
}

def Trace_MaxPool2DOp : Trace_Pool2DOp<"max_pool2d",
    "max over NHWC windows (padding never wins)">;
def Trace_AvgPool2DOp : Trace_Pool2DOp<"avg_pool2d",
    "mean over NHWC windows, counting only non-padding elements">;

//===----------------------------------------------------------------------===//
// Neural network backprop ops (TensorFlow's Conv2DBackpropInput/Filter,
// MaxPoolGrad, AvgPoolGrad): the gradients of the ops above, which take the
// forward op's attributes and the static shape of the operand they return
// the cotangent of. conv2d_backprop_input and avg_pool2d_grad take that
// shape either as `input_shape` or, where it has `?` dims, from a `like`
// operand (the forward input, whose run-time shape the result takes).
//===----------------------------------------------------------------------===//

// d input of conv2d: dy (the conv2d output's cotangent) scattered back
// through the filter. `dy` must have the conv2d output shape of
// `input_shape` with the filter.
def Trace_Conv2DBackpropInputOp : Trace_Op<"conv2d_backprop_input",
                                           [Pure, InferTypeOpAdaptor,
                                            Trace_Contraction]> {
  let summary = "gradient of conv2d with respect to its input";
  let arguments = (ins Trace_FloatTensor:$filter, Trace_FloatTensor:$dy,
      Optional<Trace_Tensor>:$like,
      OptionalAttr<DenseI64ArrayAttr>:$input_shape,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = [{
    $filter `,` $dy (`like` $like^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

// d filter of conv2d: the correlation of the input with dy, summed over the
// batch and the output positions.
def Trace_Conv2DBackpropFilterOp : Trace_Op<"conv2d_backprop_filter",
                                            [Pure, InferTypeOpAdaptor,
                                             Trace_Contraction]> {
  let summary = "gradient of conv2d with respect to its filter";
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$dy,
      DenseI64ArrayAttr:$filter_shape,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $dy attr-dict `:` functional-type(operands, results)";
}

// d input of max_pool2d: each window's dy goes to the window's maximum
// element, the FIRST one in row-major window order on ties (a NaN counts as
// the largest value); padding never receives.
def Trace_MaxPool2DGradOp : Trace_Op<"max_pool2d_grad",
                                     [Pure, InferTypeOpAdaptor]> {
  let summary = "gradient of max_pool2d with respect to its input";
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$dy,
      DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $dy attr-dict `:` functional-type(operands, results)";
}

// d input of avg_pool2d: each window's dy divided by the window's number of
// non-padding elements, spread over those elements.
def Trace_AvgPool2DGradOp : Trace_Op<"avg_pool2d_grad",
                                     [Pure, InferTypeOpAdaptor]> {
  let summary = "gradient of avg_pool2d with respect to its input";
  let arguments = (ins Trace_FloatTensor:$dy, Optional<Trace_Tensor>:$like,
      OptionalAttr<DenseI64ArrayAttr>:$input_shape, DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = [{
    $dy (`like` $like^)? attr-dict `:` type($dy) (`,` type($like)^)? `->`
    type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Differentiation
//===----------------------------------------------------------------------===//

def Trace_StopGradientOp : Trace_UnaryOp<"stop_gradient", Trace_Tensor,
    "the value, with no gradient flowing through it">;

// Shared by the gradient ops: the function to differentiate, the arguments
// to differentiate with respect to, and what unconnected arguments get.
// Pure on tensors; on variables (`!trace.resource` arguments) it may read
// and write them, as its callee does (trace-auto-control-deps looks into
// the callee).
class Trace_GradientOp<string mnemonic, string what, list<Trait> traits = []>
    : Trace_Op<mnemonic, !listconcat(traits,
        [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
         DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
         Trace_GradientRequestOpInterface])> {
  let summary = what;
  // GradientRequestOpInterface: defined by each op (extraClassDefinition).
  let extraClassDeclaration = [{
    ::llvm::SmallVector<::mlir::Value>
    buildSeedCotangents(::mlir::OpBuilder &builder,
                        ::mlir::TypeRange calleeResults);
    ::llvm::SmallVector<::mlir::Value>
    getResultReplacements(::mlir::ValueRange values,
                          ::mlir::ValueRange gradients);
  }];
  // Checks what needs no callee (`unconnected`); the rest is in
  // verifySymbolUses.
  let hasVerifier = 1;
}

// grad and value_and_grad differentiate a scalar loss: its cotangent is 1.
defvar Trace_ScalarLossSeed = [{
  ::llvm::SmallVector<::mlir::Value>
  $cppClass::buildSeedCotangents(::mlir::OpBuilder &builder,
                                 ::mlir::TypeRange calleeResults) {
    auto loss = ::llvm::cast<::mlir::RankedTensorType>(calleeResults.front());
    auto one = ::mlir::DenseElementsAttr::get(
        loss, builder.getFloatAttr(loss.getElementType(), 1.0));
    return {ConstantOp::create(builder, getLoc(), one).getResult()};
  }
}];

def Trace_GradOp : Trace_GradientOp<"grad",
    "gradient of a scalar function with respect to `wrt` arguments",
    [InferTypeOpAdaptor]> {
  let description = [{
    ```mlir
    %g = trace.grad @loss(%w, %x) {wrt = [0]}
        : (tensor<784x10xf32>, tensor<32x784xf32>) -> tensor<784x10xf32>
    ```
    One result per `wrt` index, of that argument's type (for a
    `!trace.resource`, of the type of the value it holds).
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      DenseI64ArrayAttr:$wrt,
      DefaultValuedAttr<Trace_UnconnectedAttr,
                        "::mlir::trace::Unconnected::zero">:$unconnected);
  // Float tensors: checked by type inference, which names the argument.
  let results = (outs Variadic<Trace_Tensor>:$grads);
  let assemblyFormat =
      "$callee `(` $args `)` attr-dict `:` functional-type($args, results)";
  let extraClassDefinition = Trace_ScalarLossSeed # [{
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::getResultReplacements(::mlir::ValueRange,
                                     ::mlir::ValueRange gradients) {
      return ::llvm::to_vector(gradients);
    }
  }];
}

def Trace_ValueAndGradOp : Trace_GradientOp<"value_and_grad",
    "the value of a scalar function and its gradient"> {
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      DenseI64ArrayAttr:$wrt,
      DefaultValuedAttr<Trace_UnconnectedAttr,
                        "::mlir::trace::Unconnected::zero">:$unconnected);
  // The gradients are float tensors: the verifier checks them against the
  // `wrt` arguments and names the argument that is not differentiable.
  let results = (outs Trace_FloatTensor:$value,
                      Variadic<Trace_Tensor>:$grads);
  let assemblyFormat =
      "$callee `(` $args `)` attr-dict `:` functional-type($args, results)";
  let builders = [
    OpBuilder<(ins "::mlir::func::FuncOp":$callee, "::mlir::ValueRange":$args,
                   "::llvm::ArrayRef<int64_t>":$wrt)>
  ];
  // The loss, then the gradients.
  let extraClassDefinition = Trace_ScalarLossSeed # [{
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::getResultReplacements(::mlir::ValueRange values,
                                     ::mlir::ValueRange gradients) {
      ::llvm::SmallVector<::mlir::Value> replacements = {values.front()};
      ::llvm::append_range(replacements, gradients);
      return replacements;
    }
  }];
}

def Trace_VjpOp : Trace_GradientOp<"vjp",
    "vector-Jacobian product: results and the cotangents of `wrt` arguments",
    [AttrSizedOperandSegments]> {
  let description = [{
    ```mlir
    %y, %gx = trace.vjp @f(%x) cotangents(%dy) {wrt = [0]}
        : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    ```
    One cotangent per result of the callee; the op returns the callee's
    results followed by one gradient per `wrt` index.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      Variadic<Trace_FloatTensor>:$cotangents, DenseI64ArrayAttr:$wrt,
      DefaultValuedAttr<Trace_UnconnectedAttr,
                        "::mlir::trace::Unconnected::zero">:$unconnected);
  let results = (outs Variadic<AnyType>:$results);
  // `$callee ( $args ) cotangents ( $cotangents ) attr-dict :
  //  ( type($args) ), ( type($cotangents) ) -> ( type($results) )`, written
  // by hand because the declarative form cannot parse an empty `()` list.
  let hasCustomAssemblyFormat = 1;
  let builders = [
    OpBuilder<(ins "::mlir::func::FuncOp":$callee, "::mlir::ValueRange":$args,
                   "::mlir::ValueRange":$cotangents,
                   "::llvm::ArrayRef<int64_t>":$wrt)>
  ];
  // Seeded with its cotangent operands; yields the callee's results, then
  // the cotangents of the `wrt` arguments.
  let extraClassDefinition = [{
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::buildSeedCotangents(::mlir::OpBuilder &, ::mlir::TypeRange) {
      return ::llvm::to_vector(getCotangents());
    }
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::getResultReplacements(::mlir::ValueRange values,
                                     ::mlir::ValueRange gradients) {
      ::llvm::SmallVector<::mlir::Value> replacements(values);
      ::llvm::append_range(replacements, gradients);
      return replacements;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Forward-mode differentiation
//===----------------------------------------------------------------------===//

def Trace_JvpOp : Trace_Op<"jvp", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    Trace_GradientRequestOpInterface]> {
  let summary = "Jacobian-vector product: results and their tangents";
  let description = [{
    JAX's `jvp`: runs `callee` on `args` and pushes the `tangents` of the
    `wrt` arguments forward (the other arguments' tangents are zero).
    ```mlir
    %y, %ty = trace.jvp @f(%x, %w) tangents(%tx) {wrt = array<i64: 0>}
        : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>)
          -> (tensor<3xf32>, tensor<3xf32>)
    ```
    One tangent operand per `wrt` index, of that argument's type (a
    floating-point tensor; forward mode does not differentiate with respect
    to variables). The op returns the callee's results, then one tangent per
    floating-point tensor result of the callee, of its type.
    `trace-autodiff` rewrites it into a call of the generated
    `__jvp_<callee>`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      Variadic<Trace_FloatTensor>:$tangents, DenseI64ArrayAttr:$wrt);
  let results = (outs Variadic<AnyType>:$results);
  // `$callee ( $args ) tangents ( $tangents ) attr-dict :
  //  ( type($args) ), ( type($tangents) ) -> ( type($results) )`, as vjp's.
  let hasCustomAssemblyFormat = 1;
  // wrt and the tangents' types; the callee in verifySymbolUses.
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::func::FuncOp":$callee, "::mlir::ValueRange":$args,
                   "::mlir::ValueRange":$tangents,
                   "::llvm::ArrayRef<int64_t>":$wrt)>
  ];
  // GradientRequestOpInterface in forward mode: seeded with the tangents;
  // yields the callee's results, then the results' tangents. Every result
  // is connected (an argument the results do not depend on simply gives
  // zero tangents).
  let extraClassDeclaration = [{
    bool isForwardMode() { return true; }
    ::mlir::trace::Unconnected getUnconnected() {
      return ::mlir::trace::Unconnected::zero;
    }
    ::llvm::SmallVector<::mlir::Value>
    buildSeedCotangents(::mlir::OpBuilder &, ::mlir::TypeRange) {
      return ::llvm::to_vector(getTangents());
    }
    ::llvm::SmallVector<::mlir::Value>
    getResultReplacements(::mlir::ValueRange values,
                          ::mlir::ValueRange tangents) {
      ::llvm::SmallVector<::mlir::Value> replacements(values);
      ::llvm::append_range(replacements, tangents);
      return replacements;
    }
  }];
}

//===----------------------------------------------------------------------===//
// State and ordering
//===----------------------------------------------------------------------===//

def Trace_VarReadOp : Trace_Op<"var.read", [InferTypeOpAdaptor]> {
  let summary = "read the value of a variable";
  let arguments = (ins Arg<Trace_ResourceType, "the variable", [MemRead]>:$resource,
                       Variadic<Trace_ControlType>:$after);
  let results = (outs Trace_Tensor:$value, Trace_ControlType:$control);
  let assemblyFormat = "$resource  (`after` `(` $after^ `)`)?  attr-dict `:` qualified(type($resource))";
}

class Trace_VarUpdateOp<string mnemonic, string what, list<MemoryEffect> effects>
    : Trace_Op<mnemonic, [TypesMatchWith<"value has the variable's type",
        "resource", "value",
        "::llvm::cast<::mlir::trace::ResourceType>($_self).getValueType()">]> {
  let summary = what;
  let arguments = (ins Arg<Trace_ResourceType, "the variable", effects>:$resource,
                       Trace_Tensor:$value, Variadic<Trace_ControlType>:$after);
  let results = (outs Trace_ControlType:$control);
  let assemblyFormat =
      "$resource `,` $value  (`after` `(` $after^ `)`)?  attr-dict `:` qualified(type($resource))";
}

def Trace_VarAssignOp : Trace_VarUpdateOp<"var.assign", "variable = value",
                                          [MemWrite]>;
def Trace_VarAssignAddOp : Trace_VarUpdateOp<"var.assign_add",
    "variable += value", [MemRead, MemWrite]>;
def Trace_VarAssignSubOp : Trace_VarUpdateOp<"var.assign_sub",
    "variable -= value", [MemRead, MemWrite]>;

def Trace_PrintOp : Trace_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "print a tensor (with an optional message) to stdout";
  let arguments = (ins Trace_Tensor:$x, Variadic<Trace_ControlType>:$after,
                       DefaultValuedStrAttr<StrAttr, "">:$message);
  let results = (outs Trace_ControlType:$control);
  let assemblyFormat = "$x  (`after` `(` $after^ `)`)?  attr-dict `:` type($x)";
}

def Trace_IdentityOp : Trace_Op<"identity",
    [Pure, TypesMatchWith<"result has the operand's type", "x", "result", "$_self">]> {
  let summary = "the value, available only after the given control tokens";
  let description = [{
    `%y = trace.identity %x after(%c0, %c1) : tensor<4xf32>`: how automatic
    control dependencies make a function's results wait for stateful ops.
  }];
  let arguments = (ins Trace_Tensor:$x, Variadic<Trace_ControlType>:$after);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = "$x  (`after` `(` $after^ `)`)?  attr-dict `:` type($x)";
  let hasFolder = 1;
}

def Trace_GroupOp : Trace_Op<"group", [Pure]> {
  let summary = "a control token available once all the given ones are";
  let description = [{
    `%c = trace.group(%c0, %c1)`: TensorFlow's `tf.group`, a join of control
    tokens. Automatic control dependencies use it where one token must stand
    for several: what an scf.if branch yields, what a loop carries from one
    iteration to the next. `trace.group()` is a token that is
    available at once (the start of a loop nothing waits for yet).
  }];
  let arguments = (ins Variadic<Trace_ControlType>:$tokens);
  let results = (outs Trace_ControlType:$result);
  let assemblyFormat = "`(` $tokens `)` attr-dict";
  let hasFolder = 1;
}

def Trace_OptimizationBarrierOp : Trace_Op<"optimization_barrier",
    [InferTypeOpAdaptor]> {
  let summary = "its operands, unchanged, as values no optimization looks through";
  let description = [{
    `%r:2 = trace.optimization_barrier %a, %b : tensor<4xf32>, tensor<4x4xf32>`
    returns its operands. StableHLO's `optimization_barrier` (JAX's
    `prevent_cse`): the op is not Pure and has no folder, so CSE and
    canonicalization can neither merge it nor see that `%r#0` is `%a`.
    Rematerialization routes the saved inputs of a recomputation through
    one, so that once a fused train step inlines forward and backward, CSE
    does not merge the recomputed values with the forward ones (which
    would keep them alive from the forward pass on: nothing saved).
    One-shot bufferization makes each result the operand's buffer: no copy.
    Gradient and tangent: the identity.
  }];
  let arguments = (ins Variadic<Trace_Tensor>:$inputs);
  let results = (outs Variadic<Trace_Tensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

#endif // TRACE_OPS_TD
