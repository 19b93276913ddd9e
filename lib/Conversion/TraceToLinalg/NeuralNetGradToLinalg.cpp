//===- NeuralNetGradToLinalg.cpp - NN backprop ops -> linalg --------------===//
//
// conv2d_backprop_filter is a linalg.generic over (kh, kw, c, f) reducing
// over (n, oh, ow), reading the zero-padded input at
// (n, oh * sh + kh * dh, ow * sw + kw * dw, c).
//
// The other three scatter each output position's value onto the input
// positions of its window. They are written as gathers over the input
// positions instead, with affine indexing only: the per-output values are
// first "spread" into a zero tensor at rows (k - 1) * d + oh * s (and the
// same for columns), so that output position oh contributes to input row ih
// through window row kh exactly when
//   spread[ih + pad_top + (k - 1 - kh) * d] holds oh,
// i.e. when ih + pad_top - kh * d == oh * s, the divisibility and range test
// of the direct gather; every other spread element is zero (or, for the
// max-pool argmax, -1, which never matches). Each op is then one
// linalg.generic over (n, ih, iw, c) reducing over the flipped window
// (kh', kw') = (k - 1 - kh, ...), plus f for conv2d_backprop_input.
// Padding positions are never computed, so they never receive.
//
// max_pool2d_grad first finds each window's argmax (the window-row-major
// index kh * kw_size + kw) with a reduction whose combiner is independent
// of the iteration order: a larger value wins, a NaN is larger than any
// number, and equal values go to the smaller index, so the FIRST maximum in
// row-major window order receives the gradient. Padding positions take no
// part.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::trace;

namespace {

bool hasPadding(ArrayRef<int64_t> padding) {
  return llvm::any_of(padding, [](int64_t p) { return p != 0; });
}

/// Zero-pads the H and W dims of the NHWC `input` by `padding` ([top,
/// bottom, left, right]); returns `input` itself when there is none.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> padding) {
  if (!hasPadding(padding))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> low = {0, padding[0], padding[2], 0};
  SmallVector<int64_t> high = {0, padding[1], padding[3], 0};
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = 0; d < 4; ++d)
    shape[d] += low[d] + high[d];
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::PadOp::create(
      b, loc, paddedType, input, getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), high), zero);
}

/// The spread tensor's size along one spatial dim: it must hold the last
/// output position, at offset + (outSize - 1) * stride, and be readable at
/// every ih + padBefore + offset for ih < inSize.
int64_t spreadSize(int64_t inSize, int64_t padBefore, int64_t offset,
                   int64_t outSize, int64_t stride) {
  return std::max(inSize + padBefore + offset,
                  offset + (outSize - 1) * stride + 1);
}

/// The NHWC `source` (one value per output position) placed into a tensor
/// of `shape` filled with `background`, at rows offsets[0] + oh * strides[0]
/// and columns offsets[1] + ow * strides[1]. Written as a linalg.generic
/// that reads `source` with tensor.extract where (p - offset) is a multiple
/// of the stride in range (rather than a strided tensor.insert_slice, which
/// becomes a strided copy): elementwise fusion folds it into its consumer.
Value spread(OpBuilder &b, Location loc, Value source, ArrayRef<int64_t> shape,
             ArrayRef<int64_t> offsets, ArrayRef<int64_t> strides,
             TypedAttr background) {
  auto type = cast<RankedTensorType>(source.getType());
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
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
          Value high = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                             o, index(type.getDimSize(1 + i)));
          Value dimValid = arith::AndIOp::create(
              nb, l, exact, arith::AndIOp::create(nb, l, low, high));
          valid =
              valid ? arith::AndIOp::create(nb, l, valid, dimValid) : dimValid;
          // Clamped, so the read stays in bounds where it is not used.
          Value clamped = arith::MinSIOp::create(
              nb, l, arith::MaxSIOp::create(nb, l, o, index(0)),
              index(type.getDimSize(1 + i) - 1));
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

/// Iterator types: `parallel` parallel dims, then `reduction` ones.
SmallVector<utils::IteratorType> iterators(int parallel, int reduction) {
  SmallVector<utils::IteratorType> types(parallel,
                                         utils::IteratorType::parallel);
  types.append(reduction, utils::IteratorType::reduction);
  return types;
}

