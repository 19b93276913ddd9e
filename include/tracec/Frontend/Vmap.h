//===- Vmap.h - vmap of traced callables ----------------------------------===//
//
// JAX's vmap: `vmap(f, args, inAxes, outAxes)`, inside a trace, traces `f`
// at one example of the mapped arguments (their mapped dim removed) into a
// private func.func of the module and records `trace.vmap @f(args)`; the
// trace-vmap pass generates the batched function when the module is
// compiled. Values of the enclosing trace that `f` uses become unmapped
// arguments; variables it reads are read just before the op and passed as
// unmapped values (f may not assign them).
//
//   // per-example gradients: dw[i] = grad(loss)({w, x[i]})
//   Value dw = vmap(grad(loss), {w, x}, {-1, 0}, {0})[0];
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_VMAP_H
#define TRACEC_FRONTEND_VMAP_H

#include "tracec/Frontend/Trace.h"

namespace tracec {

/// f mapped over dim `inAxes[i]` of each argument i (-1: not mapped; dims
/// count from 0); the batch dim of result j goes to `outAxes[j]` (one
/// entry: every result).
/// Throws TraceError where the mapped dims differ in size or an axis is out
/// of range.
std::vector<Value> vmap(const Callable &f, llvm::ArrayRef<Value> args,
                        llvm::ArrayRef<int64_t> inAxes,
                        llvm::ArrayRef<int64_t> outAxes = {0});

} // namespace tracec

#endif // TRACEC_FRONTEND_VMAP_H
