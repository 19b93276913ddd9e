//===- Call.h - Calls of traced functions ---------------------------------===//
//
// A function traced once into a private func.func of the current trace and
// called with func.call wherever it is used (TensorFlow's nested defuns):
//
//   auto dense = [&](llvm::ArrayRef<Value> a) -> std::vector<Value> {
//     return {relu(matmul(a[0], read(w)))};
//   };
//   ... inside a trace:
//   Value h1 = call("dense", {x}, dense)[0];   // traces @dense, calls it
//   Value h2 = call("dense", {h1}, dense)[0];  // calls @dense again
//
// Variables the callee uses are passed as `!trace.resource` arguments by
// each call, captured host tensors as tensor arguments, so one func.func
// serves every call site. trace-autodiff differentiates through the calls
// and trace-auto-control-deps orders them with the other stateful ops.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_CALL_H
#define TRACEC_FRONTEND_CALL_H

#include "tracec/Frontend/Trace.h"

namespace tracec {

/// How tracec::call passes variables.
struct CallOptions {
  /// The callee's variable reads become tensor arguments, and each call
  /// site reads the variables just before the call (what a gradient tape
  /// of the caller differentiates: the reads are the caller's values). The
  /// callee must then not assign variables (TraceError): it is pure, so
  /// gradients() of the caller's values can slice through its calls.
  /// Calls traced inside such a callee hoist their reads too.
  bool hoistReads = false;
  /// With hoistReads: receives the reads the call site made, in the
  /// callee's argument order.
  std::vector<std::pair<Variable *, Value>> *reads = nullptr;
};

/// Records `func.call @name(args...)`. The first call of `name` in the
/// current trace records @name by tracing `fn` on Values of the arguments'
/// types; later calls reuse it (without calling `fn`) and must pass the
/// same types, else TraceError. A callee that uses Values of an enclosing
/// function (not arguments, variables or host tensors) is specific to its
/// call site: it is traced again at each call, as @name_1, @name_2, ...
std::vector<Value> call(llvm::StringRef name, llvm::ArrayRef<Value> args,
                        const Callable &fn, const CallOptions &options = {});

/// Whether `call(name, ...)` would reuse an already traced @name (so `fn`
/// would not run).
bool isTracedCallee(llvm::StringRef name);

/// call() of a function that was not traced but written down: function
/// `entry` of `moduleText`, a module of the `trace` dialect in MLIR text (an
/// imported TensorFlow GraphDef, a .mlir file). The first call of `name` in
/// the current trace copies `entry`'s body into @name and the functions of
/// the module into the trace (as @name_<function>); later calls reuse them.
/// `entry` takes tensor arguments, then `!trace.resource` ones: the
/// resources are `variables`, passed like the variables of a traced callee
/// (hoisting reads of them throws TraceError, as does a mismatch of the
/// arguments' number or types with `entry`'s).
std::vector<Value> callModuleFunction(llvm::StringRef name,
                                      llvm::StringRef moduleText,
                                      llvm::StringRef entry,
                                      llvm::ArrayRef<Value> args,
                                      llvm::ArrayRef<Variable *> variables = {},
                                      const CallOptions &options = {});

} // namespace tracec

#endif // TRACEC_FRONTEND_CALL_H
