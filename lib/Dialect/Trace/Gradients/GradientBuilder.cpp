//===- GradientBuilder.cpp - Small helpers the gradient rules share -------===//

#include "GradientBuilder.h"

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
  int64_t offset = from.getRank() - to.getRank();
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < from.getRank(); ++d)
    if (d < offset || (to.getDimSize(d - offset) == 1 && from.getDimSize(d) != 1))
      axes.push_back(d);
  Value summed = ReduceSumOp::create(builder, loc, cotangent,
                                     builder.getDenseI64ArrayAttr(axes),
                                     /*keepdims=*/true);
  // keepdims left the leading dims as 1s: reshape them away.
  if (summed.getType() != to)
    summed = ReshapeOp::create(builder, loc, to, summed);
  return summed;
}
