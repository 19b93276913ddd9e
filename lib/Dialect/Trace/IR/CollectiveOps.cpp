//===- CollectiveOps.cpp - all_reduce -------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

LogicalResult AllReduceOp::verify() {
  StringRef reduction = getReduction();
  if (!llvm::is_contained({"sum", "mean", "max", "min"}, reduction))
    return emitOpError("reduction must be sum, mean, max or min, got '")
           << reduction << "'";
  RankedTensorType type = getX().getType();
  Type element = type.getElementType();
  // The element types MPI's lowering has a datatype for.
  if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
      !element.isInteger(64))
    return emitOpError("elements must be f32, f64, i32 or i64, got ")
           << element;
  if (reduction == "mean" && !isa<FloatType>(element))
    return emitOpError("mean needs float elements, got ") << element;
  if (!type.hasStaticShape())
    return emitOpError("needs a static shape, got ") << type;
  return success();
}