/// The per-input-position gather of a spread tensor: maps (n, ih, iw, c,
/// kh', kw') to (n, ih + padTop + kh' * dh, iw + padLeft + kw' * dw, c).
AffineMap spreadReadMap(MLIRContext *context, unsigned numDims,
                        ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations,
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

/// (d0, d1, d2, d3) of `numDims` dims.
AffineMap leadingMap(MLIRContext *context, unsigned numDims) {
  SmallVector<AffineExpr> dims;
  for (unsigned i = 0; i < 4; ++i)
    dims.push_back(getAffineDimExpr(i, context));
  return AffineMap::get(numDims, 0, dims, context);
}

/// linalg derives loop bounds from the operands' plain dim indexings only:
/// an empty [kh, kw] tensor read at (d4, d5), as linalg's pooling ops take,
/// gives the window dims theirs.
Value windowShape(OpBuilder &b, Location loc, int64_t kh, int64_t kw,
                  Type element) {
  return tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{kh, kw}, element);
}

AffineMap windowMap(MLIRContext *context, unsigned numDims) {
  return AffineMap::get(
      numDims, 0, {getAffineDimExpr(4, context), getAffineDimExpr(5, context)},
      context);
}

bool allStatic(std::initializer_list<Type> types) {
  return llvm::all_of(types, [](Type type) {
    return cast<RankedTensorType>(type).hasStaticShape();
  });
}

struct Conv2DBackpropInputToLinalg : OpRewritePattern<Conv2DBackpropInputOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    if (!allStatic({filter, dy, result}))
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims are not lowered yet");

    MLIRContext *context = rewriter.getContext();
    Type element = result.getElementType();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> in = result.getShape(), f = filter.getShape();
    SmallVector<int64_t> offsets = {(f[0] - 1) * dilations[0],
                                    (f[1] - 1) * dilations[1]};
    SmallVector<int64_t> shape = {
        in[0],
        spreadSize(in[1], padding[0], offsets[0], dy.getDimSize(1), strides[0]),
        spreadSize(in[2], padding[2], offsets[1], dy.getDimSize(2), strides[1]),
        f[3]};
    Value spreadDy = spread(rewriter, loc, op.getDy(), shape, offsets, strides,
                            rewriter.getZeroAttr(element));

    // Dims (n, ih, iw, c, kh', kw', f); the filter is read flipped.
    AffineExpr c = getAffineDimExpr(3, context);
    AffineExpr kh = getAffineDimExpr(4, context);
    AffineExpr kw = getAffineDimExpr(5, context);
    AffineExpr fo = getAffineDimExpr(6, context);
    SmallVector<AffineMap> maps = {
        spreadReadMap(context, 7, padding, dilations, fo),
        AffineMap::get(7, 0, {(f[0] - 1) - kh, (f[1] - 1) - kw, c, fo},
                       context),
        windowMap(context, 7), leadingMap(context, 7)};
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              rewriter.getZeroAttr(element));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{result},
        ValueRange{spreadDy, op.getFilter(),
                   windowShape(rewriter, loc, f[0], f[1], element)},
        ValueRange{init}, maps, iterators(4, 3),
        [](OpBuilder &b, Location l, ValueRange args) {
          Value product = arith::MulFOp::create(b, l, args[0], args[1]);
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[3], product).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct Conv2DBackpropFilterToLinalg : OpRewritePattern<Conv2DBackpropFilterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DBackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    if (!allStatic({input, dy, result}))
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims are not lowered yet");

    MLIRContext *context = rewriter.getContext();
    Type element = result.getElementType();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> dilations = op.getDilations();
    Value padded = padSpatial(rewriter, loc, op.getInput(), op.getPadding());

    // Dims (kh, kw, c, f, n, oh, ow).
    SmallVector<AffineExpr> d;
    for (unsigned i = 0; i < 7; ++i)
      d.push_back(getAffineDimExpr(i, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(7, 0,
                       {d[4], d[5] * strides[0] + d[0] * dilations[0],
                        d[6] * strides[1] + d[1] * dilations[1], d[2]},
                       context),
        AffineMap::get(7, 0, {d[4], d[5], d[6], d[3]}, context),
        leadingMap(context, 7)};
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              rewriter.getZeroAttr(element));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{result}, ValueRange{padded, op.getDy()},
        ValueRange{init}, maps, iterators(4, 3),
        [](OpBuilder &b, Location l, ValueRange args) {
          Value product = arith::MulFOp::create(b, l, args[0], args[1]);
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[2], product).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// The contraction routes below are taken for static f32 and f64, the
/// element types the CPU's contraction stage packs into its micro-kernels;
/// other types keep the gathers above.
bool contractionElement(Type element) {
  return element.isF32() || element.isF64();
}

