//===- TraceStateOps.td - Variables and ordering -----------*- tablegen -*-===//
//
// Variables (var.read, var.assign, var.assign_add, var.assign_sub), print,
// and the ordering ops: identity (a value after control tokens), group,
// optimization_barrier.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_STATE_OPS_TD
#define TRACE_STATE_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"

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
    [Pure, Trace_ReifiesShapes, TypesMatchWith<"result has the operand's type", "x", "result", "$_self">]> {
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
    [InferTypeOpAdaptor, Trace_ReifiesShapes]> {
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

#endif // TRACE_STATE_OPS_TD
