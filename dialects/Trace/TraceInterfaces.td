//===- TraceInterfaces.td - Op interfaces of tracec ----------*- tablegen -*-===//

#ifndef TRACE_INTERFACES_TD
#define TRACE_INTERFACES_TD

include "mlir/IR/OpBase.td"

def DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::mlir::trace";
  let description = [{
    The reverse- and forward-mode rules of an op, used by `trace-autodiff`.
    Reverse mode (trace.grad, value_and_grad, vjp): the pass
    clones the function's ops in order (the primal sweep, `emitPrimal`),
    then visits them in reverse (the adjoint sweep, `emitAdjoint`), where a
    rule reads the cotangents of the op's results from the AdjointState and
    accumulates cotangents into its operands. The pass then splits the code
    into a forward function (returning the values the adjoint code reads:
    the residuals) and a backward function. Rules are attached as external
    models (lib/Dialect/Trace/Gradients), so adding an op never touches the
    pass.

    Forward mode (trace.jvp): the pass clones each op of the function in
    order and, where some operand carries a tangent, calls `emitTangent`
    right after the clone; the rule reads the operands' tangents from the
    TangentState and sets the tangents of the op's results. One sweep, no
    tape: primal and tangent values are computed side by side.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits the op's primal computation and records the primal values of
        its results. The default clones the op; ops that need more of their
        forward pass later (a call's residuals) override it.
      }],
      "::llvm::LogicalResult", "emitPrimal",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::trace::AdjointState &":$state),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return state.clonePrimal($_op.getOperation(), builder);
      }]>,
    InterfaceMethod<[{
        Emits the adjoint: called only when some result has a cotangent
        (`state.cotangent(result)`, null when none flows into that result);
        accumulates the cotangent of each differentiable operand with
        `state.accumulate`. Operands that get none carry no gradient.
      }],
      "::llvm::LogicalResult", "emitAdjoint",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::trace::AdjointState &":$state)>,
    InterfaceMethod<[{
        Emits the tangent (the Jacobian-vector product): called right after
        the op's primal clone, only when some operand (or a value its regions
        capture) has a tangent (`state.tangent(operand)`, null for zero) and
        some result is a floating-point tensor; sets the tangent of each
        result that gets one with `state.setTangent` (results that get none
        have a zero tangent). The default reports that the op has no tangent
        rule, so ops that have only a reverse rule still build.
      }],
      "::llvm::LogicalResult", "emitTangent",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::trace::TangentState &":$state),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return $_op.getOperation()->emitOpError(
            "has no tangent rule: forward-mode differentiation (trace.jvp) "
            "cannot go through it");
      }]>,
  ];
}

def BatchableOpInterface : OpInterface<"BatchableOpInterface"> {
  let cppNamespace = "::mlir::trace";
  let description = [{
    The batching rule of an op (JAX's `batching.primitive_batchers`), used
    by `trace-vmap`. The pass clones a function's ops in order into its
    batched form, where some values carry a leading batch dim (always the
    leading one, of `state.batchSize()`). An op none of whose operands
    (nor a value its regions capture) carries it is cloned as it is;
    otherwise the pass calls `emitBatched`, which reads the operands'
    batched-form values (`state.lookup`, `state.isBatched`,
    `state.materialize`) and records each result's (`state.map`). Rules are
    attached as external models (lib/Dialect/Trace/Batching), next to the
    reverse and tangent rules; an op without one cannot be batched, and
    trace-vmap says so.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits the op's batched form at `builder`'s insertion point; called
        only when some operand is batched.
      }],
      "::llvm::LogicalResult", "emitBatched",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::trace::BatchState &":$state)>,
  ];
}

#endif // TRACE_INTERFACES_TD
