//===- ConvPoolBackpropOps.cpp - Shape rules of the conv/pool backprop ops ===//
//
// Each backprop op takes the forward op's attributes and the shape of the
// operand whose cotangent it returns; `dy` must have the forward op's result
// shape for that operand (dynamic dims match anything). max_pool2d_select,
// max_pool2d_grad's transpose, has max_pool2d's attributes and result and
// takes a `t` of the input's shape.
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// `operand` as a 4-D ranked tensor, or an error naming it and its layout.
FailureOr<RankedTensorType> get4D(std::optional<Location> loc,
                                  const std::string &label, StringRef operand,
                                  StringRef layout, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() != 4)
    return emitOptionalError(loc, label, " ", operand, " must be a 4-D ",
                             layout, " tensor, got ", type);
  return tensor;
}

/// A shape attribute: 4 positive sizes.
LogicalResult checkShapeAttr(std::optional<Location> loc,
                             const std::string &label, StringRef name,
                             StringRef layout, ArrayRef<int64_t> shape) {
  if (shape.size() == 4 && allPositive(shape))
    return success();
  return emitOptionalError(loc, label, " ", name, " must be 4 positive sizes ",
                           layout, ", got ", formatList(shape));
}

LogicalResult checkElementTypes(std::optional<Location> loc,
                                const std::string &label, StringRef lhsName,
                                RankedTensorType lhs, StringRef rhsName,
                                RankedTensorType rhs) {
  if (lhs.getElementType() == rhs.getElementType())
    return success();
  return emitOptionalError(loc, label, " operand element types differ: ",
                           lhsName, " ", lhs.getElementType(), " vs ", rhsName,
                           " ", rhs.getElementType());
}

/// The conv2d output shape of `input` (NHWC) with `filter` (HWCF), after
/// checking the attributes and the sizes like conv2d does.
FailureOr<SmallVector<int64_t>>
conv2dOutputShape(std::optional<Location> loc, const std::string &label,
                  StringRef inputName, ArrayRef<int64_t> in,
                  StringRef filterName, ArrayRef<int64_t> f,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                  ArrayRef<int64_t> dilations) {
  if (strides.size() != 2 || !allPositive(strides))
    return emitOptionalError(
        loc, label, " strides must be 2 positive values [sh, sw], got ",
        formatList(strides));
  if (dilations.size() != 2 || !allPositive(dilations))
    return emitOptionalError(
        loc, label, " dilations must be 2 positive values [dh, dw], got ",
        formatList(dilations));
  if (padding.size() != 4 ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return emitOptionalError(loc, label,
                             " padding must be 4 non-negative values [top, "
                             "bottom, left, right], got ",
                             formatList(padding));
  if (!ShapedType::isDynamic(in[3]) && !ShapedType::isDynamic(f[2]) &&
      in[3] != f[2])
    return emitOptionalError(loc, label, " input channels differ: ",
                             inputName, " ", in[3], " vs ", filterName, " ",
                             f[2]);
  for (int i = 0; i < 2; ++i) {
    if (!ShapedType::isDynamic(f[i]) && f[i] < 1)
      return emitOptionalError(loc, label, " ", filterName,
                               " spatial dims must be positive, got ",
                               formatShape(f.take_front(2)));
  }
  for (int i = 0; i < 2; ++i) {
    int64_t padded, span;
    if (!ShapedType::isDynamic(in[1 + i]) &&
        (llvm::AddOverflow(in[1 + i], padding[2 * i], padded) ||
         llvm::AddOverflow(padded, padding[2 * i + 1], padded)))
      return emitOptionalError(loc, label, " padded ", inputName, " dim ",
                               i + 1, " overflows: ", in[1 + i], " + ",
                               padding[2 * i], " + ", padding[2 * i + 1]);
    if (!ShapedType::isDynamic(f[i]) &&
        (llvm::MulOverflow(dilations[i], f[i] - 1, span) ||
         llvm::AddOverflow(span, int64_t(1), span)))
      return emitOptionalError(loc, label, " dilated ", filterName, " dim ", i,
                               " overflows: dilation ", dilations[i], " x (",
                               f[i], " - 1)");
  }
  SmallVector<int64_t> shape = {in[0]};
  for (int i = 0; i < 2; ++i) {
    int64_t size = windowedOutputSize(in[1 + i], f[i], strides[i],
                                      padding[2 * i], padding[2 * i + 1],
                                      dilations[i]);
    if (size == 0)
      return emitOptionalError(loc, label, " ", filterName, " ",
                               formatShape(f.take_front(2)),
                               " (dilated) does not fit the padded ",
                               inputName, " ", formatShape(in));
    shape.push_back(size);
  }
  shape.push_back(f[3]);
  return shape;
}

/// `dy` must have the forward op's result shape `expected`; `what` says
/// which forward op and operands produced it.
LogicalResult checkDy(std::optional<Location> loc, const std::string &label,
                      RankedTensorType dy, ArrayRef<int64_t> expected,
                      const Twine &what) {
  for (auto [actual, wanted] : llvm::zip_equal(dy.getShape(), expected)) {
    if (ShapedType::isDynamic(actual) || ShapedType::isDynamic(wanted) ||
        actual == wanted)
      continue;
    return emitOptionalError(loc, label, " dy shape ",
                             formatShape(dy.getShape()), " does not match ",
                             formatShape(expected), ", the ", what.str());
  }
  return success();
}

/// The input shape of conv2d_backprop_input or avg_pool2d_grad: the
/// `input_shape` attribute (4 positive sizes), or the shape of `like` (a 4-D
/// tensor whose `?` dims the result takes at run time); exactly one.
FailureOr<SmallVector<int64_t>>
inputShapeOf(std::optional<Location> loc, const std::string &label,
             std::optional<ArrayRef<int64_t>> attr, Value like) {
  if (like && attr)
    return emitOptionalError(loc, label,
                             " takes either 'input_shape' or 'like', not both");
  if (like) {
    FailureOr<RankedTensorType> type =
        get4D(loc, label, "like", "NHWC", like.getType());
    if (failed(type))
      return failure();
    return SmallVector<int64_t>(type->getShape());
  }
  if (!attr)
    return emitOptionalError(loc, label, " needs 'input_shape' or 'like'");
  if (failed(checkShapeAttr(loc, label, "input_shape", "[N, H, W, C]", *attr)))
    return failure();
  return SmallVector<int64_t>(*attr);
}

} // namespace

