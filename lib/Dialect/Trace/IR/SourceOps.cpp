//===- SourceOps.cpp - constant, fill, iota, random -----------------------===//

#include "ConstantFolding.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceTypeConstraints.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::trace;

/// A source's result shape: `like`'s where given (its `?` dims are read at
/// run time), else static.
static LogicalResult verifySourceShape(Operation *op, Value like,
                                       RankedTensorType result) {
  if (!like)
    return verifyNoUnsourcedDynamicDims(op, result);
  auto likeType = cast<RankedTensorType>(like.getType());
  if (likeType.getShape() != result.getShape())
    return op->emitOpError("result shape ")
           << formatShape(result.getShape()) << " must be the shape of 'like' "
           << formatShape(likeType.getShape());
  return success();
}

/// The same rule at run time: `like`'s sizes, else the static shape; the
/// control token of a random op has none.
static LogicalResult reifySourceShape(OpBuilder &b, Operation *op, Value like,
                                      ReifiedRankedShapedTypeDims &shapes) {
  Value result = op->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  if (like) {
    if (failed(reifySameShapeResult(b, op, shapes, like)))
      return failure();
  } else if (!type.hasStaticShape()) {
    return failure();
  } else if (failed(reifiedAs(b, result,
                              getAsIndexOpFoldResult(b.getContext(),
                                                     type.getShape()),
                              shapes))) {
    return failure();
  }
  for (unsigned i = 1; i < op->getNumResults(); ++i)
    shapes.emplace_back();
  return success();
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  ElementsAttr value = adaptor.getValueAttr();
  if (!value)
    return emitOptionalError(loc, "constant: missing 'value'");
  types.push_back(value.getType());
  return success();
}

LogicalResult ConstantOp::verify() {
  auto type = dyn_cast<RankedTensorType>(getValue().getType());
  if (!type || !isTraceElementType(type.getElementType()))
    return emitOpError("value must be a ranked tensor of f16, bf16, "
                       "f32, f64, i1, i32 or i64, got ")
           << getValue().getType();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// fill
//===----------------------------------------------------------------------===//

void FillOp::build(OpBuilder &builder, OperationState &state, Value value,
                   ArrayRef<int64_t> shape) {
  auto scalar = cast<RankedTensorType>(value.getType());
  build(builder, state, RankedTensorType::get(shape, scalar.getElementType()),
        value, Value());
}

void FillOp::build(OpBuilder &builder, OperationState &state, Value value,
                   Value like) {
  auto scalar = cast<RankedTensorType>(value.getType());
  auto shape = cast<RankedTensorType>(like.getType()).getShape();
  build(builder, state, RankedTensorType::get(shape, scalar.getElementType()),
        value, like);
}

LogicalResult FillOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  return reifySourceShape(b, *this, getLike(), shapes);
}

LogicalResult FillOp::verify() {
  auto value = cast<RankedTensorType>(getValue().getType());
  if (value.getRank() != 0)
    return emitOpError("value must be a scalar (rank-0) tensor, got ")
           << value;
  if (value.getElementType() != getType().getElementType())
    return emitOpError("result element type ")
           << getType().getElementType() << " differs from the value's "
           << value.getElementType();
  return verifySourceShape(*this, getLike(), getType());
}

OpFoldResult FillOp::fold(FoldAdaptor adaptor) {
  auto value = dyn_cast_or_null<DenseElementsAttr>(adaptor.getValue());
  if (!value || !getType().hasStaticShape())
    return {};
  return value.resizeSplat(getType());
}

//===----------------------------------------------------------------------===//
// iota
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  return reifySourceShape(b, *this, getLike(), shapes);
}

LogicalResult IotaOp::verify() {
  int64_t rank = getType().getRank();
  if (rank == 0)
    return emitOpError("result must have rank >= 1");
  if (!normalizeAxis(getAxis(), rank))
    return emitOpError("axis ")
           << getAxis() << " is out of range for rank " << rank;
  return verifySourceShape(*this, getLike(), getType());
}

