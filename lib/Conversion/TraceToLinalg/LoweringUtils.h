//===- LoweringUtils.h - Small builders the lowerings share ---------------===//

#ifndef TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H
#define TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H

#include "mlir/IR/Builders.h"

namespace mlir::trace {

/// A tensor of `shape` filled with the constant `value` (tensor.empty +
/// linalg.fill): the accumulator of a contraction, reduction or pooling.
Value filledTensor(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
                   TypedAttr value);

} // namespace mlir::trace

#endif // TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H
