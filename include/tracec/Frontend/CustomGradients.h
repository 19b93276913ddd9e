//===- CustomGradients.h - custom_gradient, custom_jvp, checkpoint --------===//
//
// Ways to change how a traced function is differentiated, as in
// TensorFlow and JAX:
//
//   // log(1 + e^x) with the stable gradient sigmoid(x) (TF's custom_gradient)
//   Callable log1pexp = customGradient([](llvm::ArrayRef<Value> a) {
//     Value y = log1p(exp(a[0]));
//     Value x = a[0];
//     return CustomGradientResult{{y}, [x](llvm::ArrayRef<Value> dy) {
//       return std::vector<Value>{dy[0] * sigmoid(x)};
//     }};
//   });
//
//   // Recompute the layer's intermediates in the backward pass (jax.checkpoint)
//   Callable layer = checkpoint(dense, "nothing");
//
// They are Callables used inside a trace (called, or differentiated by
// grad/vjp/jvp) and record a func.call of a private function carrying the
// attributes trace-autodiff reads (trace.custom_vjp, trace.custom_jvp,
// trace.checkpoint; see DifferentiationAttributes.h).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_CUSTOMGRADIENTS_H
#define TRACEC_FRONTEND_CUSTOMGRADIENTS_H

#include "tracec/Frontend/Trace.h"

namespace tracec {

/// What a function with a custom gradient returns: its results, and the
/// function that computes its arguments' cotangents from its results'.
struct CustomGradientResult {
  std::vector<Value> outputs;
  /// Called with one cotangent per floating-point output (in order);
  /// returns one cotangent per argument of the function, of its type: a
  /// null Value is a zero gradient (integer arguments get none, whatever is
  /// returned for them). It may use Values the function computed: those
  /// are what the forward function saves for it (the residuals). It may
  /// not use variables.
  Callable gradFn;
};
using CustomGradientFn =
    std::function<CustomGradientResult(llvm::ArrayRef<Value>)>;

/// TensorFlow's tf.custom_gradient: a Callable that runs `f`, and that
/// trace-autodiff differentiates with f's gradFn instead of through f's
/// ops (also inside loops and calls; the second derivative differentiates
/// gradFn's ops). Each call records @name (the primal), @name_fwd (results
/// then residuals) and @name_bwd (residuals and cotangents -> cotangents),
/// with fresh names. Values of the enclosing function that `f` uses get no
/// gradient through it.
Callable customGradient(CustomGradientFn f, std::string name = "");

/// jax.custom_jvp: a Callable that runs `f`, and that trace-autodiff
/// differentiates with `jvpFn` instead of through f's ops. jvpFn is called
/// with f's arguments, then one tangent per floating-point argument, and
/// returns f's outputs, then one tangent per floating-point output, linear
/// in the tangents (as JAX requires). Forward mode calls it
/// (trace.custom_jvp); reverse mode runs f and transposes the rule (the vjp
/// of its tangents, through customGradient), so second derivatives
/// differentiate the rule. Values of the enclosing function (and host
/// arrays) that f or jvpFn use get no tangent or gradient through it.
Callable customJvp(Callable f, Callable jvpFn, std::string name = "");

/// Gives the function that `results` come from, a call that customGradient
/// recorded for `numArgs` arguments, the forward-mode rule `jvpFn` (as
/// customJvp's; its transpose must be the custom gradient). The frontends'
/// custom_jvp is built of the two.
void setCustomJvp(llvm::ArrayRef<Value> results, size_t numArgs,
                  const Callable &jvpFn);
/// Inside a jvp rule (of customJvp, or that setCustomJvp traces): the
/// function the rule belongs to at `args` (JAX's rules compute the primal
/// output as f(x)); for forward mode a call of it, so that forward mode
/// over the rule's results uses the rule again. Throws TraceError outside
/// a rule or for other argument types.
std::vector<Value> callRulesFunction(llvm::ArrayRef<Value> args);

/// jax.checkpoint: a Callable that calls `f` as a function with the
/// attribute trace.checkpoint = `policy` ("nothing", "contractions" or
/// "everything"), so that what its forward function saves for the
/// backward pass is only what the policy keeps; the rest is recomputed.
/// Throws TraceError for an unknown policy.
Callable checkpoint(Callable f, std::string policy = "nothing",
                    std::string name = "");

} // namespace tracec

#endif // TRACEC_FRONTEND_CUSTOMGRADIENTS_H