/// conv2d_backprop_filter as a matmul with a transposed lhs:
///   dF[(kh, kw, c), f] = sum over m = (n, oh, ow) of
///     cols[m, (kh, kw, c)] * dy[m, f],
/// where cols is the im2col of the zero-padded input,
///   cols[n, oh, ow, kh, kw, c] = xpad[n, oh * sh + kh * dh, ow * sw + kw * dw, c],
/// written by a copy (contiguous along c). The reshapes of dy, cols and dF
/// are free; the contraction is what the CPU's contraction stage packs.
struct Conv2DBackpropFilterToMatmul
    : OpRewritePattern<Conv2DBackpropFilterOp> {
  Conv2DBackpropFilterToMatmul(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(Conv2DBackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    Type element = result.getElementType();
    if (!allStatic({input, dy, result}) || !contractionElement(element))
      return rewriter.notifyMatchFailure(op, "not a static f32/f64 op");

    MLIRContext *context = rewriter.getContext();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> f = result.getShape(), out = dy.getShape();
    Value padded = padSpatial(rewriter, loc, op.getInput(), op.getPadding());

    // cols over dims (n, oh, ow, kh, kw, c).
    SmallVector<AffineExpr> d;
    for (unsigned i = 0; i < 6; ++i)
      d.push_back(getAffineDimExpr(i, context));
    SmallVector<int64_t> colsShape = {out[0], out[1], out[2], f[0], f[1], f[2]};
    SmallVector<AffineMap> colsMaps = {
        AffineMap::get(6, 0,
                       {d[0], d[1] * strides[0] + d[3] * dilations[0],
                        d[2] * strides[1] + d[4] * dilations[1], d[5]},
                       context),
        rewriter.getMultiDimIdentityMap(6)};
    Value colsInit = tensor::EmptyOp::create(rewriter, loc, colsShape, element);
    auto cols = linalg::GenericOp::create(
        rewriter, loc, TypeRange{colsInit.getType()}, ValueRange{padded},
        ValueRange{colsInit}, colsMaps, iterators(6, 0),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    // Dims (kh, kw, c, f, n, oh, ow): dF = cols^T dy.
    SmallVector<AffineExpr> e;
    for (unsigned i = 0; i < 7; ++i)
      e.push_back(getAffineDimExpr(i, context));
    ArrayAttr maps = rewriter.getAffineMapArrayAttr(
        {AffineMap::get(7, 0, {e[4], e[5], e[6], e[0], e[1], e[2]}, context),
         AffineMap::get(7, 0, {e[4], e[5], e[6], e[3]}, context),
         AffineMap::get(7, 0, {e[0], e[1], e[2], e[3]}, context)});
    Value init = filledTensor(rewriter, loc, f, rewriter.getZeroAttr(element));
    auto unflattened = linalg::ContractOp::create(
        rewriter, loc, TypeRange{result}, ValueRange{cols.getResult(0), op.getDy()},
        ValueRange{init}, maps);
    rewriter.replaceOp(op, unflattened.getResults());
    return success();
  }
};

/// conv2d_backprop_input as a unit-stride convolution of the spread dy with
/// the spatially flipped, (c, f)-transposed filter:
///   dx[n, ih, iw, c] = sum over (kh', kw', f) of
///     spread[n, ih + kh' * dh, iw + kw' * dw, f] * flipped[kh', kw', f, c],
///   flipped[kh', kw', f, c] = F[kh - 1 - kh', kw - 1 - kw', c, f],
/// with dy at rows (kh - 1) * dh - pad_top + oh * sh of spread (zero
/// elsewhere), and the same for columns: a linalg.conv_2d_nhwc_hwcf, which
/// the CPU's contraction stage turns into im2col and its micro-kernel. With
/// unit strides the spread is a tensor.pad of dy. With strides s > 1 the
/// spread is s * s times larger than dy, and so is the convolution's work
/// (mostly products with zeros).
struct Conv2DBackpropInputToConv : OpRewritePattern<Conv2DBackpropInputOp> {
  Conv2DBackpropInputToConv(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    Type element = result.getElementType();
    if (!allStatic({filter, dy, result}) || !contractionElement(element))
      return rewriter.notifyMatchFailure(op, "not a static f32/f64 op");

    MLIRContext *context = rewriter.getContext();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> in = result.getShape(), f = filter.getShape();
    ArrayRef<int64_t> out = dy.getShape();
    SmallVector<int64_t> offsets = {(f[0] - 1) * dilations[0] - padding[0],
                                    (f[1] - 1) * dilations[1] - padding[2]};
    SmallVector<int64_t> shape = {in[0], in[1] + (f[0] - 1) * dilations[0],
                                  in[2] + (f[1] - 1) * dilations[1], f[3]};
    SmallVector<int64_t> low = {0, offsets[0], offsets[1], 0};
    SmallVector<int64_t> high = {0, shape[1] - offsets[0] - out[1],
                                 shape[2] - offsets[1] - out[2], 0};
    bool unitStrides = strides[0] == 1 && strides[1] == 1;
    bool padOnly = unitStrides && llvm::all_of(low, [](int64_t v) {
                     return v >= 0;
                   }) && llvm::all_of(high, [](int64_t v) { return v >= 0; });
    Value spreadDy;
    if (padOnly) {
      Value zero =
          arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
      spreadDy = tensor::PadOp::create(
          rewriter, loc, RankedTensorType::get(shape, element), op.getDy(),
          getAsIndexOpFoldResult(context, low),
          getAsIndexOpFoldResult(context, high), zero);
    } else {
      spreadDy = spread(rewriter, loc, op.getDy(), shape, offsets, strides,
                        rewriter.getZeroAttr(element));
    }

    // flipped over dims (kh', kw', f, c).
    SmallVector<AffineExpr> d;
    for (unsigned i = 0; i < 4; ++i)
      d.push_back(getAffineDimExpr(i, context));
    SmallVector<int64_t> flippedShape = {f[0], f[1], f[3], f[2]};
    SmallVector<AffineMap> flipMaps = {
        AffineMap::get(4, 0, {(f[0] - 1) - d[0], (f[1] - 1) - d[1], d[3], d[2]},
                       context),
        rewriter.getMultiDimIdentityMap(4)};
    Value flippedInit =
        tensor::EmptyOp::create(rewriter, loc, flippedShape, element);
    auto flipped = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flippedInit.getType()},
        ValueRange{op.getFilter()}, ValueRange{flippedInit}, flipMaps,
        iterators(4, 0), [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });

    Value init = filledTensor(rewriter, loc, in, rewriter.getZeroAttr(element));
    rewriter.replaceOpWithNewOp<linalg::Conv2DNhwcHwcfOp>(
        op, TypeRange{result}, ValueRange{spreadDy, flipped.getResult(0)},
        ValueRange{init}, rewriter.getI64VectorAttr({1, 1}),
        rewriter.getI64VectorAttr(dilations));
    return success();
  }
};

