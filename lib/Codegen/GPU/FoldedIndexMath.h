//===- FoldedIndexMath.h - Sizes that are constants where static ----------===//
//
// The kernel builders size grids and loops from linalg loop ranges, which
// are attributes where static and memref.dim values where dynamic. These
// helpers fold the static cases, so static kernels keep constant grids.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_TARGET_CUDA_FOLDEDINDEXMATH_H
#define TRACEC_LIB_TARGET_CUDA_FOLDEDINDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::trace {

/// `value` as an index Value, a constant where it is one.
inline Value materialize(OpBuilder &b, Location loc, OpFoldResult value) {
  return getValueOrCreateConstantIndexOp(b, loc, value);
}

/// lhs * rhs.
inline OpFoldResult foldedMul(OpBuilder &b, Location loc, OpFoldResult lhs,
                              OpFoldResult rhs) {
  std::optional<int64_t> x = getConstantIntValue(lhs);
  std::optional<int64_t> y = getConstantIntValue(rhs);
  if (x && y)
    return b.getIndexAttr(*x * *y);
  if (x == 1)
    return rhs;
  if (y == 1)
    return lhs;
  return arith::MulIOp::create(b, loc, materialize(b, loc, lhs),
                               materialize(b, loc, rhs))
      .getResult();
}

/// The product of `extents`.
inline OpFoldResult foldedProduct(OpBuilder &b, Location loc,
                                  ArrayRef<OpFoldResult> extents) {
  OpFoldResult result = b.getIndexAttr(1);
  for (OpFoldResult extent : extents)
    result = foldedMul(b, loc, result, extent);
  return result;
}

/// ceil(value / divisor) of a non-negative value.
inline OpFoldResult foldedCeilDiv(OpBuilder &b, Location loc,
                                  OpFoldResult value, int64_t divisor) {
  if (std::optional<int64_t> x = getConstantIntValue(value))
    return b.getIndexAttr(llvm::divideCeil(*x, divisor));
  return arith::CeilDivUIOp::create(
             b, loc, materialize(b, loc, value),
             arith::ConstantIndexOp::create(b, loc, divisor))
      .getResult();
}

} // namespace mlir::trace

#endif // TRACEC_LIB_TARGET_CUDA_FOLDEDINDEXMATH_H
