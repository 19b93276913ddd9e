//===- NeuralNetToLinalg.cpp - conv2d and pooling -> linalg ---------------===//
//
// NHWC convolution and pooling map to linalg's named ops, which take no
// padding: a non-zero `padding` first becomes a tensor.pad of the input with
// the value that cannot change the result (0 for conv2d and the sum of
// avg_pool2d, the lowest value for max_pool2d). avg_pool2d divides each
// window's sum by the number of non-padding elements in that window,
// computed from the output position.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The lowest value of a float type: -inf.
TypedAttr lowestFloat(OpBuilder &b, Type element) {
  auto floatType = cast<FloatType>(element);
  return b.getFloatAttr(element,
                        llvm::APFloat::getInf(floatType.getFloatSemantics(),
                                              /*Negative=*/true));
}

/// Pads the H and W dims of the NHWC `input` by `padding` ([top, bottom,
/// left, right]) with `value`; returns `input` itself when there is none.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> padding, TypedAttr value) {
  if (llvm::all_of(padding, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> low = {0, padding[0], padding[2], 0};
  SmallVector<int64_t> high = {0, padding[1], padding[3], 0};
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = 0; d < 4; ++d)
    shape[d] += low[d] + high[d];
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  Value padValue = arith::ConstantOp::create(b, loc, value);
  return tensor::PadOp::create(
      b, loc, paddedType, input, getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), high), padValue);
}

struct Conv2DToLinalg : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    RankedTensorType result = op.getType();
    if (!input.hasStaticShape() || !filter.hasStaticShape() ||
        !result.hasStaticShape())
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims are not lowered yet");

    Type element = input.getElementType();
    Value padded = padSpatial(rewriter, loc, op.getInput(), op.getPadding(),
                              rewriter.getZeroAttr(element));
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              rewriter.getZeroAttr(element));
    auto conv = linalg::Conv2DNhwcHwcfOp::create(
        rewriter, loc, TypeRange{result}, ValueRange{padded, op.getFilter()},
        ValueRange{init}, rewriter.getI64VectorAttr(op.getStrides()),
        rewriter.getI64VectorAttr(op.getDilations()));
    rewriter.replaceOp(op, conv->getResults());
    return success();
  }
};

struct MaxPool2DToLinalg : OpRewritePattern<MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    RankedTensorType result = op.getType();
    if (!input.hasStaticShape() || !result.hasStaticShape())
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims are not lowered yet");

    // -inf in the padding and the accumulator: padding never wins, and
    // maximumf lets a NaN in the window through.
    TypedAttr lowest = lowestFloat(rewriter, input.getElementType());
    Value padded =
        padSpatial(rewriter, loc, op.getInput(), op.getPadding(), lowest);
    Value init = filledTensor(rewriter, loc, result.getShape(), lowest);
    Value window = tensor::EmptyOp::create(rewriter, loc, op.getWindow(),
                                           input.getElementType());
    auto pool = linalg::PoolingNhwcMaxOp::create(
        rewriter, loc, TypeRange{result}, ValueRange{padded, window},
        ValueRange{init}, rewriter.getI64VectorAttr(op.getStrides()),
        rewriter.getI64VectorAttr({1, 1}));
    rewriter.replaceOp(op, pool->getResults());
    return success();
  }
};

struct AvgPool2DToLinalg : OpRewritePattern<AvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AvgPool2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    RankedTensorType result = op.getType();
    if (!input.hasStaticShape() || !result.hasStaticShape())
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims are not lowered yet");

    Type element = input.getElementType();
    ArrayRef<int64_t> window = op.getWindow();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    Value padded = padSpatial(rewriter, loc, op.getInput(), padding,
                              rewriter.getZeroAttr(element));
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              rewriter.getZeroAttr(element));
    Value windowShape = tensor::EmptyOp::create(rewriter, loc, window, element);
    Value sum =
        linalg::PoolingNhwcSumOp::create(
            rewriter, loc, TypeRange{result}, ValueRange{padded, windowShape},
            ValueRange{init}, rewriter.getI64VectorAttr(strides),
            rewriter.getI64VectorAttr({1, 1}))
            ->getResult(0);

    // sum / count, where count is the number of non-padding elements of the
    // window: kh * kw without padding, computed per (oh, ow) with it.
    bool hasPadding = llvm::any_of(padding, [](int64_t p) { return p != 0; });
    int64_t fullCount = window[0] * window[1];
    int64_t height = input.getDimSize(1), width = input.getDimSize(2);
    SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(4));
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    Value out =
        tensor::EmptyOp::create(rewriter, loc, result.getShape(), element);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{result}, ValueRange{sum}, ValueRange{out},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value count;
          if (!hasPadding) {
            count = arith::ConstantOp::create(
                b, l, b.getFloatAttr(element, fullCount));
          } else {
            Value rows =
                inBoundsCount(b, l, linalg::IndexOp::create(b, l, 1),
                              strides[0], padding[0], window[0], height);
            Value cols =
                inBoundsCount(b, l, linalg::IndexOp::create(b, l, 2),
                              strides[1], padding[2], window[1], width);
            Value product = arith::MulIOp::create(b, l, rows, cols);
            Value asInt =
                arith::IndexCastOp::create(b, l, b.getI64Type(), product);
            count = arith::SIToFPOp::create(b, l, element, asInt);
          }
          linalg::YieldOp::create(
              b, l, arith::DivFOp::create(b, l, args[0], count).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::trace::populateNeuralNetToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<Conv2DToLinalg, MaxPool2DToLinalg, AvgPool2DToLinalg>(
      patterns.getContext());
}
