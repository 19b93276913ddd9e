//===- PoolingGradToLinalg.cpp - Pooling gradients -> linalg --------------===//
//
// max_pool2d_grad, max_pool2d_select and avg_pool2d_grad. The gradients
// gather the spread per-window values (WindowUtils.h) at each input
// position.
//
// max_pool2d_grad first finds each window's argmax (the window-row-major
// index kh * kw_size + kw) with a reduction whose combiner is independent
// of the iteration order: a larger value wins, a NaN is larger than any
// number, and equal values go to the smaller index, so the FIRST maximum in
// row-major window order receives the gradient. Padding positions take no
// part. max_pool2d_select is the same reduction carrying t's value.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "DynamicSizes.h"
#include "LoweringUtils.h"
#include "WindowUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceShapes.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Whether padded position `padded` (of an input dim of `size` elements
/// after `padBefore` padding) is a real input element.
Value inBounds(OpBuilder &b, Location loc, Value padded, int64_t padBefore,
               OpFoldResult size) {
  Value low = arith::ConstantIndexOp::create(b, loc, padBefore);
  Value high = getValueOrCreateConstantIndexOp(
      b, loc, addSizes(b, loc, size, b.getIndexAttr(padBefore)));
  Value above =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, padded, low);
  Value below =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, padded, high);
  return arith::AndIOp::create(b, loc, above, below);
}

/// The first maximum of each max_pool2d window of the NHWC `input` (pooled
/// sizes `outShape`, `?` ones `outDynamic`; input sizes `in`), as a
/// linalg.generic over (n, oh, ow, c, kh, kw) whose results are the
/// maximum, its window-row-major index kh * window[1] + kw (-1 where none
/// yet) and, given `t` (input-shaped), t's value at that position. The
/// combiner is independent of the iteration order: a larger value wins, a
/// NaN is larger than any number, and equal values go to the smaller
/// index. Padding is read but never chosen.
linalg::GenericOp windowArgmax(OpBuilder &rewriter, Location loc, Value input,
                               Value t, ArrayRef<int64_t> outShape,
                               ValueRange outDynamic, ArrayRef<OpFoldResult> in,
                               ArrayRef<int64_t> window,
                               ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> padding) {
  MLIRContext *context = rewriter.getContext();
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  Type i64 = rewriter.getI64Type();
  bool padded = hasPadding(padding);
  bool carries = static_cast<bool>(t);
  SmallVector<AffineExpr> d;
  for (unsigned i = 0; i < 6; ++i)
    d.push_back(getAffineDimExpr(i, context));
  AffineMap windowRead = AffineMap::get(
      6, 0, {d[0], d[1] * strides[0] + d[4], d[2] * strides[1] + d[5], d[3]},
      context);
  SmallVector<Value> inits = {filledTensor(rewriter, loc, outShape, outDynamic,
                                           rewriter.getZeroAttr(element)),
                              filledTensor(rewriter, loc, outShape, outDynamic,
                                           rewriter.getI64IntegerAttr(-1))};
  SmallVector<Type> types = {RankedTensorType::get(outShape, element),
                             RankedTensorType::get(outShape, i64)};
  if (carries) {
    inits.push_back(filledTensor(rewriter, loc, outShape, outDynamic,
                                 rewriter.getZeroAttr(element)));
    types.push_back(types.front());
  }
  // Zero padding: read but never chosen.
  TypedAttr zero = rewriter.getZeroAttr(element);
  SmallVector<Value> inputs = {padSpatial(rewriter, loc, input, padding, zero)};
  SmallVector<AffineMap> maps = {windowRead};
  if (carries) {
    inputs.push_back(padSpatial(rewriter, loc, t, padding, zero));
    maps.push_back(windowRead);
  }
  inputs.push_back(windowShape(rewriter, loc, window[0], window[1], element));
  maps.push_back(windowMap(context, 6));
  maps.append(inits.size(), leadingMap(context, 6));
  unsigned numInputs = inputs.size();
  return linalg::GenericOp::create(
      rewriter, loc, types, inputs, inits, maps, iterators(4, 2),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = args[0];
        Value best = args[numInputs], bestIndex = args[numInputs + 1];
        Value kh = linalg::IndexOp::create(b, l, 4);
        Value kw = linalg::IndexOp::create(b, l, 5);
        Value flat = arith::AddIOp::create(
            b, l,
            arith::MulIOp::create(
                b, l, kh, arith::ConstantIndexOp::create(b, l, window[1])),
            kw);
        Value index = arith::IndexCastOp::create(b, l, i64, flat);
        auto cmpf = [&](arith::CmpFPredicate predicate, Value lhs,
                        Value rhs) -> Value {
          return arith::CmpFOp::create(b, l, predicate, lhs, rhs);
        };
        Value xNaN = cmpf(arith::CmpFPredicate::UNO, x, x);
        Value bestNaN = cmpf(arith::CmpFPredicate::UNO, best, best);
        Value trueValue = arith::ConstantIntOp::create(b, l, 1, 1);
        Value bestIsNumber = arith::XOrIOp::create(b, l, bestNaN, trueValue);
        // NaN > every number; equal values (or two NaNs) tie.
        Value greater = arith::OrIOp::create(
            b, l, cmpf(arith::CmpFPredicate::OGT, x, best),
            arith::AndIOp::create(b, l, xNaN, bestIsNumber));
        Value tie =
            arith::OrIOp::create(b, l, cmpf(arith::CmpFPredicate::OEQ, x, best),
                                 arith::AndIOp::create(b, l, xNaN, bestNaN));
        Value earlier = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                              index, bestIndex);
        Value none =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, bestIndex,
                                  arith::ConstantIntOp::create(b, l, i64, 0));
        Value take = arith::OrIOp::create(
            b, l, arith::OrIOp::create(b, l, none, greater),
            arith::AndIOp::create(b, l, tie, earlier));
        if (padded) {
          auto position = [&](unsigned outDim, int64_t stride,
                              Value k) -> Value {
            Value out = linalg::IndexOp::create(b, l, outDim);
            return arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(
                    b, l, out, arith::ConstantIndexOp::create(b, l, stride)),
                k);
          };
          Value rowIn =
              inBounds(b, l, position(1, strides[0], kh), padding[0], in[1]);
          Value colIn =
              inBounds(b, l, position(2, strides[1], kw), padding[2], in[2]);
          take = arith::AndIOp::create(
              b, l, take, arith::AndIOp::create(b, l, rowIn, colIn));
        }
        SmallVector<Value> yields = {
            arith::SelectOp::create(b, l, take, x, best),
            arith::SelectOp::create(b, l, take, index, bestIndex)};
        if (carries)
          yields.push_back(arith::SelectOp::create(b, l, take, args[1],
                                                   args[numInputs + 2]));
        linalg::YieldOp::create(b, l, yields);
      });
}

