//===- ConstantFolding.cpp - Elementwise folding of small constants -------===//

#include "ConstantFolding.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::trace;
using llvm::APFloat;
using llvm::APInt;

SmallVector<int64_t>
mlir::trace::broadcastSourceIndices(ArrayRef<int64_t> result,
                                    ArrayRef<int64_t> operand) {
  int64_t count = ShapedType::getNumElements(result);
  size_t offset = result.size() - operand.size();
  // Row-major strides of the operand, 0 along broadcast (size-1) dims.
  SmallVector<int64_t> strides(result.size(), 0);
  int64_t stride = 1;
  for (size_t i = operand.size(); i-- > 0;) {
    strides[i + offset] = operand[i] == 1 ? 0 : stride;
    stride *= operand[i];
  }
  SmallVector<int64_t> indices(count);
  SmallVector<int64_t> position(result.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t source = 0;
    for (size_t d = 0; d < result.size(); ++d)
      source += position[d] * strides[d];
    indices[linear] = source;
    // Advance the row-major multi-index.
    for (size_t d = result.size(); d-- > 0;) {
      if (++position[d] < result[d])
        break;
      position[d] = 0;
    }
  }
  return indices;
}

static bool hasFloatElements(Attribute attr) {
  auto typed = dyn_cast_or_null<TypedAttr>(attr);
  return typed && isa<FloatType>(getElementTypeOrSelf(typed.getType()));
}

Attribute mlir::trace::foldUnary(Attribute operand, RankedTensorType resultType,
                                 FloatUnaryFn floatFn, IntUnaryFn intFn) {
  if (!operand)
    return {};
  if (hasFloatElements(operand)) {
    if (!floatFn)
      return {};
    return foldElementwise<APFloat, APFloat>(
        operand, resultType,
        [&](ArrayRef<APFloat> args) { return floatFn(args[0]); });
  }
  if (!intFn)
    return {};
  return foldElementwise<APInt, APInt>(
      operand, resultType, [&](ArrayRef<APInt> args) { return intFn(args[0]); });
}

Attribute mlir::trace::foldBinary(Attribute lhs, Attribute rhs,
                                  RankedTensorType resultType,
                                  FloatBinaryFn floatFn, IntBinaryFn intFn) {
  if (!lhs || !rhs)
    return {};
  if (hasFloatElements(lhs)) {
    if (!floatFn)
      return {};
    return foldElementwise<APFloat, APFloat>(
        {lhs, rhs}, resultType,
        [&](ArrayRef<APFloat> args) { return floatFn(args[0], args[1]); });
  }
  if (!intFn)
    return {};
  return foldElementwise<APInt, APInt>(
      {lhs, rhs}, resultType,
      [&](ArrayRef<APInt> args) { return intFn(args[0], args[1]); });
}

Attribute mlir::trace::foldCompare(Attribute lhs, Attribute rhs,
                                   RankedTensorType resultType,
                                   FloatCompareFn floatFn, IntCompareFn intFn) {
  if (!lhs || !rhs)
    return {};
  if (hasFloatElements(lhs))
    return foldElementwise<APFloat, APInt>(
        {lhs, rhs}, resultType, [&](ArrayRef<APFloat> args) {
          return std::optional<APInt>(APInt(1, floatFn(args[0], args[1])));
        });
  return foldElementwise<APInt, APInt>(
      {lhs, rhs}, resultType, [&](ArrayRef<APInt> args) {
        return std::optional<APInt>(APInt(1, intFn(args[0], args[1])));
      });
}

APFloat mlir::trace::applyInDouble(const APFloat &x, double (*fn)(double)) {
  bool losesInfo = false;
  APFloat wide = x;
  wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  APFloat result(fn(wide.convertToDouble()));
  result.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return result;
}

bool mlir::trace::isSplatValue(Attribute attr, double value) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return false;
  Type element = dense.getElementType();
  if (isa<FloatType>(element))
    return dense.getSplatValue<APFloat>().isExactlyValue(value);
  if (element.isInteger(1))
    return false;
  APInt splat = dense.getSplatValue<APInt>();
  return static_cast<double>(splat.getSExtValue()) == value;
}
