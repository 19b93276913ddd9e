//===- TraceTypes.td - Resource and control types ------------*- tablegen -*-===//

#ifndef TRACE_TYPES_TD
#define TRACE_TYPES_TD

include "Trace/TraceBase.td"
include "mlir/IR/BuiltinTypes.td"

class Trace_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Trace_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Trace_ResourceType : Trace_Type<"Resource", "resource"> {
  let summary = "a handle to a variable holding a tensor";
  let description = [{
    A variable: mutable state that lives outside the function and is passed
    in as an argument. The parameter is the type of the value it holds, e.g.
    `!trace.resource<tensor<784x10xf32>>`. It is read and written only through
    the `trace.var.*` ops.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$valueType);
  let assemblyFormat = "`<` $valueType `>`";
  let genVerifyDecl = 1;
}

def Trace_ControlType : Trace_Type<"Control", "control"> {
  let summary = "a control token: the explicit 'must run after' edge";
  let description = [{
    Produced by every stateful op and consumed by `after(...)` operand lists,
    so that the order of side effects is part of the SSA graph.
  }];
  // Hand-written so that `!trace.control<...>` is an error rather than
  // silently dropping the parameters.
  let hasCustomAssemblyFormat = 1;
}

#endif // TRACE_TYPES_TD
