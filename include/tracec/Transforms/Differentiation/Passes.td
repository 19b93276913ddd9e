//===- Passes.td - tracec differentiation passes -*- tablegen -*-===//

#ifndef TRACEC_TRANSFORMS_DIFFERENTIATION_PASSES
#define TRACEC_TRANSFORMS_DIFFERENTIATION_PASSES

include "mlir/Pass/PassBase.td"

def TraceAutoDiff : Pass<"trace-autodiff", "::mlir::ModuleOp"> {
  let summary = "Differentiate functions: generate forward/backward functions "
                "and rewrite trace.grad, trace.value_and_grad and trace.vjp; "
                "generate __jvp functions and rewrite trace.jvp; batch "
                "trace.vmap";
  let description = [{
    For each function `f` a gradient op references, generates `__forward_f`
    (f's results plus the residuals the backward function needs — only
    those), `__backward_f` (residuals and result cotangents -> argument
    cotangents) and `__inference_f` (the primal alone, which plain calls of
    `f` then use). Gradient ops become calls of the forward and backward
    functions. Gradient ops inside a function are rewritten before that
    function is differentiated, so grad of grad works. Rules come from
    DifferentiableOpInterface; fan-in cotangents are summed.

    Forward mode: for each (f, wrt) a trace.jvp op references, generates
    `__jvp_f` (f's arguments and the tangents of the `wrt` arguments -> f's
    results and their tangents; one sweep, no residuals) and rewrites the op
    into a call of it. jvp and the reverse-mode ops nest either way
    (forward-over-reverse Hessian-vector products, reverse-over-forward).

    trace.vmap ops are rewritten here too, as trace-vmap does, in the same
    innermost-first order: a vmap once no gradient op is pending in its
    callee (vmap of grad batches the generated forward and backward
    functions), a gradient op once no vmap op is (grad of vmap
    differentiates the batched function).

    A function with `trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}` is
    not swept: its forward and backward functions are the user's. With
    `remat` (or a function's own `trace.checkpoint` policy), the forward
    function saves less and the backward function recomputes the rest:
    `nothing` saves only arguments, `contractions` only the results of ops
    with the Contraction trait (matmul, convolutions), `everything` every
    intermediate the backward function reads.
  }];
  let options = [
    Option<"remat", "remat", "::mlir::trace::RematPolicy",
           "::mlir::trace::RematPolicy::everything",
           "What forward functions save for the backward functions (the "
           "rematerialization policy of functions without trace.checkpoint)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::trace::RematPolicy::nothing, "nothing",
                        "save only the arguments: recompute every "
                        "intermediate"),
             clEnumValN(::mlir::trace::RematPolicy::contractions,
                        "contractions",
                        "save only contraction results (matmul, conv); "
                        "recompute the rest"),
             clEnumValN(::mlir::trace::RematPolicy::everything, "everything",
                        "save every intermediate the backward function "
                        "reads"))}]>
  ];
  // Rules of control flow build arith, scf, tensor and (run-time checks of
  // dynamic sizes) cf ops.
  let dependentDialects = ["::mlir::trace::TraceDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::ub::UBDialect"];
}

def TraceVmap : Pass<"trace-vmap", "::mlir::ModuleOp"> {
  let summary = "Batch functions: generate the batched function of each "
                "trace.vmap and rewrite it into a call";
  let description = [{
    For each function `f` and set of batched arguments a trace.vmap
    references, generates `__vmap_f_<args>_<size>`: f's ops cloned in order,
    those with a batched operand by their batching rule
    (BatchableOpInterface), with the batch dim leading every batched value;
    results that do not vary across the batch stay unbatched (broadcast at
    the op's call). The op becomes a transpose of each argument
    whose mapped dim is not the first, the call, and a transpose of each
    result whose batch dim goes elsewhere (out_axes). Calls and gradient
    ops batch their callees the same way, so vmap of grad gives
    per-example gradients and vmap nests. In the pipelines trace-autodiff
    rewrites trace.vmap ops itself, interleaved with the gradient ops
    (innermost first), so the gradient ops have been differentiated by the
    time their function is batched; the gradient ops' rules serve this pass
    run alone. An op with a
    batched operand and no rule (loops over batched values,
    convolutions, scatter_add) is an error that names it.
  }];
  // Batched conds build scf and tensor ops.
  let dependentDialects = ["::mlir::trace::TraceDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // TRACEC_TRANSFORMS_DIFFERENTIATION_PASSES
