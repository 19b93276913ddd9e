//===- DifferentiableOpInterface.cpp - Generated interface definitions ----===//

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;

#include "tracec/Dialect/Trace/IR/TraceInterfaces.cpp.inc"

RankedTensorType mlir::trace::withBatchDim(Type type, int64_t size) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  // A batched scalar (an i1 a cond branches on) is a rank-1 tensor.
  if (!tensor)
    return RankedTensorType::get({size}, type);
  SmallVector<int64_t> shape = {size};
  llvm::append_range(shape, tensor.getShape());
  return tensor.clone(shape);
}

Type mlir::trace::cotangentType(Type type) {
  if (auto resource = dyn_cast<ResourceType>(type))
    return resource.getValueType();
  return type;
}

bool mlir::trace::carriesGradient(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(cotangentType(type));
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool mlir::trace::carriesTangent(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
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

FailureOr<Value> mlir::trace::zerosLike(OpBuilder &builder, Location loc,
                                        Value like) {
  auto tensor = dyn_cast<RankedTensorType>(cotangentType(like.getType()));
  if (!tensor || tensor.hasStaticShape() ||
      !isa<RankedTensorType>(like.getType()))
    return zerosLike(builder, loc, like.getType());
  auto scalar = RankedTensorType::get({}, tensor.getElementType());
  Value zero = ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(scalar,
                             builder.getZeroAttr(tensor.getElementType())));
  return BroadcastToOp::create(builder, loc, zero, like).getResult();
}

Value mlir::trace::castCotangent(OpBuilder &builder, Value cotangent,
                                 Type type) {
  if (cotangent.getType() == type)
    return cotangent;
  if (!tensor::CastOp::areCastCompatible(cotangent.getType(), type))
    return {};
  return tensor::CastOp::create(builder, cotangent.getLoc(), type, cotangent);
}

bool mlir::trace::readsAnyOf(Operation *op, function_ref<bool(Value)> in) {
  return op
      ->walk([&](Operation *nested) {
        return llvm::any_of(nested->getOperands(), in) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
      })
      .wasInterrupted();
}
