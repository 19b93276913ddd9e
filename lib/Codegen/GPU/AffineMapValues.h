//===- AffineMapValues.h - An indexing map applied to loop indices --------===//
//
// The GPU kernel builders index a linalg op's operands from the loop
// indices they emit: one affine.apply per result of the operand's map.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_TRANSFORMS_AFFINEMAPVALUES_H
#define TRACEC_LIB_TRANSFORMS_AFFINEMAPVALUES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace mlir::trace {

/// The value of each result of `map` at `ivs`.
inline SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  return indices;
}

} // namespace mlir::trace

#endif // TRACEC_LIB_TRANSFORMS_AFFINEMAPVALUES_H
