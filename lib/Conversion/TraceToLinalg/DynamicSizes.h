//===- DynamicSizes.h - Size arithmetic and bound checks at `?` dims ------===//
//
// Sizes as OpFoldResults: constants where the types fix them (so static
// shapes keep static types), index values computed at run time otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_CONVERSION_TRACETOLINALG_DYNAMICSIZES_H
#define TRACEC_LIB_CONVERSION_TRACETOLINALG_DYNAMICSIZES_H

#include "tracec/Dialect/Trace/IR/TraceShapes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::trace {

/// The static shape of `sizes` (`?` where a size is not a constant).
SmallVector<int64_t> staticShape(ArrayRef<OpFoldResult> sizes);

/// The sizes of `sizes` that `type` has as `?` dims (for tensor.empty).
SmallVector<Value> dynamicOf(OpBuilder &b, Location loc, RankedTensorType type,
                             ArrayRef<OpFoldResult> sizes);

/// A run-time check that `size` >= `bound`, where they are not both
/// constants (checkSameSize of `size` and max(size, bound), so that the
/// shape function's message names the argument dim and shows the bound).
void checkAtLeast(OpBuilder &b, Location loc, Operation *op, OpFoldResult size,
                  OpFoldResult bound, const llvm::Twine &what);

/// `value` cast to `type` (tensor.cast) where the types differ.
Value castTo(OpBuilder &b, Location loc, Value value, Type type);

/// A run-time check that a window of `window` elements dilated by
/// `dilation` fits `size` elements padded by `pads`, where that is not
/// static (the window's output size, reified by the op, assumes it does).
void checkWindowFits(OpBuilder &b, Location loc, Operation *op,
                     OpFoldResult size, OpFoldResult window, int64_t pads,
                     int64_t dilation, const llvm::Twine &what);

/// The window-fits checks of an NHWC window op over `input`: `window` and
/// `dilations` per spatial dim, `padding` [top, bottom, left, right].
void checkWindowsFit(OpBuilder &b, Location loc, Operation *op,
                     ArrayRef<OpFoldResult> inSizes,
                     ArrayRef<OpFoldResult> window, ArrayRef<int64_t> padding,
                     ArrayRef<int64_t> dilations);

/// The sizes of `op`'s result `index` by its ReifyRankedShapedTypeOpInterface:
/// the rule its result type is inferred by, at run time.
FailureOr<SmallVector<OpFoldResult>> reifiedSizes(OpBuilder &b, Operation *op,
                                                  unsigned index = 0);

} // namespace mlir::trace

#endif // TRACEC_LIB_CONVERSION_TRACETOLINALG_DYNAMICSIZES_H
