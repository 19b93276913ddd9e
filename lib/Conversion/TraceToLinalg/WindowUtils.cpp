//===- WindowUtils.cpp - Window arithmetic the conv/pool lowerings share --===//

#include "WindowUtils.h"

#include "DynamicSizes.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tracec/Dialect/Trace/IR/TraceShapes.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::trace;

bool mlir::trace::hasPadding(ArrayRef<int64_t> padding) {
  return llvm::any_of(padding, [](int64_t p) { return p != 0; });
}

Value mlir::trace::padSpatial(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> padding, TypedAttr value) {
  if (!hasPadding(padding))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> low = {0, padding[0], padding[2], 0};
  SmallVector<int64_t> high = {0, padding[1], padding[3], 0};
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = 0; d < 4; ++d)
    if (!ShapedType::isDynamic(shape[d]))
      shape[d] += low[d] + high[d];
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  Value padValue = arith::ConstantOp::create(b, loc, value);
  return tensor::PadOp::create(
      b, loc, paddedType, input, getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), high), padValue);
}

namespace {

/// The number of non-padding rows (or columns) in the window of output
/// position `out` (an index): the window covers
/// [out * stride - padBefore, ... + size) of an input dim of `extent`
/// elements.
Value inBoundsCount(OpBuilder &b, Location loc, Value out, int64_t stride,
                    int64_t padBefore, int64_t size, OpFoldResult extent) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value start = arith::SubIOp::create(
      b, loc, arith::MulIOp::create(b, loc, out, index(stride)),
      index(padBefore));
  Value end = arith::AddIOp::create(b, loc, start, index(size));
  Value first = arith::MaxSIOp::create(b, loc, start, index(0));
  Value last = arith::MinSIOp::create(
      b, loc, end, getValueOrCreateConstantIndexOp(b, loc, extent));
  return arith::SubIOp::create(b, loc, last, first);
}

} // namespace

Value mlir::trace::windowCount(OpBuilder &b, Location loc, Type element,
                               ArrayRef<int64_t> window,
                               ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> padding, OpFoldResult height,
                               OpFoldResult width) {
  if (!hasPadding(padding))
    return arith::ConstantOp::create(
        b, loc, b.getFloatAttr(element, window[0] * window[1]));
  Value rows = inBoundsCount(b, loc, linalg::IndexOp::create(b, loc, 1),
                             strides[0], padding[0], window[0], height);
  Value cols = inBoundsCount(b, loc, linalg::IndexOp::create(b, loc, 2),
                             strides[1], padding[2], window[1], width);
  Value product = arith::MulIOp::create(b, loc, rows, cols);
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), product);
  return arith::SIToFPOp::create(b, loc, element, asInt);
}

OpFoldResult mlir::trace::sizeOf(OpBuilder &b, Location loc, Value value,
                                 int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(d))
    return b.getIndexAttr(type.getDimSize(d));
  return dimSize(b, loc, value, d);
}

OpFoldResult mlir::trace::maxSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                                   OpFoldResult rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return b.getIndexAttr(std::max(*l, *r));
  return arith::MaxSIOp::create(b, loc,
                                getValueOrCreateConstantIndexOp(b, loc, lhs),
                                getValueOrCreateConstantIndexOp(b, loc, rhs))
      .getResult();
}

namespace {

/// The spread tensor's size along one spatial dim: it must hold the last
/// output position, at offset + (outSize - 1) * stride, and be readable at
/// every ih + padBefore + offset for ih < inSize.
OpFoldResult spreadSize(OpBuilder &b, Location loc, OpFoldResult inSize,
                        int64_t padBefore, int64_t offset, OpFoldResult outSize,
                        int64_t stride) {
  OpFoldResult read =
      addSizes(b, loc, inSize, b.getIndexAttr(padBefore + offset));
  OpFoldResult last =
      addSizes(b, loc,
               mulSizes(b, loc, subSizes(b, loc, outSize, b.getIndexAttr(1)),
                        b.getIndexAttr(stride)),
               b.getIndexAttr(offset + 1));
  return maxSizes(b, loc, read, last);
}

} // namespace

