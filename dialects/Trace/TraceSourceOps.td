//===- TraceSourceOps.td - Constants, fills, iota, random --*- tablegen -*-===//
//
// The ops that make a tensor from attributes alone: constant, fill, iota,
// and the stateful random_uniform and random_normal.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_SOURCE_OPS_TD
#define TRACE_SOURCE_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"

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

def Trace_FillOp : Trace_Op<"fill", [Pure, Trace_ReifiesShapes]> {
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

def Trace_IotaOp : Trace_Op<"iota", [Pure, Trace_ReifiesShapes]> {
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
                          AttrSizedOperandSegments, Trace_ReifiesShapes]> {
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
// Keyed (stateless) random numbers: JAX's functional keys
//===----------------------------------------------------------------------===//

class Trace_StatelessRandomOp<string mnemonic, string what, dag params,
                              Type resultType>
    : Trace_Op<mnemonic, [Pure]> {
  let summary = "random numbers of a key (" # what # ")";
  let description = [{
    A pure source: the numbers depend only on the key (a `tensor<2xi32>`,
    the two 32-bit words of a Philox4x32-10 key) and the result's shape,
    so the same key always gives the same numbers, in every run (JAX's
    `jax.random`, TensorFlow's `stateless_random_*`). Element i (row-major)
    comes from the Philox words of counter (lo(i), hi(i), 0, 0); the
    uniform and normal numbers are drawn from them as `random_uniform` and
    `random_normal` draw theirs. The result shape is static.
    ```mlir
    %u = trace.stateless_random_uniform %key {low = -1.0, high = 1.0} : tensor<2xi32> -> tensor<3x4xf32>
    ```
  }];
  let arguments = !con((ins Trace_IndexTensor:$key), params);
  let results = (outs resultType:$result);
  let hasVerifier = 1;
}

def Trace_StatelessRandomUniformOp
    : Trace_StatelessRandomOp<"stateless_random_uniform", "uniform",
        (ins DefaultValuedAttr<F64Attr, "0.0">:$low,
             DefaultValuedAttr<F64Attr, "1.0">:$high), Trace_FloatTensor> {
  let assemblyFormat = "$key attr-dict `:` type($key) `->` type($result)";
}

def Trace_StatelessRandomNormalOp
    : Trace_StatelessRandomOp<"stateless_random_normal", "normal",
        (ins DefaultValuedAttr<F64Attr, "0.0">:$mean,
             DefaultValuedAttr<F64Attr, "1.0">:$stddev), Trace_FloatTensor> {
  let assemblyFormat = "$key attr-dict `:` type($key) `->` type($result)";
}

def Trace_StatelessRandomBitsOp
    : Trace_StatelessRandomOp<"stateless_random_bits", "32-bit words",
        (ins Trace_IndexTensor:$counter,
             DefaultValuedAttr<Trace_I64Attr, "0">:$stream),
        Trace_IndexTensor> {
  let summary = "random 32-bit words of a key, a counter and a stream";
  let description = [{
    Element i (row-major) is word 0 of Philox4x32-10 under `key` at counter
    (lo(i), hi(i), counter, stream), as an i32 (the bits of a uint32):
    what deriving keys needs. `tracec.random.split` draws new keys with
    stream 1 and counter 0, `fold_in(key, data)` with stream 2 and counter
    `data`; the uniform and normal ops use stream 0, so the three never
    share a counter. `counter` is a rank-0 i32 tensor.
    ```mlir
    %keys = trace.stateless_random_bits %key, %zero {stream = 1 : i64} : tensor<2xi32>, tensor<i32> -> tensor<4x2xi32>
    ```
  }];
  let assemblyFormat = [{
    $key `,` $counter attr-dict `:` type($key) `,` type($counter) `->`
    type($result)
  }];
}

#endif // TRACE_SOURCE_OPS_TD
