//===- TraceShapes.cpp - Shape rules shared by the trace ops --------------===//

#include "tracec/Dialect/Trace/IR/TraceShapes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

std::string mlir::trace::opPrefix(StringRef operationName) {
  return ("'" + operationName + "' op").str();
}

std::string mlir::trace::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (i)
      text += "x";
    text += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return text;
}

std::string mlir::trace::formatList(ArrayRef<int64_t> values) {
  std::string text = "[";
  for (auto [i, value] : llvm::enumerate(values))
    text += (i ? ", " : "") + std::to_string(value);
  return text + "]";
}

std::optional<int64_t> mlir::trace::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::optional<SmallVector<int64_t>>
mlir::trace::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right; missing leading dims act as 1.
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (l == 1) {
      result[i] = r;
    } else if (r == 1) {
      result[i] = l;
    } else if (ShapedType::isDynamic(l)) {
      result[i] = r;
    } else if (ShapedType::isDynamic(r) || l == r) {
      result[i] = l;
    } else {
      return std::nullopt;
    }
  }
  return result;
}

std::string mlir::trace::describeBroadcastMismatch(ArrayRef<int64_t> lhs,
                                                   StringRef lhsName,
                                                   ArrayRef<int64_t> rhs,
                                                   StringRef rhsName) {
  size_t common = std::min(lhs.size(), rhs.size());
  for (size_t i = 1; i <= common; ++i) {
    int64_t l = lhs[lhs.size() - i], r = rhs[rhs.size() - i];
    if (l == r || l == 1 || r == 1 || ShapedType::isDynamic(l) ||
        ShapedType::isDynamic(r))
      continue;
    return (lhsName + " dim " + Twine(lhs.size() - i) + " is " + Twine(l) +
            ", " + rhsName + " dim " + Twine(rhs.size() - i) + " is " +
            Twine(r))
        .str();
  }
  return "";
}

LogicalResult
mlir::trace::verifyNoUnsourcedDynamicDims(Operation *op,
                                          RankedTensorType result) {
  for (auto [i, dim] : llvm::enumerate(result.getShape()))
    if (ShapedType::isDynamic(dim))
      return op->emitOpError("result dim ")
             << i << " is dynamic, but no operand gives its size at run time; "
             << "the result shape must be static, got "
             << formatShape(result.getShape());
  return success();
}

LogicalResult mlir::trace::inferBroadcastResult(
    std::optional<Location> loc, StringRef opName, ArrayRef<Type> operandTypes,
    bool isComparison, SmallVectorImpl<Type> &results) {
  std::string label = opPrefix(opName);
  static constexpr const char *kNames[] = {"lhs", "rhs"};
  SmallVector<RankedTensorType> tensors;
  for (Type type : operandTypes) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return emitOptionalError(loc, label, " operands must be ranked tensors, got ", type);
    tensors.push_back(tensor);
  }
  Type element = tensors.front().getElementType();
  SmallVector<int64_t> shape(tensors.front().getShape());
  for (size_t i = 1; i < tensors.size(); ++i) {
    RankedTensorType tensor = tensors[i];
    if (tensor.getElementType() != element)
      return emitOptionalError(loc, label, " operand element types differ: ",
                               kNames[0], " ", element, " vs ", kNames[1], " ",
                               tensor.getElementType());
    auto broadcast = broadcastShapes(shape, tensor.getShape());
    if (!broadcast)
      return emitOptionalError(
          loc, label, " shapes are not broadcast-compatible: lhs ",
          formatShape(shape), " vs rhs ", formatShape(tensor.getShape()), " (",
          describeBroadcastMismatch(shape, "lhs", tensor.getShape(), "rhs"),
          "; only a static 1 broadcasts)");
    shape = *broadcast;
  }
  if (isComparison)
    element = IntegerType::get(element.getContext(), 1);
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult mlir::trace::inferReductionResult(std::optional<Location> loc,
                                                StringRef opName, Type input,
                                                ArrayRef<int64_t> axes,
                                                bool keepdims,
                                                SmallVectorImpl<Type> &results) {
  std::string label = opPrefix(opName);
  auto tensor = dyn_cast<RankedTensorType>(input);
  if (!tensor)
    return emitOptionalError(loc, label, " operand must be a ranked tensor, got ", input);
  int64_t rank = tensor.getRank();
  llvm::SmallBitVector reduced(rank);
  for (int64_t axis : axes) {
    std::optional<int64_t> dim = normalizeAxis(axis, rank);
    if (!dim)
      return emitOptionalError(loc, label, " axis ", axis,
                               " is out of range for rank ", rank);
    if (reduced.test(*dim))
      return emitOptionalError(loc, label, " axes ", formatList(axes),
                               " name dim ", *dim, " more than once");
    reduced.set(*dim);
  }
  SmallVector<int64_t> shape;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!reduced.test(dim))
      shape.push_back(tensor.getDimSize(dim));
    else if (keepdims)
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, tensor.getElementType()));
  return success();
}

