//===- ConvPoolToLinalg.cpp - conv2d and pooling -> linalg ----------------===//
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

#include "DynamicSizes.h"
#include "LoweringUtils.h"
#include "WindowUtils.h"

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

struct Conv2DToLinalg : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    RankedTensorType result = op.getType();
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");
    // With `?` dims: the input's channels must be the filter's, and the
    // dilated filter must fit the padded input (run-time checks).
    SmallVector<OpFoldResult> f =
        tensor::getMixedSizes(rewriter, loc, op.getFilter());
    if (input.isDynamicDim(3) || filter.isDynamicDim(2))
      checkSameSize(rewriter, loc, op, dimSize(rewriter, loc, op.getInput(), 3),
                    dimSize(rewriter, loc, op.getFilter(), 2),
                    "the input's channels (dim 3) and the filter's (dim 2) "
                    "differ");
    checkWindowsFit(rewriter, loc, op,
                    ArrayRef(tensor::getMixedSizes(rewriter, loc, op.getInput()))
                        .slice(1, 2),
                    {f[0], f[1]}, op.getPadding(), op.getDilations());

    Type element = input.getElementType();
    Value padded = padSpatial(rewriter, loc, op.getInput(), op.getPadding(),
                              rewriter.getZeroAttr(element));
    // Half-precision products accumulate in f32, rounded once.
    Type accElement = accumulatorType(element);
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              dynamicOf(rewriter, loc, result, *sizes),
                              rewriter.getZeroAttr(accElement));
    Value conv = linalg::Conv2DNhwcHwcfOp::create(
                     rewriter, loc, TypeRange{result.clone(accElement)},
                     ValueRange{padded, op.getFilter()}, ValueRange{init},
                     rewriter.getI64VectorAttr(op.getStrides()),
                     rewriter.getI64VectorAttr(op.getDilations()))
                     .getResult(0);
    rewriter.replaceOp(op, accElement == element
                               ? conv
                               : roundTo(rewriter, loc, conv, element));
    return success();
  }
};

/// The `?` result sizes of max_pool2d/avg_pool2d, with the window-fits
/// checks.
template <typename PoolOp>
FailureOr<SmallVector<Value>> poolDynamicSizes(PatternRewriter &rewriter,
                                               PoolOp op) {
  Location loc = op.getLoc();
  FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
  if (failed(sizes))
    return failure();
  checkWindowsFit(
      rewriter, loc, op,
      ArrayRef(tensor::getMixedSizes(rewriter, loc, op.getInput())).slice(1, 2),
      getAsIndexOpFoldResult(rewriter.getContext(), op.getWindow()),
      op.getPadding(), {1, 1});
  return dynamicOf(rewriter, loc, op.getType(), *sizes);
}

struct MaxPool2DToLinalg : OpRewritePattern<MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    RankedTensorType result = op.getType();
    FailureOr<SmallVector<Value>> dynamic = poolDynamicSizes(rewriter, op);
    if (failed(dynamic))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");

    // -inf in the padding and the accumulator: padding never wins, and
    // maximumf lets a NaN in the window through.
    TypedAttr lowest = lowestFloat(rewriter, input.getElementType());
    Value padded =
        padSpatial(rewriter, loc, op.getInput(), op.getPadding(), lowest);
    Value init =
        filledTensor(rewriter, loc, result.getShape(), *dynamic, lowest);
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
    FailureOr<SmallVector<Value>> dynamic = poolDynamicSizes(rewriter, op);
    if (failed(dynamic))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");

    Type element = input.getElementType();
    ArrayRef<int64_t> window = op.getWindow();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    Value padded = padSpatial(rewriter, loc, op.getInput(), padding,
                              rewriter.getZeroAttr(element));
    Value init = filledTensor(rewriter, loc, result.getShape(), *dynamic,
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
    OpFoldResult height = tensor::getMixedSize(rewriter, loc, op.getInput(), 1);
    OpFoldResult width = tensor::getMixedSize(rewriter, loc, op.getInput(), 2);
    SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(4));
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    Value out = tensor::EmptyOp::create(rewriter, loc, result.getShape(),
                                        element, *dynamic);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{result}, ValueRange{sum}, ValueRange{out},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value count = windowCount(b, l, element, window, strides, padding,
                                    height, width);
          linalg::YieldOp::create(
              b, l, arith::DivFOp::create(b, l, args[0], count).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::trace::populateConvPoolToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<Conv2DToLinalg, MaxPool2DToLinalg, AvgPool2DToLinalg>(
      patterns.getContext());
}
