//===- DifferentiableOpInterface.cpp - Generated interface definitions ----===//

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

#include "tracec/Dialect/Trace/IR/TraceInterfaces.cpp.inc"

bool mlir::trace::carriesGradient(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}