int64_t mlir::trace::windowedOutputSize(int64_t size, int64_t window,
                                        int64_t stride, int64_t padLow,
                                        int64_t padHigh, int64_t dilation) {
  // An unknown input size or window (a dynamic filter dim) gives an unknown
  // output size.
  if (ShapedType::isDynamic(size) || ShapedType::isDynamic(window))
    return ShapedType::kDynamic;
  if (size + padLow + padHigh < dilation * (window - 1) + 1)
    return 0;
  return windowedSize(size, window, stride, padLow, padHigh, dilation);
}

OpFoldResult mlir::trace::reifyWindowedSize(OpBuilder &b, Location loc,
                                            OpFoldResult size,
                                            OpFoldResult window, int64_t stride,
                                            int64_t padLow, int64_t padHigh,
                                            int64_t dilation) {
  AffineExpr s0, s1;
  bindSymbols(b.getContext(), s0, s1);
  return affine::makeComposedFoldedAffineApply(
      b, loc, windowedSize(s0, s1, stride, padLow, padHigh, dilation),
      {size, window});
}

SmallVector<OpFoldResult> mlir::trace::reifyWindowResult(
    OpBuilder &b, Location loc, Value input, OpFoldResult channels,
    ArrayRef<OpFoldResult> window, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations) {
  SmallVector<OpFoldResult> in = tensor::getMixedSizes(b, loc, input);
  SmallVector<OpFoldResult> sizes = {in[0]};
  for (int i = 0; i < 2; ++i)
    sizes.push_back(reifyWindowedSize(b, loc, in[1 + i], window[i], strides[i],
                                      padding[2 * i], padding[2 * i + 1],
                                      dilations[i]));
  sizes.push_back(channels);
  return sizes;
}

namespace {

template <typename OpTy>
OpFoldResult combine(OpBuilder &b, Location loc, OpFoldResult lhs,
                     OpFoldResult rhs,
                     function_ref<int64_t(int64_t, int64_t)> fold) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return b.getIndexAttr(fold(*l, *r));
  return OpTy::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, lhs),
                      getValueOrCreateConstantIndexOp(b, loc, rhs))
      .getResult();
}

} // namespace

OpFoldResult mlir::trace::addSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                                   OpFoldResult rhs) {
  if (getConstantIntValue(rhs) == 0)
    return lhs;
  if (getConstantIntValue(lhs) == 0)
    return rhs;
  return combine<arith::AddIOp>(b, loc, lhs, rhs,
                                [](int64_t l, int64_t r) { return l + r; });
}

OpFoldResult mlir::trace::mulSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                                   OpFoldResult rhs) {
  if (getConstantIntValue(rhs) == 1)
    return lhs;
  if (getConstantIntValue(lhs) == 1)
    return rhs;
  return combine<arith::MulIOp>(b, loc, lhs, rhs,
                                [](int64_t l, int64_t r) { return l * r; });
}

OpFoldResult mlir::trace::subSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                                   OpFoldResult rhs) {
  if (getConstantIntValue(rhs) == 0)
    return lhs;
  return combine<arith::SubIOp>(b, loc, lhs, rhs,
                                [](int64_t l, int64_t r) { return l - r; });
}

OpFoldResult mlir::trace::divSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                                   OpFoldResult rhs) {
  if (getConstantIntValue(rhs) == 1)
    return lhs;
  return combine<arith::FloorDivSIOp>(
      b, loc, lhs, rhs, [](int64_t l, int64_t r) {
        return r ? llvm::divideFloorSigned(l, r) : 0;
      });
}

LogicalResult mlir::trace::reifiedAs(OpBuilder &b, Value result,
                                     ArrayRef<OpFoldResult> sizes,
                                     ReifiedRankedShapedTypeDims &shapes) {
  auto type = cast<RankedTensorType>(result.getType());
  if (static_cast<int64_t>(sizes.size()) != type.getRank())
    return failure();
  SmallVector<OpFoldResult> shape(sizes);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!type.isDynamicDim(d))
      shape[d] = b.getIndexAttr(type.getDimSize(d));
  shapes.push_back(std::move(shape));
  return success();
}

LogicalResult
mlir::trace::reifySameShapeResult(OpBuilder &b, Operation *op,
                                  ReifiedRankedShapedTypeDims &shapes,
                                  Value shapeOf) {
  if (!shapeOf)
    shapeOf = op->getOperand(0);
  return reifiedAs(b, op->getResult(0),
                   tensor::getMixedSizes(b, op->getLoc(), shapeOf), shapes);
}