LogicalResult Conv2DBackpropInputOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  std::string label = opPrefix(getOperationName());
  FailureOr<RankedTensorType> filter = get4D(
      loc, label, "filter", "HWCF", adaptor.getFilter().getType());
  if (failed(filter))
    return failure();
  FailureOr<RankedTensorType> dy =
      get4D(loc, label, "dy", "NHWC", adaptor.getDy().getType());
  if (failed(dy))
    return failure();
  if (failed(checkElementTypes(loc, label, "filter", *filter, "dy", *dy)))
    return failure();
  FailureOr<SmallVector<int64_t>> inputShape = inputShapeOf(
      loc, label, adaptor.getInputShape(), adaptor.getLike());
  if (failed(inputShape))
    return failure();
  FailureOr<SmallVector<int64_t>> out = conv2dOutputShape(
      loc, label, "input_shape", *inputShape, "filter", filter->getShape(),
      adaptor.getStrides(), adaptor.getPadding(), adaptor.getDilations());
  if (failed(out))
    return failure();
  if (failed(checkDy(loc, label, *dy, *out,
                     "conv2d output shape of input_shape and filter")))
    return failure();
  types.push_back(
      RankedTensorType::get(*inputShape, filter->getElementType()));
  return success();
}

LogicalResult Conv2DBackpropFilterOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  std::string label = opPrefix(getOperationName());
  FailureOr<RankedTensorType> input =
      get4D(loc, label, "input", "NHWC", adaptor.getInput().getType());
  if (failed(input))
    return failure();
  FailureOr<RankedTensorType> dy =
      get4D(loc, label, "dy", "NHWC", adaptor.getDy().getType());
  if (failed(dy))
    return failure();
  if (failed(checkElementTypes(loc, label, "input", *input, "dy", *dy)))
    return failure();
  ArrayRef<int64_t> filterShape = adaptor.getFilterShape();
  if (failed(checkShapeAttr(loc, label, "filter_shape", "[KH, KW, C, F]",
                            filterShape)))
    return failure();
  FailureOr<SmallVector<int64_t>> out = conv2dOutputShape(
      loc, label, "input", input->getShape(), "filter_shape", filterShape,
      adaptor.getStrides(), adaptor.getPadding(), adaptor.getDilations());
  if (failed(out))
    return failure();
  if (failed(checkDy(loc, label, *dy, *out,
                     "conv2d output shape of input and filter_shape")))
    return failure();
  types.push_back(
      RankedTensorType::get(filterShape, input->getElementType()));
  return success();
}

