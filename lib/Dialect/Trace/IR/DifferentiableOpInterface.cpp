//===- DifferentiableOpInterface.cpp - Generated interface definitions ----===//

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;

#include "tracec/Dialect/Trace/IR/TraceInterfaces.cpp.inc"

Type mlir::trace::cotangentType(Type type) {
  if (auto resource = dyn_cast<ResourceType>(type))
    return resource.getValueType();
  return type;
}

bool mlir::trace::carriesGradient(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(cotangentType(type));
  return tensor && isa<FloatType>(tensor.getElementType());
}

FailureOr<Value> mlir::trace::zerosLike(OpBuilder &builder, Location loc,
                                        Type type) {
  auto tensor = dyn_cast<RankedTensorType>(cotangentType(type));
  if (!tensor || !tensor.hasStaticShape())
    return emitError(loc) << "cannot make a zero cotangent of type " << type
                          << " (static shapes only)";
  return ConstantOp::create(
             builder, loc,
             DenseElementsAttr::get(
                 tensor, builder.getZeroAttr(tensor.getElementType())))
      .getResult();
}