SmallVector<OpFoldResult>
mlir::trace::spreadSizes(OpBuilder &b, Location loc, Value source,
                         ArrayRef<OpFoldResult> inSizes,
                         ArrayRef<int64_t> padding, ArrayRef<int64_t> offsets,
                         ArrayRef<int64_t> strides) {
  SmallVector<OpFoldResult> sizes = {sizeOf(b, loc, source, 0)};
  for (int i = 0; i < 2; ++i)
    sizes.push_back(spreadSize(b, loc, inSizes[i], padding[2 * i], offsets[i],
                               sizeOf(b, loc, source, 1 + i), strides[i]));
  sizes.push_back(sizeOf(b, loc, source, 3));
  return sizes;
}

void mlir::trace::checkOutputSizes(OpBuilder &b, Location loc, Operation *op,
                                   Value dy, ArrayRef<OpFoldResult> inSizes,
                                   ArrayRef<int64_t> window,
                                   ArrayRef<int64_t> strides,
                                   ArrayRef<int64_t> padding,
                                   ArrayRef<int64_t> dilations) {
  SmallVector<OpFoldResult> windowSizes =
      getAsIndexOpFoldResult(b.getContext(), window);
  checkWindowsFit(b, loc, op, inSizes, windowSizes, padding, dilations);
  for (int i = 0; i < 2; ++i) {
    OpFoldResult want = reifyWindowedSize(
        b, loc, inSizes[i], windowSizes[i], strides[i], padding[2 * i],
        padding[2 * i + 1], dilations[i]);
    OpFoldResult got = sizeOf(b, loc, dy, 1 + i);
    if (getConstantIntValue(want) && getConstantIntValue(got))
      continue;
    checkSameSize(b, loc, op, getValueOrCreateConstantIndexOp(b, loc, got),
                  getValueOrCreateConstantIndexOp(b, loc, want),
                  "dim " + Twine(1 + i) +
                      " of dy is not the window's output size over the "
                      "input's dim " +
                      Twine(1 + i));
  }
}

Value mlir::trace::spread(OpBuilder &b, Location loc, Value source,
                          ArrayRef<OpFoldResult> sizes,
                          ArrayRef<int64_t> offsets, ArrayRef<int64_t> strides,
                          TypedAttr background) {
  auto type = cast<RankedTensorType>(source.getType());
  auto resultType =
      RankedTensorType::get(staticShape(sizes), type.getElementType());
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  // The source's spatial sizes (bounds of the valid positions).
  SmallVector<OpFoldResult> extents = {sizeOf(b, loc, source, 1),
                                       sizeOf(b, loc, source, 2)};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(4)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{empty}, maps,
      SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange) {
        auto index = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, l, v);
        };
        Value valid;
        SmallVector<Value> at = {linalg::IndexOp::create(nb, l, 0)};
        for (int i = 0; i < 2; ++i) {
          // p = offset + o * stride with 0 <= o < size.
          Value p = linalg::IndexOp::create(nb, l, 1 + i);
          Value rel = arith::SubIOp::create(nb, l, p, index(offsets[i]));
          Value o = arith::DivSIOp::create(nb, l, rel, index(strides[i]));
          Value exact = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::eq,
              arith::RemSIOp::create(nb, l, rel, index(strides[i])), index(0));
          Value low = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge,
                                            rel, index(0));
          Value high = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::slt, o,
              getValueOrCreateConstantIndexOp(nb, l, extents[i]));
          Value dimValid = arith::AndIOp::create(
              nb, l, exact, arith::AndIOp::create(nb, l, low, high));
          valid =
              valid ? arith::AndIOp::create(nb, l, valid, dimValid) : dimValid;
          // Clamped, so the read stays in bounds where it is not used.
          Value clamped = arith::MinSIOp::create(
              nb, l, arith::MaxSIOp::create(nb, l, o, index(0)),
              getValueOrCreateConstantIndexOp(
                  nb, l, subSizes(nb, l, extents[i], nb.getIndexAttr(1))));
          at.push_back(clamped);
        }
        at.push_back(linalg::IndexOp::create(nb, l, 3));
        Value read = tensor::ExtractOp::create(nb, l, source, at);
        Value fill = arith::ConstantOp::create(nb, l, background);
        linalg::YieldOp::create(
            nb, l,
            arith::SelectOp::create(nb, l, valid, read, fill).getResult());
      });
  return generic.getResult(0);
}