struct MaxPool2DGradToLinalg : OpRewritePattern<MaxPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    // `?` dims are sized at run time (CastToKnownSizes made dy's agree with
    // the input's where one is static).
    for (int64_t d : {0, 3})
      if (input.isDynamicDim(d) || dy.isDynamicDim(d))
        checkSameSize(rewriter, loc, op,
                      dimSize(rewriter, loc, op.getInput(), d),
                      dimSize(rewriter, loc, op.getDy(), d),
                      "dim " + Twine(d) + " of input and dy differ");
    SmallVector<Value> inDynamic = dynamicSizes(rewriter, loc, op.getInput());
    SmallVector<Value> dyDynamic = dynamicSizes(rewriter, loc, op.getDy());

    MLIRContext *context = rewriter.getContext();
    Type element = input.getElementType();
    Type i64 = rewriter.getI64Type();
    ArrayRef<int64_t> window = op.getWindow();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    SmallVector<OpFoldResult> in;
    for (int64_t d = 0; d < 4; ++d)
      in.push_back(sizeOf(rewriter, loc, op.getInput(), d));
    SmallVector<int64_t> ones = {1, 1};
    checkOutputSizes(rewriter, loc, op, op.getDy(), {in[1], in[2]}, window,
                     strides, padding, ones);

    // 1. The argmax of each window, as kh * window[1] + kw; -1 = none yet.
    SmallVector<AffineExpr> d;
    for (unsigned i = 0; i < 6; ++i)
      d.push_back(getAffineDimExpr(i, context));
    linalg::GenericOp argmax =
        windowArgmax(rewriter, loc, op.getInput(), Value(), dy.getShape(),
                     dyDynamic, in, window, strides, padding);

    // 2. Each input position gathers dy from the windows whose argmax it
    // is. Dims (n, ih, iw, c, kh', kw'), window position (k - 1 - kh', ...).
    SmallVector<int64_t> offsets = {window[0] - 1, window[1] - 1};
    SmallVector<OpFoldResult> shape = spreadSizes(
        rewriter, loc, op.getDy(), {in[1], in[2]}, padding, offsets, strides);
    Value spreadArg = spread(rewriter, loc, argmax.getResult(1), shape, offsets,
                             strides, rewriter.getI64IntegerAttr(-1));
    Value spreadDy = spread(rewriter, loc, op.getDy(), shape, offsets, strides,
                            rewriter.getZeroAttr(element));
    AffineMap read = spreadReadMap(context, 6, padding, ones, d[3]);
    SmallVector<AffineMap> maps = {read, read, windowMap(context, 6),
                                   leadingMap(context, 6)};
    Value init = filledTensor(rewriter, loc, input.getShape(), inDynamic,
                              rewriter.getZeroAttr(element));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{input},
        ValueRange{spreadArg, spreadDy,
                   windowShape(rewriter, loc, window[0], window[1], element)},
        ValueRange{init}, maps, iterators(4, 2),
        [&](OpBuilder &b, Location l, ValueRange args) {
          // The window index of this input position in the window whose
          // argmax was read: (k0 - 1 - kh') * k1 + (k1 - 1 - kw').
          Value kh = linalg::IndexOp::create(b, l, 4);
          Value kw = linalg::IndexOp::create(b, l, 5);
          Value row = arith::SubIOp::create(
              b, l, arith::ConstantIndexOp::create(b, l, window[0] - 1), kh);
          Value col = arith::SubIOp::create(
              b, l, arith::ConstantIndexOp::create(b, l, window[1] - 1), kw);
          Value flat = arith::AddIOp::create(
              b, l,
              arith::MulIOp::create(
                  b, l, row, arith::ConstantIndexOp::create(b, l, window[1])),
              col);
          Value index = arith::IndexCastOp::create(b, l, i64, flat);
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            args[0], index);
          Value sum = arith::AddFOp::create(b, l, args[3], args[1]);
          linalg::YieldOp::create(
              b, l,
              arith::SelectOp::create(b, l, hit, sum, args[3]).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// max_pool2d_select: the argmax reduction of max_pool2d_grad carrying t's
/// value at the running maximum (its third result).
struct MaxPool2DSelectToLinalg : OpRewritePattern<MaxPool2DSelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPool2DSelectOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto t = cast<RankedTensorType>(op.getT().getType());
    RankedTensorType result = op.getType();
    FailureOr<SmallVector<OpFoldResult>> pooled = reifiedSizes(rewriter, op);
    if (failed(pooled))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");
    SmallVector<OpFoldResult> in;
    for (int64_t d = 0; d < 4; ++d) {
      in.push_back(sizeOf(rewriter, loc, op.getInput(), d));
      if (input.isDynamicDim(d) || t.isDynamicDim(d))
        checkSameSize(rewriter, loc, op,
                      dimSize(rewriter, loc, op.getInput(), d),
                      dimSize(rewriter, loc, op.getT(), d),
                      "dim " + Twine(d) + " of input and t differ");
    }
    Value tValue = castTo(rewriter, loc, op.getT(), input);
    // The pooled sizes, where the window fits.
    checkWindowsFit(
        rewriter, loc, op, {in[1], in[2]},
        getAsIndexOpFoldResult(rewriter.getContext(), op.getWindow()),
        op.getPadding(), {1, 1});
    SmallVector<Value> outDynamic =
        dynamicOf(rewriter, loc, result, *pooled);
    linalg::GenericOp argmax = windowArgmax(
        rewriter, loc, op.getInput(), tValue, result.getShape(), outDynamic, in,
        op.getWindow(), op.getStrides(), op.getPadding());
    rewriter.replaceOp(op, argmax.getResult(2));
    return success();
  }
};

