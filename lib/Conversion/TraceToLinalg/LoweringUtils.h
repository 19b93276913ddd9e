//===- LoweringUtils.h - Small builders the lowerings share ---------------===//

#ifndef TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H
#define TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H

#include "mlir/IR/Builders.h"

namespace mlir::trace {

/// A tensor of `shape` filled with the constant `value` (tensor.empty +
/// linalg.fill): the accumulator of a contraction, reduction or pooling.
Value filledTensor(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
                   TypedAttr value);

/// The number of non-padding rows (or columns) in the window of output
/// position `out` (an index): the window covers
/// [out * stride - padBefore, ... + size) of an input dim of `extent`
/// elements.
Value inBoundsCount(OpBuilder &builder, Location loc, Value out,
                    int64_t stride, int64_t padBefore, int64_t size,
                    int64_t extent);

} // namespace mlir::trace

#endif // TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H
