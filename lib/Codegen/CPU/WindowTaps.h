//===- WindowTaps.h - Window reductions as elementwise ops over taps ------===//
//
// An op that reduces over a small static window (a pooling, a pooling's
// gradient), as one elementwise op over the window's taps: an op
// trace-cpu-vectorize vectorizes along the channels. See WindowTaps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_CODEGEN_CPU_WINDOWTAPS_H
#define TRACEC_CODEGEN_CPU_WINDOWTAPS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace tracec {

/// Larger windows (global pooling) stay loops: one operand per tap.
inline constexpr int64_t kMaxWindowTaps = 16;

/// Rewrites every window reduction under `root` (static shapes, at most
/// kMaxWindowTaps taps) as a linalg.generic of identity maps that folds its
/// accumulators with one strided slice of each windowed operand per tap.
void rewriteWindowsAsTaps(mlir::Operation *root, mlir::RewriterBase &rewriter);

/// Whether `op` is a pooling: a convolution whose window operand only
/// shapes the loops (the body never reads it).
bool isPooling(mlir::linalg::LinalgOp op);

} // namespace tracec

#endif // TRACEC_CODEGEN_CPU_WINDOWTAPS_H
