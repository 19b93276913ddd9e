//===- ShapeConstantFolding.cpp - Shape ops evaluated on small constants --===//
//
// Graphs compute shapes at run time (Keras' Flatten: Shape -> StridedSlice
// -> Pack -> Reshape, Prod of dims); with static shapes those values are
// small constants, and folding concat, slice, gather and integer products
// keeps them constants for the ops that need a shape as an attribute.
//
//===----------------------------------------------------------------------===//

#include "ConstantFolding.h"

using namespace mlir;
using namespace mlir::trace;

/// A dense constant of at most kMaxFoldedElements elements, or null.
static DenseElementsAttr smallConstant(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || dense.getNumElements() > kMaxFoldedElements)
    return nullptr;
  return dense;
}

/// Row-major strides of `shape`.
static SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Whether `type` is static and small enough to fold into.
static bool foldable(RankedTensorType type) {
  std::optional<int64_t> count = getElementCount(type.getShape());
  return count && *count <= kMaxFoldedElements;
}

Attribute mlir::trace::foldConcat(ArrayRef<Attribute> operands, int64_t axis,
                                  RankedTensorType resultType) {
  if (!foldable(resultType) || operands.empty())
    return {};
  SmallVector<DenseElementsAttr> parts;
  for (Attribute operand : operands) {
    DenseElementsAttr part = smallConstant(operand);
    if (!part)
      return {};
    parts.push_back(part);
  }
  int64_t rank = resultType.getRank();
  axis = axis < 0 ? axis + rank : axis;
  // Outer (dims before axis) blocks, each the parts' rows in turn.
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= resultType.getDimSize(d);
  SmallVector<SmallVector<Attribute>> values;
  for (DenseElementsAttr part : parts)
    values.emplace_back(part.getValues<Attribute>());
  SmallVector<Attribute> out;
  for (int64_t o = 0; o < outer; ++o)
    for (auto [part, v] : llvm::zip(parts, values)) {
      int64_t block = part.getNumElements() / std::max<int64_t>(outer, 1);
      out.append(v.begin() + o * block, v.begin() + (o + 1) * block);
    }
  return DenseElementsAttr::get(resultType, out);
}

Attribute mlir::trace::foldSlice(Attribute operand, ArrayRef<int64_t> start,
                                 ArrayRef<int64_t> strides,
                                 RankedTensorType resultType) {
  DenseElementsAttr x = smallConstant(operand);
  if (!x || !foldable(resultType))
    return {};
  SmallVector<Attribute> values(x.getValues<Attribute>());
  SmallVector<int64_t> inStrides = rowMajorStrides(x.getType().getShape());
  ArrayRef<int64_t> box = resultType.getShape();
  SmallVector<int64_t> boxStrides = rowMajorStrides(box);
  SmallVector<Attribute> out;
  for (int64_t i = 0, n = resultType.getNumElements(); i < n; ++i) {
    int64_t at = 0;
    for (size_t d = 0; d < box.size(); ++d)
      at +=
          (start[d] + (i / boxStrides[d]) % box[d] * strides[d]) * inStrides[d];
    out.push_back(values[at]);
  }
  return DenseElementsAttr::get(resultType, out);
}

Attribute mlir::trace::foldGather(Attribute paramsAttr, Attribute indicesAttr,
                                  int64_t axis, RankedTensorType resultType) {
  DenseElementsAttr params = smallConstant(paramsAttr);
  DenseElementsAttr indices = smallConstant(indicesAttr);
  if (!params || !indices || !foldable(resultType))
    return {};
  ArrayRef<int64_t> shape = params.getType().getShape();
  axis = axis < 0 ? axis + int64_t(shape.size()) : axis;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < int64_t(shape.size()); ++d)
    inner *= shape[d];
  int64_t size = shape[axis];
  if (size == 0)
    return {};
  SmallVector<Attribute> values(params.getValues<Attribute>());
  SmallVector<int64_t> taken;
  for (const APInt &index : indices.getValues<APInt>())
    taken.push_back(std::clamp<int64_t>(index.getSExtValue(), 0, size - 1));
  SmallVector<Attribute> out;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t index : taken)
      for (int64_t i = 0; i < inner; ++i)
        out.push_back(values[(o * size + index) * inner + i]);
  return DenseElementsAttr::get(resultType, out);
}

Attribute mlir::trace::foldIntegerProduct(Attribute operand,
                                          ArrayRef<int64_t> axes,
                                          RankedTensorType resultType) {
  DenseElementsAttr x = smallConstant(operand);
  if (!x || !foldable(resultType) || !x.getElementType().isInteger() ||
      x.getElementType().isInteger(1))
    return {};
  ArrayRef<int64_t> in = x.getType().getShape();
  int64_t rank = in.size();
  // Each element's place in the result: its index with the reduced dims 0.
  SmallVector<int64_t> kept(in);
  for (int64_t axis : axes)
    kept[axis < 0 ? axis + rank : axis] = 1;
  SmallVector<int64_t> keptStrides = rowMajorStrides(kept);
  SmallVector<int64_t> inStrides = rowMajorStrides(in);
  unsigned width = x.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> products(resultType.getNumElements(), APInt(width, 1));
  SmallVector<APInt> values(x.getValues<APInt>());
  for (int64_t i = 0; i < int64_t(values.size()); ++i) {
    int64_t at = 0;
    for (int64_t d = 0; d < rank; ++d)
      if (kept[d] != 1)
        at += (i / inStrides[d]) % in[d] * keptStrides[d];
    products[at] *= values[i];
  }
  return DenseElementsAttr::get(resultType, products);
}