LogicalResult MaxPool2DGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  std::string label = opPrefix(getOperationName());
  SmallVector<Type> pooled;
  if (failed(inferPoolResult(loc, getOperationName(),
                             adaptor.getInput().getType(), adaptor.getWindow(),
                             adaptor.getStrides(), adaptor.getPadding(),
                             pooled)))
    return failure();
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  FailureOr<RankedTensorType> dy =
      get4D(loc, label, "dy", "NHWC", adaptor.getDy().getType());
  if (failed(dy))
    return failure();
  if (failed(checkElementTypes(loc, label, "input", input, "dy", *dy)))
    return failure();
  if (failed(checkDy(loc, label, *dy,
                     cast<RankedTensorType>(pooled.front()).getShape(),
                     "max_pool2d output shape of input")))
    return failure();
  types.push_back(input);
  return success();
}

LogicalResult AvgPool2DGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  std::string label = opPrefix(getOperationName());
  FailureOr<RankedTensorType> dy =
      get4D(loc, label, "dy", "NHWC", adaptor.getDy().getType());
  if (failed(dy))
    return failure();
  FailureOr<SmallVector<int64_t>> inputShape = inputShapeOf(
      loc, label, adaptor.getInputShape(), adaptor.getLike());
  if (failed(inputShape))
    return failure();
  auto input = RankedTensorType::get(*inputShape, dy->getElementType());
  SmallVector<Type> pooled;
  if (failed(inferPoolResult(loc, getOperationName(), input,
                             adaptor.getWindow(), adaptor.getStrides(),
                             adaptor.getPadding(), pooled)))
    return failure();
  if (failed(checkDy(loc, label, *dy,
                     cast<RankedTensorType>(pooled.front()).getShape(),
                     "avg_pool2d output shape of input_shape")))
    return failure();
  types.push_back(input);
  return success();
}

// Run-time sizes: the result is `like` where the op has one (input_shape
// is static), the input for max_pool2d_grad.

/// The result sizes of an op that returns the cotangent of an input given
/// as `like` or as the static `inputShape`.
template <typename OpTy>
static LogicalResult reifyLikeOrInputShape(OpBuilder &b, OpTy op,
                                           ReifiedRankedShapedTypeDims &shapes) {
  if (op.getLike())
    return reifySameShapeResult(b, op, shapes, op.getLike());
  return reifiedAs(b, op.getResult(),
                   getAsIndexOpFoldResult(b.getContext(), *op.getInputShape()),
                   shapes);
}

LogicalResult
Conv2DBackpropInputOp::reifyResultShapes(OpBuilder &b,
                                         ReifiedRankedShapedTypeDims &shapes) {
  return reifyLikeOrInputShape(b, *this, shapes);
}

LogicalResult
AvgPool2DGradOp::reifyResultShapes(OpBuilder &b,
                                   ReifiedRankedShapedTypeDims &shapes) {
  return reifyLikeOrInputShape(b, *this, shapes);
}

LogicalResult
MaxPool2DGradOp::reifyResultShapes(OpBuilder &b,
                                   ReifiedRankedShapedTypeDims &shapes) {
  return reifySameShapeResult(b, *this, shapes, getInput());
}

LogicalResult
Conv2DBackpropFilterOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  return reifiedAs(b, getResult(),
                   getAsIndexOpFoldResult(b.getContext(), getFilterShape()),
                   shapes);
}

// The shape rules run backwards (getKnownOperandShapes): what the static
// result, the attributes and the other operands say each operand's shape
// must be.

/// `known` unless it is `?`, then `fallback`.
static int64_t orElse(int64_t known, int64_t fallback) {
  return ShapedType::isDynamic(known) ? fallback : known;
}