struct AvgPool2DGradToLinalg : OpRewritePattern<AvgPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AvgPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    // The result is `like` (whose batch and channels must be dy's).
    FailureOr<SmallVector<OpFoldResult>> in = reifiedSizes(rewriter, op);
    if (failed(in))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");
    checkLikeMatchesDy(rewriter, loc, op, op.getDy(), op.getLike(),
                       /*channelsOfDy=*/true);

    MLIRContext *context = rewriter.getContext();
    Type element = result.getElementType();
    ArrayRef<int64_t> window = op.getWindow();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    SmallVector<int64_t> ones = {1, 1};
    checkOutputSizes(rewriter, loc, op, op.getDy(), {(*in)[1], (*in)[2]}, window,
                     strides, padding, ones);

    // 1. dy / count, count = the window's non-padding elements.
    SmallVector<AffineMap> identity(2, rewriter.getMultiDimIdentityMap(4));
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, dy.getShape(), element,
                                dynamicSizes(rewriter, loc, op.getDy()));
    auto scaled = linalg::GenericOp::create(
        rewriter, loc, TypeRange{dy}, ValueRange{op.getDy()}, ValueRange{empty},
        identity, iterators(4, 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value count = windowCount(b, l, element, window, strides, padding,
                                    (*in)[1], (*in)[2]);
          linalg::YieldOp::create(
              b, l, arith::DivFOp::create(b, l, args[0], count).getResult());
        });

    // 2. Each input position sums the scaled dy of the windows holding it.
    // Dims (n, ih, iw, c, kh', kw').
    SmallVector<int64_t> offsets = {window[0] - 1, window[1] - 1};
    Value spreadDy =
        spread(rewriter, loc, scaled.getResult(0),
               spreadSizes(rewriter, loc, scaled.getResult(0), {(*in)[1], (*in)[2]},
                           padding, offsets, strides),
               offsets, strides, rewriter.getZeroAttr(element));
    SmallVector<AffineMap> maps = {
        spreadReadMap(context, 6, padding, ones, getAffineDimExpr(3, context)),
        windowMap(context, 6), leadingMap(context, 6)};
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              dynamicOf(rewriter, loc, result, *in),
                              rewriter.getZeroAttr(element));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{result},
        ValueRange{spreadDy,
                   windowShape(rewriter, loc, window[0], window[1], element)},
        ValueRange{init}, maps, iterators(4, 2),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[2], args[0]).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::trace::populatePoolingGradToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<CastToKnownSizes<MaxPool2DGradOp>,
               CastToKnownSizes<AvgPool2DGradOp>,
               MaxPool2DGradToLinalg, MaxPool2DSelectToLinalg,
               AvgPool2DGradToLinalg>(patterns.getContext());
}
