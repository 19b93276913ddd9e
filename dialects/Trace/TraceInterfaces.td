//===- TraceInterfaces.td - Op interfaces of tracec ----------*- tablegen -*-===//

#ifndef TRACE_INTERFACES_TD
#define TRACE_INTERFACES_TD

include "mlir/IR/OpBase.td"

def DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::mlir::trace";
  let description = [{
    The reverse-mode rule of an op, used by `trace-autodiff`. The pass
    clones the function's ops in order (the primal sweep, `emitPrimal`),
    then visits them in reverse (the adjoint sweep, `emitAdjoint`), where a
    rule reads the cotangents of the op's results from the AdjointState and
    accumulates cotangents into its operands. The pass then splits the code
    into a forward function (returning the values the adjoint code reads:
    the residuals) and a backward function. Rules are attached as external
    models (lib/Dialect/Trace/Gradients), so adding an op never touches the
    pass.
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
  ];
}

#endif // TRACE_INTERFACES_TD