SmallVector<OpFoldResult>
mlir::trace::reifyBroadcastSizes(OpBuilder &b, Location loc,
                                 ValueRange operands, RankedTensorType result,
                                 int64_t trailing) {
  int64_t rank = result.getRank() - trailing;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    // A static size other than 1 is the size (the `?`s must equal it);
    // else the first `?`; else 1.
    int64_t staticSize = 1;
    OpFoldResult dynamicSize;
    for (Value operand : operands) {
      auto type = cast<RankedTensorType>(operand.getType());
      int64_t at = d - (rank - (type.getRank() - trailing));
      if (at < 0)
        continue;
      if (!type.isDynamicDim(at)) {
        if (type.getDimSize(at) != 1)
          staticSize = type.getDimSize(at);
      } else if (!dynamicSize) {
        dynamicSize = tensor::getMixedSize(b, loc, operand, at);
      }
    }
    sizes.push_back(staticSize == 1 && dynamicSize ? dynamicSize
                                                   : b.getIndexAttr(staticSize));
  }
  return sizes;
}

LogicalResult
mlir::trace::reifyBroadcastResult(OpBuilder &b, Operation *op,
                                  ReifiedRankedShapedTypeDims &shapes) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  return reifiedAs(
      b, op->getResult(0),
      reifyBroadcastSizes(b, op->getLoc(), op->getOperands(), type), shapes);
}

LogicalResult mlir::trace::reifyReductionResult(
    OpBuilder &b, Operation *op, Value input, ArrayRef<int64_t> axes,
    bool keepdims, ReifiedRankedShapedTypeDims &shapes) {
  auto type = cast<RankedTensorType>(input.getType());
  llvm::SmallBitVector reduced(type.getRank());
  for (int64_t axis : axes)
    if (std::optional<int64_t> dim = normalizeAxis(axis, type.getRank()))
      reduced.set(*dim);
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!reduced.test(d))
      sizes.push_back(tensor::getMixedSize(b, op->getLoc(), input, d));
    else if (keepdims)
      sizes.push_back(b.getIndexAttr(1));
  }
  return reifiedAs(b, op->getResult(0), sizes, shapes);
}

LogicalResult mlir::trace::inferPoolResult(std::optional<Location> loc,
                                           StringRef opName, Type input,
                                           ArrayRef<int64_t> window,
                                           ArrayRef<int64_t> strides,
                                           ArrayRef<int64_t> padding,
                                           SmallVectorImpl<Type> &results) {
  std::string label = opPrefix(opName);
  auto tensor = dyn_cast<RankedTensorType>(input);
  if (!tensor || tensor.getRank() != 4)
    return emitOptionalError(loc, label,
                             " input must be a 4-D NHWC tensor, got ", input);
  if (window.size() != 2 || llvm::any_of(window, [](int64_t w) { return w < 1; }))
    return emitOptionalError(loc, label,
                             " window must be 2 positive sizes [kh, kw], got ",
                             formatList(window));
  if (strides.size() != 2 || llvm::any_of(strides, [](int64_t s) { return s < 1; }))
    return emitOptionalError(loc, label,
                             " strides must be 2 positive values [sh, sw], got ",
                             formatList(strides));
  if (padding.size() != 4 || llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return emitOptionalError(
        loc, label,
        " padding must be 4 non-negative values [top, bottom, left, right], "
        "got ",
        formatList(padding));
  for (int i = 0; i < 2; ++i) {
    if (padding[2 * i] >= window[i] || padding[2 * i + 1] >= window[i])
      return emitOptionalError(loc, label, " padding of dim ", i + 1,
                               " must be smaller than the window (",
                               window[i], ")");
  }
  ArrayRef<int64_t> shape = tensor.getShape();
  for (int i = 0; i < 2; ++i) {
    int64_t size = shape[1 + i];
    int64_t padded;
    if (!ShapedType::isDynamic(size) &&
        (llvm::AddOverflow(size, padding[2 * i], padded) ||
         llvm::AddOverflow(padded, padding[2 * i + 1], padded)))
      return emitOptionalError(loc, label, " padded input dim ", i + 1,
                               " overflows: ", size, " + ", padding[2 * i],
                               " + ", padding[2 * i + 1]);
  }
  int64_t h = windowedOutputSize(shape[1], window[0], strides[0], padding[0],
                                 padding[1]);
  int64_t w = windowedOutputSize(shape[2], window[1], strides[1], padding[2],
                                 padding[3]);
  if (h == 0 || w == 0)
    return emitOptionalError(loc, label, " window ", formatShape(window),
                             " does not fit the padded input ",
                             formatShape(shape));
  results.push_back(RankedTensorType::get({shape[0], h, w, shape[3]},
                                          tensor.getElementType()));
  return success();
}

bool mlir::trace::onlyUnitDimsDiffer(ArrayRef<int64_t> from,
                                     ArrayRef<int64_t> to) {
  auto nonUnit = [](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> dims;
    for (int64_t dim : shape)
      if (dim != 1)
        dims.push_back(dim);
    return dims;
  };
  SmallVector<int64_t> a = nonUnit(from), b = nonUnit(to);
  if (a.size() != b.size())
    return false;
  return a == b;
}