/// Whether padded position `padded` (of an input dim of `size` elements
/// after `padBefore` padding) is a real input element.
Value inBounds(OpBuilder &b, Location loc, Value padded, int64_t padBefore,
               int64_t size) {
  Value low = arith::ConstantIndexOp::create(b, loc, padBefore);
  Value high = arith::ConstantIndexOp::create(b, loc, padBefore + size);
  Value above =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, padded, low);
  Value below =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, padded, high);
  return arith::AndIOp::create(b, loc, above, below);
}

struct MaxPool2DGradToLinalg : OpRewritePattern<MaxPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    if (!allStatic({input, dy}))
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims are not lowered yet");

    MLIRContext *context = rewriter.getContext();
    Type element = input.getElementType();
    Type i64 = rewriter.getI64Type();
    ArrayRef<int64_t> window = op.getWindow();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> in = input.getShape();
    bool padded = hasPadding(padding);

    // 1. The argmax of each window, as kh * window[1] + kw; -1 = none yet.
    // Dims (n, oh, ow, c, kh, kw); padding is read but never chosen.
    SmallVector<AffineExpr> d;
    for (unsigned i = 0; i < 6; ++i)
      d.push_back(getAffineDimExpr(i, context));
    SmallVector<AffineMap> argMaps = {
        AffineMap::get(
            6, 0,
            {d[0], d[1] * strides[0] + d[4], d[2] * strides[1] + d[5], d[3]},
            context),
        windowMap(context, 6), leadingMap(context, 6), leadingMap(context, 6)};
    Value maxInit = filledTensor(rewriter, loc, dy.getShape(),
                                 rewriter.getZeroAttr(element));
    Value argInit = filledTensor(rewriter, loc, dy.getShape(),
                                 rewriter.getI64IntegerAttr(-1));
    auto argmax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{dy, RankedTensorType::get(dy.getShape(), i64)},
        ValueRange{padSpatial(rewriter, loc, op.getInput(), padding),
                   windowShape(rewriter, loc, window[0], window[1], element)},
        ValueRange{maxInit, argInit}, argMaps, iterators(4, 2),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[2], bestIndex = args[3];
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
          Value tie = arith::OrIOp::create(
              b, l, cmpf(arith::CmpFPredicate::OEQ, x, best),
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
          linalg::YieldOp::create(
              b, l,
              ValueRange{
                  arith::SelectOp::create(b, l, take, x, best),
                  arith::SelectOp::create(b, l, take, index, bestIndex)});
        });

    // 2. Each input position gathers dy from the windows whose argmax it
    // is. Dims (n, ih, iw, c, kh', kw'), window position (k - 1 - kh', ...).
    SmallVector<int64_t> offsets = {window[0] - 1, window[1] - 1};
    SmallVector<int64_t> shape = {
        in[0],
        spreadSize(in[1], padding[0], offsets[0], dy.getDimSize(1), strides[0]),
        spreadSize(in[2], padding[2], offsets[1], dy.getDimSize(2), strides[1]),
        in[3]};
    Value spreadArg = spread(rewriter, loc, argmax.getResult(1), shape, offsets,
                             strides, rewriter.getI64IntegerAttr(-1));
    Value spreadDy = spread(rewriter, loc, op.getDy(), shape, offsets, strides,
                            rewriter.getZeroAttr(element));
    SmallVector<int64_t> ones = {1, 1};
    AffineMap read = spreadReadMap(context, 6, padding, ones, d[3]);
    SmallVector<AffineMap> maps = {read, read, windowMap(context, 6),
                                   leadingMap(context, 6)};
    Value init = filledTensor(rewriter, loc, in, rewriter.getZeroAttr(element));
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

