//===- PoolingTaps.h - Poolings as elementwise ops over window taps -------===//
//
// A pooling with a small static window, as one elementwise op over its
// window's taps (strided slices of the input): an op trace-cpu-vectorize
// vectorizes along the channels. See PoolingTaps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_CODEGEN_CPU_POOLINGTAPS_H
#define TRACEC_CODEGEN_CPU_POOLINGTAPS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace tracec {

/// Rewrites every static NHWC pooling under `root` whose window has at most
/// kMaxPoolingTaps taps and unit dilations as a linalg.generic of identity
/// maps combining its accumulator with one strided slice per tap.
void rewritePoolingsAsTaps(mlir::Operation *root, mlir::RewriterBase &rewriter);

/// Larger windows (global pooling) stay poolings: one operand per tap.
inline constexpr int64_t kMaxPoolingTaps = 16;

} // namespace tracec

#endif // TRACEC_CODEGEN_CPU_POOLINGTAPS_H
