//===- ConvPoolOps.cpp - conv2d (pooling shares TraceShapes) --------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
  auto filter = dyn_cast<RankedTensorType>(adaptor.getFilter().getType());
  if (!input || input.getRank() != 4)
    return emitOptionalError(loc, "'trace.conv2d' op input must be a 4-D NHWC tensor, got ",
                             adaptor.getInput().getType());
  if (!filter || filter.getRank() != 4)
    return emitOptionalError(loc, "'trace.conv2d' op filter must be a 4-D HWCF tensor, got ",
                             adaptor.getFilter().getType());
  if (input.getElementType() != filter.getElementType())
    return emitOptionalError(loc, "'trace.conv2d' op operand element types differ: input ",
                             input.getElementType(), " vs filter ",
                             filter.getElementType());
  ArrayRef<int64_t> strides = adaptor.getStrides();
  ArrayRef<int64_t> padding = adaptor.getPadding();
  ArrayRef<int64_t> dilations = adaptor.getDilations();
  if (strides.size() != 2 || !allPositive(strides))
    return emitOptionalError(
        loc, "'trace.conv2d' op strides must be 2 positive values [sh, sw], got ",
        formatList(strides));
  if (dilations.size() != 2 || !allPositive(dilations))
    return emitOptionalError(
        loc,
        "'trace.conv2d' op dilations must be 2 positive values [dh, dw], got ",
        formatList(dilations));
  if (padding.size() != 4 ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return emitOptionalError(loc,
                             "'trace.conv2d' op padding must be 4 non-negative "
                             "values [top, bottom, left, right], got ",
                             formatList(padding));
  ArrayRef<int64_t> in = input.getShape(), f = filter.getShape();
  int64_t c = in[3], fc = f[2];
  if (!ShapedType::isDynamic(c) && !ShapedType::isDynamic(fc) && c != fc)
    return emitOptionalError(loc, "'trace.conv2d' op input channels differ: input ", c,
                             " vs filter ", fc);
  for (int i = 0; i < 2; ++i) {
    if (!ShapedType::isDynamic(f[i]) && f[i] < 1)
      return emitOptionalError(
          loc, "'trace.conv2d' op filter spatial dims must be positive, got ",
          formatShape(f.take_front(2)));
  }
  // The padded input and the dilated filter must have representable sizes.
  for (int i = 0; i < 2; ++i) {
    int64_t padded, span;
    if (!ShapedType::isDynamic(in[1 + i]) &&
        (llvm::AddOverflow(in[1 + i], padding[2 * i], padded) ||
         llvm::AddOverflow(padded, padding[2 * i + 1], padded)))
      return emitOptionalError(loc, "'trace.conv2d' op padded input dim ",
                               i + 1, " overflows: ", in[1 + i], " + ",
                               padding[2 * i], " + ", padding[2 * i + 1]);
    if (!ShapedType::isDynamic(f[i]) &&
        (llvm::MulOverflow(dilations[i], f[i] - 1, span) ||
         llvm::AddOverflow(span, int64_t(1), span)))
      return emitOptionalError(loc, "'trace.conv2d' op dilated filter dim ",
                               i, " overflows: dilation ", dilations[i],
                               " x (", f[i], " - 1)");
  }
  SmallVector<int64_t> shape = {in[0]};
  for (int i = 0; i < 2; ++i) {
    int64_t size = windowedOutputSize(in[1 + i], f[i], strides[i],
                                      padding[2 * i], padding[2 * i + 1],
                                      dilations[i]);
    if (size == 0)
      return emitOptionalError(loc, "'trace.conv2d' op filter ", formatShape(f.take_front(2)),
                               " (dilated) does not fit the padded input ",
                               formatShape(in));
    shape.push_back(size);
  }
  shape.push_back(f[3]);
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult Conv2DOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  SmallVector<OpFoldResult> f = tensor::getMixedSizes(b, loc, getFilter());
  return reifiedAs(b, getResult(),
                   reifyWindowResult(b, loc, getInput(), f[3], {f[0], f[1]},
                                     getStrides(), getPadding(),
                                     getDilations()),
                   shapes);
}