struct AvgPool2DGradToLinalg : OpRewritePattern<AvgPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AvgPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    if (!allStatic({dy, result}))
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims are not lowered yet");

    MLIRContext *context = rewriter.getContext();
    Type element = result.getElementType();
    ArrayRef<int64_t> window = op.getWindow();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> in = result.getShape();
    bool padded = hasPadding(padding);

    // 1. dy / count, count = the window's non-padding elements.
    SmallVector<AffineMap> identity(2, rewriter.getMultiDimIdentityMap(4));
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, dy.getShape(), element);
    auto scaled = linalg::GenericOp::create(
        rewriter, loc, TypeRange{dy}, ValueRange{op.getDy()}, ValueRange{empty},
        identity, iterators(4, 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value count;
          if (!padded) {
            count = arith::ConstantOp::create(
                b, l, b.getFloatAttr(element, window[0] * window[1]));
          } else {
            Value rows =
                inBoundsCount(b, l, linalg::IndexOp::create(b, l, 1),
                              strides[0], padding[0], window[0], in[1]);
            Value cols =
                inBoundsCount(b, l, linalg::IndexOp::create(b, l, 2),
                              strides[1], padding[2], window[1], in[2]);
            Value product = arith::MulIOp::create(b, l, rows, cols);
            Value asInt =
                arith::IndexCastOp::create(b, l, b.getI64Type(), product);
            count = arith::SIToFPOp::create(b, l, element, asInt);
          }
          linalg::YieldOp::create(
              b, l, arith::DivFOp::create(b, l, args[0], count).getResult());
        });

    // 2. Each input position sums the scaled dy of the windows holding it.
    // Dims (n, ih, iw, c, kh', kw').
    SmallVector<int64_t> offsets = {window[0] - 1, window[1] - 1};
    SmallVector<int64_t> shape = {
        in[0],
        spreadSize(in[1], padding[0], offsets[0], dy.getDimSize(1), strides[0]),
        spreadSize(in[2], padding[2], offsets[1], dy.getDimSize(2), strides[1]),
        in[3]};
    Value spreadDy = spread(rewriter, loc, scaled.getResult(0), shape, offsets,
                            strides, rewriter.getZeroAttr(element));
    SmallVector<int64_t> ones = {1, 1};
    SmallVector<AffineMap> maps = {
        spreadReadMap(context, 6, padding, ones, getAffineDimExpr(3, context)),
        windowMap(context, 6), leadingMap(context, 6)};
    Value init = filledTensor(rewriter, loc, in, rewriter.getZeroAttr(element));
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

void mlir::trace::populateNeuralNetGradToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<Conv2DBackpropInputToConv, Conv2DBackpropFilterToMatmul,
               Conv2DBackpropInputToLinalg, Conv2DBackpropFilterToLinalg,
               MaxPool2DGradToLinalg, AvgPool2DGradToLinalg>(
      patterns.getContext());
}
