//===- DynamicSizes.cpp - Size arithmetic and bound checks at `?` dims ----===//

#include "DynamicSizes.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

SmallVector<int64_t> mlir::trace::staticShape(ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes)
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  return shape;
}

SmallVector<Value> mlir::trace::dynamicOf(OpBuilder &b, Location loc,
                                          RankedTensorType type,
                                          ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamic.push_back(getValueOrCreateConstantIndexOp(b, loc, sizes[d]));
  return dynamic;
}

void mlir::trace::checkAtLeast(OpBuilder &b, Location loc, Operation *op,
                               OpFoldResult size, OpFoldResult bound,
                               const llvm::Twine &what) {
  std::optional<int64_t> s = getConstantIntValue(size);
  std::optional<int64_t> l = getConstantIntValue(bound);
  if ((s && l) || l == 0)
    return;
  Value sizeValue = getValueOrCreateConstantIndexOp(b, loc, size);
  Value boundValue = getValueOrCreateConstantIndexOp(b, loc, bound);
  Value atLeast = arith::MaxSIOp::create(b, loc, sizeValue, boundValue);
  checkSameSize(b, loc, op, sizeValue, atLeast, what);
}

Value mlir::trace::castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

void mlir::trace::checkWindowFits(OpBuilder &b, Location loc, Operation *op,
                                  OpFoldResult size, OpFoldResult window,
                                  int64_t pads, int64_t dilation,
                                  const llvm::Twine &what) {
  AffineExpr s0, s1;
  bindSymbols(b.getContext(), s0, s1);
  OpFoldResult padded =
      affine::makeComposedFoldedAffineApply(b, loc, s0 + pads, {size});
  OpFoldResult span = affine::makeComposedFoldedAffineApply(
      b, loc, (s1 - 1) * dilation + 1, {size, window});
  checkAtLeast(b, loc, op, padded, span, what);
}

void mlir::trace::checkWindowsFit(OpBuilder &b, Location loc, Operation *op,
                                  ArrayRef<OpFoldResult> inSizes,
                                  ArrayRef<OpFoldResult> window,
                                  ArrayRef<int64_t> padding,
                                  ArrayRef<int64_t> dilations) {
  for (int i = 0; i < 2; ++i)
    checkWindowFits(b, loc, op, inSizes[i], window[i],
                    padding[2 * i] + padding[2 * i + 1], dilations[i],
                    "the window does not fit the padded input dim " +
                        llvm::Twine(1 + i));
}

FailureOr<SmallVector<OpFoldResult>>
mlir::trace::reifiedSizes(OpBuilder &b, Operation *op, unsigned index) {
  ReifiedRankedShapedTypeDims shapes;
  if (failed(reifyResultShapes(b, op, shapes)))
    return failure();
  return shapes[index];
}
