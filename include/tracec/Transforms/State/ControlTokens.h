//===- ControlTokens.h - Control tokens for generated functions -*- C++ -*-===//
//
// What trace-auto-control-deps does for other passes that generate
// functions with state after it ran.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TRANSFORMS_STATE_CONTROLTOKENS_H
#define TRACEC_TRANSFORMS_STATE_CONTROLTOKENS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::trace {

/// Gives `func` a control token as its last argument and its last result,
/// the form trace-auto-control-deps gives a function with state that a call
/// reaches, and orders its body as that pass does: every stateful op waits
/// for the token argument, and the returned token for every stateful op.
/// Tokens the ops already take are kept. trace-autodiff uses it for the
/// forward (and __jvp) function of an ordered gradient op, a copy of code
/// the pass ordered already; `func` must be in a module and have no
/// callers yet.
LogicalResult threadControlToken(func::FuncOp func);

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_STATE_CONTROLTOKENS_H