OpFoldResult IotaOp::fold(FoldAdaptor) {
  RankedTensorType type = getType();
  std::optional<int64_t> count = getElementCount(type.getShape());
  if (!count || *count > kMaxFoldedElements)
    return {};
  int64_t axis = *normalizeAxis(getAxis(), type.getRank());
  // Row-major: the value at linear index i is (i / stride) % dim(axis).
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d > axis; --d)
    stride *= type.getDimSize(d);
  int64_t dim = type.getDimSize(axis);
  Type element = type.getElementType();
  if (auto floatType = dyn_cast<FloatType>(element)) {
    SmallVector<llvm::APFloat> values;
    for (int64_t i = 0; i < *count; ++i) {
      llvm::APFloat v(static_cast<double>((i / stride) % dim));
      bool losesInfo = false;
      v.convert(floatType.getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      values.push_back(v);
    }
    return DenseElementsAttr::get(type, values);
  }
  SmallVector<llvm::APInt> values;
  for (int64_t i = 0; i < *count; ++i)
    values.emplace_back(element.getIntOrFloatBitWidth(), (i / stride) % dim);
  return DenseElementsAttr::get(type, values);
}

//===----------------------------------------------------------------------===//
// random_uniform, random_normal
//===----------------------------------------------------------------------===//

LogicalResult RandomUniformOp::reifyResultShapes(OpBuilder &b,
                                                 ReifiedRankedShapedTypeDims &shapes) {
  return reifySourceShape(b, *this, getLike(), shapes);
}

/// A uniform distribution's [low, high): finite and not empty.
static LogicalResult verifyUniformRange(Operation *op, APFloat lowValue,
                                        APFloat highValue) {
  double low = lowValue.convertToDouble();
  double high = highValue.convertToDouble();
  if (!std::isfinite(low) || !std::isfinite(high))
    return op->emitOpError("low and high must be finite, got low = ")
           << low << " and high = " << high;
  if (!(low < high))
    return op->emitOpError("low (")
           << low << ") must be less than high (" << high << ")";
  return success();
}

/// A normal distribution's mean (finite) and stddev (positive, finite).
static LogicalResult verifyNormalParameters(Operation *op, APFloat meanValue,
                                            APFloat stddevValue) {
  double mean = meanValue.convertToDouble();
  double stddev = stddevValue.convertToDouble();
  if (!std::isfinite(mean))
    return op->emitOpError("mean must be finite, got ") << mean;
  if (!std::isfinite(stddev) || !(stddev > 0))
    return op->emitOpError("stddev must be positive and finite, got ")
           << stddev;
  return success();
}

LogicalResult RandomUniformOp::verify() {
  if (failed(verifyUniformRange(*this, getLow(), getHigh())))
    return failure();
  return verifySourceShape(*this, getLike(),
                           cast<RankedTensorType>(getResult().getType()));
}

LogicalResult RandomNormalOp::reifyResultShapes(OpBuilder &b,
                                                ReifiedRankedShapedTypeDims &shapes) {
  return reifySourceShape(b, *this, getLike(), shapes);
}

LogicalResult RandomNormalOp::verify() {
  if (failed(verifyNormalParameters(*this, getMean(), getStddev())))
    return failure();
  return verifySourceShape(*this, getLike(),
                           cast<RankedTensorType>(getResult().getType()));
}

//===----------------------------------------------------------------------===//
// stateless_random_uniform, stateless_random_normal, stateless_random_bits
//===----------------------------------------------------------------------===//

/// The key is the two words of a Philox key; the result has a static shape.
static LogicalResult verifyStatelessRandom(Operation *op, Value key,
                                           Type result) {
  auto keyType = cast<RankedTensorType>(key.getType());
  if (keyType.getShape() != ArrayRef<int64_t>{2} ||
      !keyType.getElementType().isInteger(32))
    return op->emitOpError("key must be a tensor<2xi32> (a random key), got ")
           << keyType;
  if (!cast<RankedTensorType>(result).hasStaticShape())
    return op->emitOpError("result must have a static shape, got ") << result;
  return success();
}

LogicalResult StatelessRandomUniformOp::verify() {
  if (failed(verifyUniformRange(*this, getLow(), getHigh())))
    return failure();
  return verifyStatelessRandom(*this, getKey(), getType());
}

LogicalResult StatelessRandomNormalOp::verify() {
  if (failed(verifyNormalParameters(*this, getMean(), getStddev())))
    return failure();
  return verifyStatelessRandom(*this, getKey(), getType());
}

LogicalResult StatelessRandomBitsOp::verify() {
  auto counter = cast<RankedTensorType>(getCounter().getType());
  if (counter.getRank() != 0 || !counter.getElementType().isInteger(32))
    return emitOpError("counter must be a tensor<i32>, got ") << counter;
  if (!getType().getElementType().isInteger(32))
    return emitOpError("result must have i32 elements, got ") << getType();
  return verifyStatelessRandom(*this, getKey(), getType());
}
