//===- GradientBuilder.cpp - Small helpers the gradient rules share -------===//

#include "GradientBuilder.h"

#include "tracec/Dialect/Trace/IR/TraceShapes.h"

using namespace mlir;
using namespace mlir::trace;

Value GradientBuilder::constant(double value, Value like) {
  Type element = cast<RankedTensorType>(like.getType()).getElementType();
  auto type = RankedTensorType::get({}, element);
  return ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(type, builder.getFloatAttr(element, value)));
}

Value GradientBuilder::unbroadcast(Value cotangent, Type type) {
  auto from = cast<RankedTensorType>(cotangent.getType());
  auto to = cast<RankedTensorType>(type);
  if (from == to)
    return cotangent;
  // Broadcasting stretched the missing leading dims and the static 1s (a
  // `?` never stretches, so a `?` operand dim is summed over nothing).
  int64_t offset = from.getRank() - to.getRank();
  SmallVector<int64_t> axes, kept;
  for (int64_t d = 0; d < from.getRank(); ++d) {
    if (d < offset ||
        (to.getDimSize(d - offset) == 1 && from.getDimSize(d) != 1)) {
      axes.push_back(d);
      if (d >= offset)
        kept.push_back(1);
    } else {
      kept.push_back(from.getDimSize(d));
    }
  }
  Value summed = cotangent;
  if (!axes.empty())
    summed = ReduceSumOp::create(builder, loc, cotangent,
                                 builder.getDenseI64ArrayAttr(axes),
                                 /*keepdims=*/true);
  // keepdims left the leading dims as 1s: reshape them away (a reshape of
  // unit dims only, valid with any number of `?`).
  if (cast<RankedTensorType>(summed.getType()).getShape() !=
      ArrayRef<int64_t>(kept))
    summed = ReshapeOp::create(builder, loc, from.clone(kept), summed);
  // What remains differs at most in static knowledge (`?` vs 3).
  Value cast = castCotangent(builder, summed, to);
  return cast ? cast : summed;
}

Value GradientBuilder::broadcastLike(Value value, Value like) {
  auto type = cast<RankedTensorType>(value.getType());
  auto target = cast<RankedTensorType>(like.getType()).getShape();
  if (type.getShape() == target)
    return value;
  // The operand gives every `?` size itself when each `?` of the target is
  // aligned with a `?` of the operand; otherwise the sizes come from `like`.
  int64_t offset = target.size() - type.getRank();
  bool sizesFromOperand = true;
  for (auto [d, size] : llvm::enumerate(target))
    if (ShapedType::isDynamic(size))
      sizesFromOperand &=
          static_cast<int64_t>(d) >= offset && type.isDynamicDim(d - offset);
  if (sizesFromOperand)
    return BroadcastToOp::create(builder, loc, value, target);
  return BroadcastToOp::create(builder, loc, value, like);
}

Value GradientBuilder::reshapeLike(Value value, Value like) {
  auto type = cast<RankedTensorType>(value.getType());
  auto target = cast<RankedTensorType>(like.getType());
  if (type.getShape() == target.getShape())
    return value;
  // One `?` is inferred from the element count; several follow from the
  // operand when only unit dims move; otherwise `like` gives them.
  if (target.getNumDynamicDims() <= 1 ||
      onlyUnitDimsDiffer(type.getShape(), target.getShape()))
    return ReshapeOp::create(builder, loc, value, target.getShape());
  return ReshapeOp::create(builder, loc, value, like);
}

Value GradientBuilder::size(Value x, ArrayRef<int64_t> axes, Type element) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t count = 1;
  for (int64_t axis : axes) {
    int64_t dim = type.getDimSize(*normalizeAxis(axis, type.getRank()));
    if (ShapedType::isDynamic(dim))
      return SizeOp::create(builder, loc, x, axes, element);
    count *= dim;
  }
  auto scalar = RankedTensorType::get({}, element);
  return ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(
          scalar, builder.getFloatAttr(element, static_cast<double>(count))));
}

Value GradientBuilder::fitTo(Value tangent, Value like) {
  auto from = cast<RankedTensorType>(tangent.getType());
  auto to = cast<RankedTensorType>(like.getType());
  // Only the same rank and no static 1 facing another size (which NumPy
  // stretches) may be a plain cast: a `?` never stretches.
  bool castOnly = from.getRank() == to.getRank();
  for (int64_t d = 0; castOnly && d < from.getRank(); ++d)
    castOnly = from.getDimSize(d) == to.getDimSize(d) ||
               (from.getDimSize(d) != 1 &&
                (from.isDynamicDim(d) || to.isDynamicDim(d)));
  Value fitted = castOnly ? tangent : broadcastLike(tangent, like);
  Value cast = castCotangent(builder, fitted, to);
  return cast ? cast : fitted;
}
