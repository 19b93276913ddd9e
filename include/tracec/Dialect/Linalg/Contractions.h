//===- Contractions.h - What the contraction passes keep for themselves ---===//
//
// The CPU pipeline packs, tiles and vectorizes contractions and convolutions
// with passes of their own (or hands them to micro-kernels); the fusions
// before it must leave those ops as they are, or the fused generic loses the
// fast path. One predicate, so that every fusion agrees on which ops those are.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_DIALECT_LINALG_CONTRACTIONS_H
#define TRACEC_DIALECT_LINALG_CONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::trace {

/// A linalg op that is a contraction (matmul-like, any dims) or a
/// convolution.
inline bool isContractionOrConvolution(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && (linalg::isaContractionOpInterface(linalgOp) ||
                      linalg::isaConvolutionOpInterface(linalgOp));
}

} // namespace mlir::trace

#endif // TRACEC_DIALECT_LINALG_CONTRACTIONS_H