SmallVector<SmallVector<int64_t>> Conv2DBackpropInputOp::getKnownOperandShapes() {
  ArrayRef<int64_t> in = getType().getShape();
  auto filter = cast<RankedTensorType>(getFilter().getType()).getShape();
  auto dy = cast<RankedTensorType>(getDy().getType()).getShape();
  int64_t f = orElse(filter[3], dy[3]);
  SmallVector<int64_t> out = {in[0]};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(
        in[1 + i], filter[i], getStrides()[i], getPadding()[2 * i],
        getPadding()[2 * i + 1], getDilations()[i]));
  out.push_back(f);
  return {{filter[0], filter[1], in[3], f}, out};
}

SmallVector<SmallVector<int64_t>> Conv2DBackpropFilterOp::getKnownOperandShapes() {
  ArrayRef<int64_t> f = getType().getShape();
  auto in = cast<RankedTensorType>(getInput().getType()).getShape();
  auto dy = cast<RankedTensorType>(getDy().getType()).getShape();
  int64_t n = orElse(in[0], dy[0]);
  SmallVector<int64_t> out = {n};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(
        in[1 + i], f[i], getStrides()[i], getPadding()[2 * i],
        getPadding()[2 * i + 1], getDilations()[i]));
  out.push_back(f[3]);
  return {{n, in[1], in[2], f[2]}, out};
}

SmallVector<SmallVector<int64_t>> MaxPool2DGradOp::getKnownOperandShapes() {
  auto in = cast<RankedTensorType>(getInput().getType()).getShape();
  auto dy = cast<RankedTensorType>(getDy().getType()).getShape();
  int64_t n = orElse(in[0], dy[0]), c = orElse(in[3], dy[3]);
  SmallVector<int64_t> out = {n};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(in[1 + i], getWindow()[i],
                                     getStrides()[i], getPadding()[2 * i],
                                     getPadding()[2 * i + 1]));
  out.push_back(c);
  return {{n, in[1], in[2], c}, out};
}

SmallVector<SmallVector<int64_t>> AvgPool2DGradOp::getKnownOperandShapes() {
  ArrayRef<int64_t> in = getType().getShape();
  SmallVector<int64_t> out = {in[0]};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(in[1 + i], getWindow()[i],
                                     getStrides()[i], getPadding()[2 * i],
                                     getPadding()[2 * i + 1]));
  out.push_back(in[3]);
  return {out};
}

//===----------------------------------------------------------------------===//
// max_pool2d_select
//===----------------------------------------------------------------------===//

LogicalResult MaxPool2DSelectOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  std::string label = opPrefix(getOperationName());
  if (failed(inferPoolResult(loc, getOperationName(),
                             adaptor.getInput().getType(), adaptor.getWindow(),
                             adaptor.getStrides(), adaptor.getPadding(),
                             types)))
    return failure();
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  auto t = dyn_cast<RankedTensorType>(adaptor.getT().getType());
  if (!t || t.getRank() != 4)
    return emitOptionalError(loc, label, " t must be a 4-D NHWC tensor, got ",
                             adaptor.getT().getType());
  if (t.getElementType() != input.getElementType())
    return emitOptionalError(loc, label,
                             " operand element types differ: input ",
                             input.getElementType(), " vs t ",
                             t.getElementType());
  for (auto [actual, wanted] : llvm::zip_equal(t.getShape(), input.getShape()))
    if (!ShapedType::isDynamic(actual) && !ShapedType::isDynamic(wanted) &&
        actual != wanted)
      return emitOptionalError(loc, label, " t shape ",
                               formatShape(t.getShape()),
                               " does not match the input shape ",
                               formatShape(input.getShape()));
  return success();
}

LogicalResult
MaxPool2DSelectOp::reifyResultShapes(OpBuilder &b,
                                     ReifiedRankedShapedTypeDims &shapes) {
  return reifiedAs(
      b, getResult(),
      reifyWindowResult(b, getLoc(), getInput(),
                        tensor::getMixedSize(b, getLoc(), getInput(), 3),
                        getAsIndexOpFoldResult(b.getContext(), getWindow()),
                        getStrides(), getPadding(), {1, 1}),
      shapes);
}