SmallVector<utils::IteratorType> mlir::trace::iterators(int parallel,
                                                        int reduction) {
  SmallVector<utils::IteratorType> types(parallel,
                                         utils::IteratorType::parallel);
  types.append(reduction, utils::IteratorType::reduction);
  return types;
}

AffineMap mlir::trace::spreadReadMap(MLIRContext *context, unsigned numDims,
                                     ArrayRef<int64_t> padding,
                                     ArrayRef<int64_t> dilations,
                                     AffineExpr channel) {
  AffineExpr n = getAffineDimExpr(0, context);
  AffineExpr ih = getAffineDimExpr(1, context);
  AffineExpr iw = getAffineDimExpr(2, context);
  AffineExpr kh = getAffineDimExpr(4, context);
  AffineExpr kw = getAffineDimExpr(5, context);
  return AffineMap::get(numDims, 0,
                        {n, ih + padding[0] + kh * dilations[0],
                         iw + padding[2] + kw * dilations[1], channel},
                        context);
}

AffineMap mlir::trace::leadingMap(MLIRContext *context, unsigned numDims) {
  SmallVector<AffineExpr> dims;
  for (unsigned i = 0; i < 4; ++i)
    dims.push_back(getAffineDimExpr(i, context));
  return AffineMap::get(numDims, 0, dims, context);
}

Value mlir::trace::windowShape(OpBuilder &b, Location loc, int64_t kh,
                               int64_t kw, Type element) {
  return tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{kh, kw}, element);
}

AffineMap mlir::trace::windowMap(MLIRContext *context, unsigned numDims) {
  return AffineMap::get(
      numDims, 0, {getAffineDimExpr(4, context), getAffineDimExpr(5, context)},
      context);
}

void mlir::trace::checkLikeMatchesDy(OpBuilder &b, Location loc,
                                     Operation *op, Value dy, Value like,
                                     bool channelsOfDy) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  for (int64_t d : {0, 3}) {
    if (!like || !result.isDynamicDim(d) || (d == 3 && !channelsOfDy))
      continue;
    checkSameSize(b, loc, op, dimSize(b, loc, like, d), dimSize(b, loc, dy, d),
                  "dim " + Twine(d) + " of 'like' and of dy differ");
  }
}

FailureOr<SmallVector<Value>>
mlir::trace::castToKnownSizes(PatternRewriter &rewriter, Operation *op,
                              ArrayRef<SmallVector<int64_t>> known) {
  Location loc = op->getLoc();
  SmallVector<Value> operands(op->getOperands());
  bool changed = false;
  for (auto [i, shape] : llvm::enumerate(known)) {
    auto type = cast<RankedTensorType>(operands[i].getType());
    SmallVector<int64_t> sizes(type.getShape());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d) || ShapedType::isDynamic(shape[d]))
        continue;
      checkSameSize(rewriter, loc, op, dimSize(rewriter, loc, operands[i], d),
                    arith::ConstantIndexOp::create(rewriter, loc, shape[d]),
                    "dim " + Twine(d) + " of operand " + Twine(i) + " is not " +
                        Twine(shape[d]) +
                        ", the size the other shapes give it");
      sizes[d] = shape[d];
      changed = true;
    }
    operands[i] = castTo(rewriter, loc, operands[i], type.clone(sizes));
  }
  if (!changed)
    return failure();
  return operands;
}
