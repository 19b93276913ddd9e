//===- Gradients.h - grad, value_and_grad, vjp and jvp of traced callables ===//
//
// Function transforms, as in JAX: `grad(f)` is a Callable that, called
// inside a trace, traces `f` into a private func.func of the same module
// and records `trace.grad @f(args)`; the trace-autodiff pass does the
// differentiation when the module is compiled (or when ir(true) is asked).
//
//   auto loss = [](llvm::ArrayRef<Value> a) -> std::vector<Value> {
//     return {sum(square(matmul(a[1], a[0])))};
//   };
//   ... inside a trace:  Value dw = grad(loss)({w, x})[0];
//
// Transforms nest (grad(grad(f)) gives second derivatives). Values of the
// enclosing trace that `f` uses become extra (captured) arguments of its
// func.func, and variables it uses become resource arguments; neither is
// differentiated unless asked for in GradOptions.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_GRADIENTS_H
#define TRACEC_FRONTEND_GRADIENTS_H

#include "tracec/Frontend/Trace.h"

namespace tracec {

/// What a gradient of an argument the result does not depend on is: a
/// compile error, zeros, or (none, TensorFlow's NONE) a null Value. For
/// none, the tracer decides while tracing which arguments reach a result
/// through floating-point values other than stop_gradient's (integers and
/// booleans carry no gradient); where it cannot tell (through a call, or a
/// rule whose gradient is zero) the gradient is zeros.
enum class Unconnected { error, zero, none };

struct GradOptions {
  /// The arguments to differentiate with respect to (JAX's argnums).
  std::vector<int64_t> argnums = {0};
  /// Variables to differentiate with respect to (the gradient of the values
  /// read from them); their gradients follow those of `argnums`.
  std::vector<Variable *> variables = {};
  Unconnected unconnected = Unconnected::zero;
  /// The name of the traced callee's func.func ("" gives a fresh name).
  std::string name = "";
  /// JAX's has_aux (grad and value_and_grad): f returns its scalar loss,
  /// then auxiliary float results that are returned alongside the
  /// gradients, not differentiated. f runs once (a trace.vjp seeded with 1
  /// for the loss and 0 for the auxiliary results).
  bool hasAux = false;
};

/// grad(f)(args): the gradients of f's single rank-0 float result with
/// respect to argnums, then variables (with hasAux: then f's auxiliary
/// results).
Callable grad(Callable f, GradOptions options = {});
/// value_and_grad(f)(args): f's result (with hasAux: then its auxiliary
/// results), then the gradients.
Callable value_and_grad(Callable f, GradOptions options = {});
/// The vector-Jacobian product: f's results at `primals`, then the
/// cotangents of argnums (then variables) given the results' cotangents
/// (one per result of f, of its type).
std::vector<Value> vjp(const Callable &f, llvm::ArrayRef<Value> primals,
                       llvm::ArrayRef<Value> cotangents,
                       GradOptions options = {});

struct JvpOptions {
  /// The arguments that get tangents (JAX's jvp gives every argument one:
  /// empty means all); the others' tangents are zero.
  std::vector<int64_t> argnums = {};
  /// The name of the traced callee's func.func ("" gives a fresh name).
  std::string name = "";
};

/// The Jacobian-vector product (forward mode, JAX's jvp): f's results at
/// `primals`, then the tangent of each floating-point result given the
/// `tangents` of the argnums arguments (one each, converted to its dtype).
/// Records `trace.jvp`; nests with grad/vjp either way (jvp of a gradient is
/// a Hessian-vector product computed forward-over-reverse).
std::vector<Value> jvp(const Callable &f, llvm::ArrayRef<Value> primals,
                       llvm::ArrayRef<Value> tangents, JvpOptions options = {});
/// jvp at several tangent sets (each as `tangents` of jvp): f is traced
/// once and every trace.jvp references that one function, so the pass
/// generates one __jvp_f and compiles it once (jacfwd's columns, Hessians).
std::vector<std::vector<Value>>
jvps(const Callable &f, llvm::ArrayRef<Value> primals,
     llvm::ArrayRef<std::vector<Value>> tangentSets, JvpOptions options = {});

/// What gradients() returns for an x that ys do not depend on.
enum class UnconnectedGradients { none, zero };

struct GradientsOptions {
  /// The cotangents of ys (TensorFlow's grad_ys), one per y, cast and
  /// broadcast to its type; ones if empty.
  std::vector<Value> gradYs = {};
  /// Values treated as constants: no gradient flows through them.
  std::vector<Value> stopGradients = {};
  /// none: a null Value; zero: zeros of x's type.
  UnconnectedGradients unconnected = UnconnectedGradients::none;
};

/// Symbolic gradients of already-recorded Values, as tf.gradients does in a
/// graph: the gradient of sum(ys * gradYs) with respect to each x. The
/// recorded ops from xs to ys are copied into a private func.func (values
/// that do not depend on xs become its extra arguments) and differentiated
/// by a trace.vjp op. Block arguments of loop bodies and branches count as
/// constants. Gradients of integer or bool xs are unconnected, and so are
/// those of xs that reach the ys only through integer or bool values or
/// stop_gradient (as the trace-autodiff pass decides; TensorFlow's NONE);
/// integer or bool ys contribute nothing (with their gradYs). Applying it
/// to its own results gives higher derivatives (hessians). Ys that all come
/// from one function enclosing the current one (a customGradient's
/// gradFn differentiating the function's own values) are sliced there, and
/// the trace.vjp lifts what it uses into the current function.
std::vector<Value> gradients(llvm::ArrayRef<Value> ys, llvm::ArrayRef<Value> xs,
                             const GradientsOptions &options = {});

/// gradients() as a function that can be traced again: `gradient(operands)`
/// records the same trace.vjp (of the same copied function) at whatever
/// Values it is given, one per operand, and returns the gradients of the
/// connected xs. Forward mode over it gives second derivatives
/// forward-over-reverse: jvp(gradient, operands, {e_k}, {xArgument[i]})
/// is column k of x i's Hessian (tracec.hessians).
struct GradientsFunction {
  /// Null when no x is connected.
  Callable gradient;
  /// The recorded values gradients() passes: the connected xs, then the
  /// values the copied ops use.
  std::vector<Value> operands;
  /// For each x: the operand it is (-1 if unconnected), and the index of
  /// its gradient among gradient's results (-1 if unconnected).
  std::vector<int64_t> xArgument;
  std::vector<int64_t> xResult;
};
GradientsFunction gradients_function(llvm::ArrayRef<Value> ys,
                                     llvm::ArrayRef<Value> xs,
                                     const GradientsOptions &options = {});

} // namespace tracec

#endif // TRACEC_FRONTEND_GRADIENTS_H
