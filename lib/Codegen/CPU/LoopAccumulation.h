//===- LoopAccumulation.h - Loop-carried sums into contractions -----------===//
//
// A loop-carried sum of contraction results (the weight gradient of an
// unrolled-by-loop RNN) accumulated by the contraction itself. See
// LoopAccumulation.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_CODEGEN_CPU_LOOPACCUMULATION_H
#define TRACEC_CODEGEN_CPU_LOOPACCUMULATION_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace tracec {

/// In every scf.for under `root`, rewrites `acc + contraction(a, b)` (an
/// elementwise linalg addition of a carried value `acc` and a contraction
/// into zeros that has no other use) as `contraction(a, b)` into `acc`.
void accumulateLoopSumsInContractions(mlir::Operation *root,
                                      mlir::RewriterBase &rewriter);

} // namespace tracec

#endif // TRACEC_CODEGEN_CPU_LOOPACCUMULATION_H
