//===- ControlFlow.h - cond, while_loop, fori_loop ------------------------===//
//
// Control flow whose branches and bodies are traced once into regions of
// `scf.if`, `scf.while` and `scf.for` (JAX's lax.cond/while_loop/fori_loop).
// Branches and bodies may use any Value of the enclosing trace; Values
// created inside them cannot be used after they return (return them
// instead). Loop-carried values must keep their types, and both branches of
// a cond must return the same types, else TraceError names the mismatch.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_CONTROLFLOW_H
#define TRACEC_FRONTEND_CONTROLFLOW_H

#include "tracec/Frontend/Trace.h"

namespace tracec {

/// pred ? trueFn(operands) : falseFn(operands). `pred` is a rank-0 tensor
/// (a non-bool one is compared with zero).
std::vector<Value> cond(const Value &pred, const Callable &trueFn,
                        const Callable &falseFn,
                        llvm::ArrayRef<Value> operands = {});

/// vals = init; while (condFn(vals)) vals = bodyFn(vals); returns vals.
/// condFn returns one rank-0 Value (compared with zero unless bool).
std::vector<Value> while_loop(const Callable &condFn, const Callable &bodyFn,
                              llvm::ArrayRef<Value> init);

/// vals = init; for i in [lower, upper): vals = bodyFn(i, vals...); returns
/// vals. `i` is a rank-0 i64 Value.
std::vector<Value> fori_loop(int64_t lower, int64_t upper,
                             const Callable &bodyFn,
                             llvm::ArrayRef<Value> init);
/// fori_loop with bounds computed by the trace: rank-0 int32 or int64
/// Values (no iteration if upper <= lower).
std::vector<Value> fori_loop(const Value &lower, const Value &upper,
                             const Callable &bodyFn,
                             llvm::ArrayRef<Value> init);

/// The dtypes and shapes of what fn() returns, traced into a block that is
/// then dropped: nothing it records stays in the trace, and its Values
/// cannot be used afterwards. AutoGraph's trial iteration: the type of a
/// value a loop makes that has none before it.
std::vector<TensorSpec> output_specs(const Callable &fn);

} // namespace tracec

#endif // TRACEC_FRONTEND_CONTROLFLOW_H
