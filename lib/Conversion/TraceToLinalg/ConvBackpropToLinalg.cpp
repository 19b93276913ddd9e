//===- ConvBackpropToLinalg.cpp - conv2d_backprop_{input,filter} -> linalg ===//
//
// The conv2d backprop ops of f32/f64 tensors with a static filter become
// contractions (linalg.contract) that the CPU's contraction stage packs into
// its micro-kernels, plus strided slices: conv2d_backprop_filter is one
// matmul per window tap (or of an im2col matrix, with few input channels),
// conv2d_backprop_input forward convolutions of dy with the flipped filter
// (static shapes: one with unit strides, one per phase of dx with strides)
// or a matmul and a col2im (see the patterns). The
// matmuls keep (n, oh, ow) as three dims: collapsing two `?` dims into one
// hits an LLVM 22 crash (see rewriteAsIm2ColMatmul in
// lib/Codegen/CPU/PackContractions.cpp).
//
// Other element types take loop-nest forms (f16 and bf16 summed in f32,
// rounded once): conv2d_backprop_filter is a linalg.generic over
// (kh, kw, c, f) reducing over (n, oh, ow), reading the zero-padded input
// at (n, oh * sh + kh * dh, ow * sw + kw * dw, c); conv2d_backprop_input
// gathers the spread dy (WindowUtils.h) through the flipped filter,
// reducing over (kh', kw', f).
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "DynamicSizes.h"
#include "LoweringUtils.h"
#include "WindowUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceShapes.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The body of a loop-nest form: `acc + x * y`, the product in acc's type
/// (f16 and bf16 operands extended: their sums accumulate in f32).
void multiplyAdd(OpBuilder &b, Location l, Value x, Value y, Value acc) {
  Type type = acc.getType();
  if (x.getType() != type) {
    x = arith::ExtFOp::create(b, l, type, x);
    y = arith::ExtFOp::create(b, l, type, y);
  }
  Value product = arith::MulFOp::create(b, l, x, y);
  linalg::YieldOp::create(b, l,
                          arith::AddFOp::create(b, l, acc, product).getResult());
}

/// Replaces `op` with `sums`, rounded once to its element type if they
/// were accumulated wider.
void replaceRounded(PatternRewriter &rewriter, Operation *op, Value sums) {
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  rewriter.replaceOp(op, getElementTypeOrSelf(sums.getType()) == element
                             ? sums
                             : roundTo(rewriter, op->getLoc(), sums, element));
}

struct Conv2DBackpropInputToLinalg : OpRewritePattern<Conv2DBackpropInputOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    RankedTensorType result = op.getType();
    // `?` batch, H and W are sized at run time (the window must be static;
    // CastToKnownSizes made the channels static where the filter is).
    if (!filter.hasStaticShape() || result.isDynamicDim(3))
      return rewriter.notifyMatchFailure(
          op, "a dynamic filter or channel dim is not lowered");
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");
    SmallVector<OpFoldResult> in = *sizes;
    checkLikeMatchesDy(rewriter, loc, op, op.getDy(), op.getLike(),
                       /*channelsOfDy=*/false);

    MLIRContext *context = rewriter.getContext();
    Type element = result.getElementType();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> f = filter.getShape();
    checkOutputSizes(rewriter, loc, op, op.getDy(), {in[1], in[2]},
                     {f[0], f[1]}, strides, padding, dilations);
    SmallVector<int64_t> offsets = {(f[0] - 1) * dilations[0],
                                    (f[1] - 1) * dilations[1]};
    Value spreadDy =
        spread(rewriter, loc, op.getDy(),
               spreadSizes(rewriter, loc, op.getDy(), {in[1], in[2]}, padding,
                           offsets, strides),
               offsets, strides, rewriter.getZeroAttr(element));

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
                              dynamicOf(rewriter, loc, result, in),
                              rewriter.getZeroAttr(accumulatorType(element)));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{spreadDy, op.getFilter(),
                   windowShape(rewriter, loc, f[0], f[1], element)},
        ValueRange{init}, maps, iterators(4, 3),
        [](OpBuilder &b, Location l, ValueRange args) {
          multiplyAdd(b, l, args[0], args[1], args[3]);
        });
    replaceRounded(rewriter, op, generic.getResult(0));
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
    // `?` batch, H and W are reduction dims; input and dy must agree on
    // them.
    if (!result.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "a dynamic filter is not lowered");
    if (input.isDynamicDim(0) || dy.isDynamicDim(0))
      checkSameSize(rewriter, loc, op, dimSize(rewriter, loc, op.getInput(), 0),
                    dimSize(rewriter, loc, op.getDy(), 0),
                    "the batch (dim 0) of input and dy differ");

    MLIRContext *context = rewriter.getContext();
    Type element = result.getElementType();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> f = result.getShape();
    checkOutputSizes(rewriter, loc, op, op.getDy(),
                     {sizeOf(rewriter, loc, op.getInput(), 1),
                      sizeOf(rewriter, loc, op.getInput(), 2)},
                     {f[0], f[1]}, strides, op.getPadding(), dilations);
    Value padded = padSpatial(rewriter, loc, op.getInput(), op.getPadding(),
                              rewriter.getZeroAttr(input.getElementType()));

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
                              rewriter.getZeroAttr(accumulatorType(element)));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{padded, op.getDy()}, ValueRange{init}, maps,
        iterators(4, 3), [](OpBuilder &b, Location l, ValueRange args) {
          multiplyAdd(b, l, args[0], args[1], args[2]);
        });
    replaceRounded(rewriter, op, generic.getResult(0));
    return success();
  }
};

/// `index` * `factor`, or `index` itself for a factor of one.
Value scaled(OpBuilder &b, Location loc, Value index, int64_t factor) {
  if (factor == 1)
    return index;
  return arith::MulIOp::create(b, loc, index,
                               arith::ConstantIndexOp::create(b, loc, factor));
}

/// Folds `body` over the window taps (kh, kw) of a kh_size x kw_size
/// window: two scf.for loops carrying `init`. A loop, not one copy of the
/// body per tap: every copy would be packed, tiled and vectorized into its
/// own micro-kernel, and compile time would grow with the window.
Value forEachTap(
    OpBuilder &b, Location loc, int64_t khSize, int64_t kwSize, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto rows = scf::ForOp::create(
      b, loc, zero, arith::ConstantIndexOp::create(b, loc, khSize), one,
      ValueRange{init},
      [&](OpBuilder &rb, Location rl, Value kh, ValueRange rowArgs) {
        auto cols = scf::ForOp::create(
            rb, rl, zero, arith::ConstantIndexOp::create(rb, rl, kwSize), one,
            rowArgs,
            [&](OpBuilder &cb, Location cl, Value kw, ValueRange colArgs) {
              scf::YieldOp::create(cb, cl, body(cb, cl, kh, kw, colArgs[0]));
            });
        scf::YieldOp::create(rb, rl, cols.getResults());
      });
  return rows.getResult(0);
}

/// Computes `part(kh, kw)`, the [c, f] matrix of window tap (kh, kw), for
/// every tap of a kh_size x kw_size window into dest[kh, kw, :, :], in an
/// scf.forall: the taps are independent, so threads share them. One loop
/// over the taps' linear index t = kh * kw_size + kw, so that the threads
/// split all of them, not only the rows of the window.
Value forallTaps(OpBuilder &b, Location loc, int64_t khSize, int64_t kwSize,
                 Value dest,
                 function_ref<Value(OpBuilder &, Location, Value, Value)> part) {
  auto forall = scf::ForallOp::create(b, loc, {b.getIndexAttr(khSize * kwSize)},
                                      ValueRange{dest}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  Value t = forall.getInductionVar(0);
  Value width = arith::ConstantIndexOp::create(b, loc, kwSize);
  Value kh = arith::DivUIOp::create(b, loc, t, width);
  Value kw = arith::RemUIOp::create(b, loc, t, width);
  Value matrix = part(b, loc, kh, kw);
  auto type = cast<RankedTensorType>(matrix.getType());
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      b, loc, matrix, forall.getRegionIterArgs()[0],
      SmallVector<OpFoldResult>{kh, kw, b.getIndexAttr(0), b.getIndexAttr(0)},
      getAsIndexOpFoldResult(b.getContext(),
                             {1, 1, type.getDimSize(0), type.getDimSize(1)}),
      getAsIndexOpFoldResult(b.getContext(), {1, 1, 1, 1}));
  return forall.getResult(0);
}

/// Below this many input channels, conv2d_backprop_filter makes one matmul
/// of all taps (rows (kh, kw, c)) instead of one per tap (c rows): a
/// register tile of the CPU micro-kernel has 6 (AVX2) or 8 (AVX-512) rows.
constexpr int64_t kFewChannels = 8;

/// The contraction routes below are taken for static f32 and f64, the
/// element types the CPU's contraction stage packs into its micro-kernels;
/// other types keep the gathers above.
bool contractionElement(Type element) {
  return element.isF32() || element.isF64();
}

/// conv2d_backprop_filter as one matmul per window tap (kh, kw), in a
/// parallel loop over the taps (forallTaps):
///   dF[kh, kw, c, f] = sum over (n, oh, ow) of
///     tap[n, oh, ow, c] * dy[n, oh, ow, f],
///   tap = xpad[n, oh * sh + kh * dh, ow * sw + kw * dw, c],
/// a strided tensor.extract_slice of the zero-padded input. The matmul is a
/// linalg.contract (c, f) reducing over (n, oh, ow), which the CPU's
/// contraction stage packs straight from the slice (dy's pack is loop
/// invariant and hoisted). With 64 channels this measured faster than one
/// matmul of an im2col copy of the input (bench/workloads/conv2d_grad.mlir);
/// with fewer than kFewChannels, the im2col matmul is faster and taken.
struct Conv2DBackpropFilterToMatmuls
    : OpRewritePattern<Conv2DBackpropFilterOp> {
  Conv2DBackpropFilterToMatmuls(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(Conv2DBackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    Type element = result.getElementType();
    if (!result.hasStaticShape() || !contractionElement(element))
      return rewriter.notifyMatchFailure(op, "not a static f32/f64 filter");
    // `?` batch, H and W are reduction dims of the matmuls (three dims,
    // never collapsed); input and dy must agree on them.
    if (input.isDynamicDim(0) || dy.isDynamicDim(0))
      checkSameSize(rewriter, loc, op, dimSize(rewriter, loc, op.getInput(), 0),
                    dimSize(rewriter, loc, op.getDy(), 0),
                    "the batch (dim 0) of input and dy differ");
    MLIRContext *context = rewriter.getContext();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> f = result.getShape();
    checkOutputSizes(rewriter, loc, op, op.getDy(),
                     {sizeOf(rewriter, loc, op.getInput(), 1),
                      sizeOf(rewriter, loc, op.getInput(), 2)},
                     {f[0], f[1]}, strides, op.getPadding(), dilations);
    Value padded = padSpatial(rewriter, loc, op.getInput(), op.getPadding(),
                              rewriter.getZeroAttr(input.getElementType()));

    // Dims (c, f, n, oh, ow).
    SmallVector<AffineExpr> d;
    for (unsigned i = 0; i < 5; ++i)
      d.push_back(getAffineDimExpr(i, context));
    ArrayAttr maps = rewriter.getAffineMapArrayAttr(
        {AffineMap::get(5, 0, {d[2], d[3], d[4], d[0]}, context),
         AffineMap::get(5, 0, {d[2], d[3], d[4], d[1]}, context),
         AffineMap::get(5, 0, {d[0], d[1]}, context)});
    auto index = [&](OpBuilder &b, int64_t v) -> OpFoldResult {
      return b.getIndexAttr(v);
    };
    // The input's batch and dy's H and W (checked against each other above).
    SmallVector<OpFoldResult> tapSizes = {
        sizeOf(rewriter, loc, op.getInput(), 0),
        sizeOf(rewriter, loc, op.getDy(), 1),
        sizeOf(rewriter, loc, op.getDy(), 2), rewriter.getIndexAttr(f[2])};
    auto tapType = RankedTensorType::get(staticShape(tapSizes), element);
    auto extractTap = [&](OpBuilder &b, Location l, Value kh,
                          Value kw) -> Value {
      return tensor::ExtractSliceOp::create(
          b, l, tapType, padded,
          SmallVector<OpFoldResult>{index(b, 0), scaled(b, l, kh, dilations[0]),
                                    scaled(b, l, kw, dilations[1]),
                                    index(b, 0)},
          tapSizes,
          getAsIndexOpFoldResult(context, {1, strides[0], strides[1], 1}));
    };

    if (f[2] < kFewChannels) {
      // Few input channels: the taps side by side along c, as the im2col
      // matrix cols[n, oh, ow, (kh * kw_size + kw) * c_size + c], and one
      // matmul whose rows are (kh, kw, c): a matmul per tap would have c
      // rows, most of a register tile wasted.
      int64_t rows = f[0] * f[1] * f[2];
      SmallVector<OpFoldResult> colsSizes(tapSizes);
      colsSizes[3] = rewriter.getIndexAttr(rows);
      Value cols = tensor::EmptyOp::create(rewriter, loc, colsSizes, element);
      cols = forEachTap(
          rewriter, loc, f[0], f[1], cols,
          [&](OpBuilder &b, Location l, Value kh, Value kw,
              Value cols) -> Value {
            Value column = scaled(
                b, l, arith::AddIOp::create(b, l, scaled(b, l, kh, f[1]), kw),
                f[2]);
            return tensor::InsertSliceOp::create(
                b, l, extractTap(b, l, kh, kw), cols,
                SmallVector<OpFoldResult>{index(b, 0), index(b, 0), index(b, 0),
                                          column},
                tapSizes, getAsIndexOpFoldResult(context, {1, 1, 1, 1}));
          });
      auto matrixType = RankedTensorType::get({rows, f[3]}, element);
      Value init = filledTensor(rewriter, loc, matrixType.getShape(),
                                rewriter.getZeroAttr(element));
      Value matrix = linalg::ContractOp::create(
                         rewriter, loc, TypeRange{matrixType},
                         ValueRange{cols, op.getDy()}, ValueRange{init}, maps)
                         .getResult(0);
      // dF[kh, kw, c, f] = matrix[(kh * kw_size + kw) * c_size + c, f]: a
      // copy of the small result, not a tensor.expand_shape, which
      // elementwise fusion would push into the matmul (as more row dims,
      // the innermost of them c again).
      Value empty = tensor::EmptyOp::create(rewriter, loc, f, element);
      SmallVector<AffineExpr> e;
      for (unsigned i = 0; i < 4; ++i)
        e.push_back(getAffineDimExpr(i, context));
      SmallVector<AffineMap> copyMaps = {
          AffineMap::get(4, 0, {(e[0] * f[1] + e[1]) * f[2] + e[2], e[3]},
                         context),
          rewriter.getMultiDimIdentityMap(4)};
      auto copy = linalg::GenericOp::create(
          rewriter, loc, TypeRange{result}, ValueRange{matrix},
          ValueRange{empty}, copyMaps, iterators(4, 0),
          [](OpBuilder &b, Location l, ValueRange args) {
            linalg::YieldOp::create(b, l, args[0]);
          });
      rewriter.replaceOp(op, copy.getResults());
      return success();
    }

    auto matrixType = RankedTensorType::get({f[2], f[3]}, element);
    Value empty = tensor::EmptyOp::create(rewriter, loc, f, element);
    Value dw = forallTaps(
        rewriter, loc, f[0], f[1], empty,
        [&](OpBuilder &b, Location l, Value kh, Value kw) -> Value {
          Value init =
              filledTensor(b, l, matrixType.getShape(), b.getZeroAttr(element));
          return linalg::ContractOp::create(
                     b, l, TypeRange{matrixType},
                     ValueRange{extractTap(b, l, kh, kw), op.getDy()},
                     ValueRange{init}, maps)
              .getResult(0);
        });
    rewriter.replaceOp(op, dw);
    return success();
  }
};

/// Whether `op`'s filter, dy and result are f32/f64 tensors of static
/// shape: the convolution routes of conv2d_backprop_input.
bool hasStaticFloatTypes(Conv2DBackpropInputOp op) {
  return op.getFilter().getType().hasStaticShape() &&
         op.getDy().getType().hasStaticShape() &&
         op.getType().hasStaticShape() &&
         contractionElement(op.getType().getElementType());
}

/// conv2d_backprop_input with unit strides and static shapes as the
/// forward convolution it transposes: dy padded by (k - 1) * d - pad on each
/// side, through the filter flipped in (kh, kw) with c and f swapped,
///   dx[n, i, j, c] = sum dypad[n, i + kh * dh, j + kw * dw, f]
///                        * F[KH - 1 - kh, KW - 1 - kw, c, f],
/// a linalg.conv_2d_nhwc_hwcf that the CPU computes directly
/// (lib/Codegen/CPU/DirectConvolution.cpp): no column matrix of KH * KW
/// times dx's size to write and add up. Padding wider than the dilated
/// window (dy's padding would be negative) stays with col2im.
struct Conv2DBackpropInputToConv : OpRewritePattern<Conv2DBackpropInputOp> {
  Conv2DBackpropInputToConv(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    Type element = result.getElementType();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> dilations = op.getDilations();
    if (!hasStaticFloatTypes(op) || strides[0] != 1 || strides[1] != 1)
      return rewriter.notifyMatchFailure(
          op, "not an f32/f64 op of static shape with unit strides");
    ArrayRef<int64_t> f = filter.getShape();
    // dy's padding [top, bottom, left, right]: its padded size is the
    // input's plus the dilated window's.
    SmallVector<int64_t> dyPadding;
    for (int i = 0; i < 2; ++i) {
      int64_t window = (f[i] - 1) * dilations[i];
      int64_t low = window - padding[2 * i];
      int64_t high =
          result.getDimSize(1 + i) + window - dy.getDimSize(1 + i) - low;
      dyPadding.append({low, high});
    }
    if (llvm::any_of(dyPadding, [](int64_t p) { return p < 0; }))
      return rewriter.notifyMatchFailure(op, "padding wider than the window");

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Value dyPadded = padSpatial(rewriter, loc, op.getDy(), dyPadding,
                                rewriter.getZeroAttr(element));
    // The flipped filter [KH, KW, F, C].
    AffineExpr kh, kw, fo, c;
    bindDims(context, kh, kw, fo, c);
    auto flippedType = RankedTensorType::get({f[0], f[1], f[3], f[2]}, element);
    Value flippedInit =
        tensor::EmptyOp::create(rewriter, loc, flippedType.getShape(), element);
    auto flipped = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flippedType}, ValueRange{op.getFilter()},
        ValueRange{flippedInit},
        ArrayRef<AffineMap>{
            AffineMap::get(4, 0, {f[0] - 1 - kh, f[1] - 1 - kw, c, fo},
                           context),
            rewriter.getMultiDimIdentityMap(4)},
        iterators(4, 0), [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              rewriter.getZeroAttr(element));
    rewriter.replaceOpWithNewOp<linalg::Conv2DNhwcHwcfOp>(
        op, TypeRange{result}, ValueRange{dyPadded, flipped.getResult(0)},
        ValueRange{init}, rewriter.getI64TensorAttr({1, 1}),
        rewriter.getI64TensorAttr(dilations));
    return success();
  }
};

/// conv2d_backprop_input with strides s > 1 (no dilation) and static shapes
/// as s_h * s_w stride-1 convolutions, one per phase of dx (the sub-pixel
/// decomposition): the positions i of a dim with (i + pad) = s q + r read
/// only the taps k = r + m s, so
///   dx[i] = sum over m of dy[q - m] * F[r + m s]
/// a forward convolution of dy with the sub-filter of phase r, flipped.
/// Each is computed directly on the CPU
/// (lib/Codegen/CPU/DirectConvolution.cpp) and written into dx with
/// strides s; no product with a zero of a spread dy, no column matrix.
struct Conv2DBackpropInputToPhaseConvs
    : OpRewritePattern<Conv2DBackpropInputOp> {
  Conv2DBackpropInputToPhaseConvs(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/3) {}

  /// One phase r of a dim: taps r, r + s, ... (`taps` of them), dx
  /// positions first, first + s, ... (`count`), reading dy from `q0`.
  struct Phase {
    int64_t residue, taps, first, count, q0;
  };

  static SmallVector<Phase> phasesOf(int64_t stride, int64_t window,
                                     int64_t padLow, int64_t inputSize) {
    SmallVector<Phase> phases;
    for (int64_t r = 0; r < stride; ++r) {
      Phase p;
      p.residue = r;
      p.taps = r < window ? llvm::divideCeil(window - r, stride) : 0;
      p.first = ((r - padLow) % stride + stride) % stride;
      p.count = p.first < inputSize
                    ? llvm::divideCeil(inputSize - p.first, stride)
                    : 0;
      p.q0 = (p.first + padLow - r) / stride;
      phases.push_back(p);
    }
    return phases;
  }

  LogicalResult matchAndRewrite(Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    Type element = result.getElementType();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> dilations = op.getDilations();
    if (!hasStaticFloatTypes(op) || (strides[0] == 1 && strides[1] == 1) ||
        dilations[0] != 1 || dilations[1] != 1)
      return rewriter.notifyMatchFailure(
          op, "not an f32/f64 op of static shape, strided, undilated");
    ArrayRef<int64_t> f = filter.getShape();
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();

    SmallVector<Phase> phases[2];
    SmallVector<int64_t> dyPadding;
    for (int d = 0; d < 2; ++d) {
      phases[d] =
          phasesOf(strides[d], f[d], padding[2 * d], result.getDimSize(1 + d));
      int64_t maxTaps = 0, high = 0;
      for (const Phase &p : phases[d]) {
        maxTaps = std::max(maxTaps, p.taps);
        high = std::max(high, p.q0 + p.count - dy.getDimSize(1 + d));
      }
      dyPadding.append({std::max<int64_t>(0, maxTaps - 1), high});
    }
    Value dyPadded = padSpatial(rewriter, loc, op.getDy(), dyPadding,
                                rewriter.getZeroAttr(element));
    int64_t batch = result.getDimSize(0), channels = result.getDimSize(3);
    // Zeros only where a phase has no taps; else the phases write it all.
    auto tapless = [](const Phase &p) { return p.taps == 0; };
    Value dx =
        llvm::any_of(phases[0], tapless) || llvm::any_of(phases[1], tapless)
            ? filledTensor(rewriter, loc, result.getShape(),
                           rewriter.getZeroAttr(element))
            : tensor::EmptyOp::create(rewriter, loc, result.getShape(), element)
                  .getResult();
    for (const Phase &ph : phases[0]) {
      for (const Phase &pw : phases[1]) {
        // Positions no tap reaches stay zero.
        if (!ph.taps || !pw.taps || !ph.count || !pw.count)
          continue;
        // dy's rows and columns this phase reads, from padded dy.
        SmallVector<int64_t> sliceShape = {batch, ph.count + ph.taps - 1,
                                           pw.count + pw.taps - 1,
                                           dy.getDimSize(3)};
        Value window = tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get(sliceShape, element), dyPadded,
            getAsIndexOpFoldResult(context,
                                   {0, ph.q0 - (ph.taps - 1) + dyPadding[0],
                                    pw.q0 - (pw.taps - 1) + dyPadding[2], 0}),
            getAsIndexOpFoldResult(context, sliceShape),
            getAsIndexOpFoldResult(context, {1, 1, 1, 1}));
        // The phase's taps, flipped, [taps_h, taps_w, F, C].
        AffineExpr th, tw, fo, c;
        bindDims(context, th, tw, fo, c);
        auto subType =
            RankedTensorType::get({ph.taps, pw.taps, f[3], f[2]}, element);
        auto sub = linalg::GenericOp::create(
            rewriter, loc, TypeRange{subType}, ValueRange{op.getFilter()},
            ValueRange{tensor::EmptyOp::create(rewriter, loc,
                                               subType.getShape(), element)},
            ArrayRef<AffineMap>{
                AffineMap::get(
                    4, 0,
                    {ph.residue + (ph.taps - 1) * strides[0] - th * strides[0],
                     pw.residue + (pw.taps - 1) * strides[1] - tw * strides[1],
                     c, fo},
                    context),
                rewriter.getMultiDimIdentityMap(4)},
            iterators(4, 0), [](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(b, l, args[0]);
            });
        // The phase's positions of dx, with strides: the convolution
        // accumulates there in place, not in a copy inserted after.
        SmallVector<int64_t> phaseShape = {batch, ph.count, pw.count, channels};
        SmallVector<OpFoldResult> phaseOffsets =
            getAsIndexOpFoldResult(context, {0, ph.first, pw.first, 0});
        SmallVector<OpFoldResult> phaseSizes =
            getAsIndexOpFoldResult(context, phaseShape);
        SmallVector<OpFoldResult> phaseStrides =
            getAsIndexOpFoldResult(context, {1, strides[0], strides[1], 1});
        Value positions = tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get(phaseShape, element), dx,
            phaseOffsets, phaseSizes, phaseStrides);
        Value zero = arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getZeroAttr(element));
        Value init = linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                            ValueRange{positions})
                         .getResult(0);
        Value phase = linalg::Conv2DNhwcHwcfOp::create(
                          rewriter, loc, TypeRange{init.getType()},
                          ValueRange{window, sub.getResult(0)},
                          ValueRange{init}, rewriter.getI64TensorAttr({1, 1}),
                          rewriter.getI64TensorAttr({1, 1}))
                          .getResult(0);
        dx = tensor::InsertSliceOp::create(
            rewriter, loc, phase, dx, phaseOffsets, phaseSizes, phaseStrides);
      }
    }
    rewriter.replaceOp(op, dx);
    return success();
  }
};

/// conv2d_backprop_input as col2im of a matmul: first, with r the row
/// (kh * kw_size + kw) * c_size + c of the filter as a matrix,
///   cols[n, oh, ow, r] = sum_f dy[n, oh, ow, f] * F[kh, kw, c, f]
/// (a linalg.contract with the columns r in one dim, so that a register
/// tile spans taps when c is small), then each window tap (kh, kw) adds its
/// columns of cols onto the zero-padded result where the forward pass read
/// them,
///   dxpad[n, oh * sh + kh * dh, ow * sw + kw * dw, c] += cols[n, oh, ow, r]
/// (a strided slice update, in a loop over the taps), and dx is the
/// unpadded part of dxpad. Unlike a convolution of the zero-spread dy with
/// the flipped filter, it multiplies no zeros when strides > 1; with unit
/// strides both do the same work, and this one measured faster
/// (bench/workloads/conv2d_grad.mlir).
struct Conv2DBackpropInputToCol2Im : OpRewritePattern<Conv2DBackpropInputOp> {
  Conv2DBackpropInputToCol2Im(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filter = cast<RankedTensorType>(op.getFilter().getType());
    auto dy = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType result = op.getType();
    Type element = result.getElementType();
    // `?` batch, H and W are sized at run time (like's, the batch checked
    // against dy's): the matmul's rows (n, oh, ow) stay three dims, never
    // collapsed (see rewriteAsIm2ColMatmul in PackContractions.cpp).
    if (!filter.hasStaticShape() || result.isDynamicDim(3) ||
        dy.isDynamicDim(3) || !contractionElement(element))
      return rewriter.notifyMatchFailure(
          op, "not an f32/f64 op with a static filter and channels");
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> f = filter.getShape();
    SmallVector<OpFoldResult> in = *sizes;
    checkLikeMatchesDy(rewriter, loc, op, op.getDy(), op.getLike(),
                       /*channelsOfDy=*/false);
    checkOutputSizes(rewriter, loc, op, op.getDy(), {in[1], in[2]},
                     {f[0], f[1]}, strides, padding, dilations);
    SmallVector<OpFoldResult> out;
    for (int64_t d = 0; d < 4; ++d)
      out.push_back(sizeOf(rewriter, loc, op.getDy(), d));
    OpFoldResult batch = in[0];

    MLIRContext *context = rewriter.getContext();

    // The filter as a matrix of rows (kh, kw, c): a copy (small), not a
    // tensor.collapse_shape, which elementwise fusion would push into the
    // matmul as more column dims, the innermost of them c.
    int64_t rows = f[0] * f[1] * f[2];
    AffineExpr r = getAffineDimExpr(0, context);
    AffineExpr fo = getAffineDimExpr(1, context);
    auto matrixType = RankedTensorType::get({rows, f[3]}, element);
    Value matrixInit =
        tensor::EmptyOp::create(rewriter, loc, matrixType.getShape(), element);
    auto matrix = linalg::GenericOp::create(
        rewriter, loc, TypeRange{matrixType}, ValueRange{op.getFilter()},
        ValueRange{matrixInit},
        ArrayRef<AffineMap>{
            AffineMap::get(2, 0,
                           {r.floorDiv(f[1] * f[2]), r.floorDiv(f[2]) % f[1],
                            r % f[2], fo},
                           context),
            rewriter.getMultiDimIdentityMap(2)},
        iterators(2, 0), [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    // Dims (n, oh, ow, r, f).
    SmallVector<AffineExpr> e;
    for (unsigned i = 0; i < 5; ++i)
      e.push_back(getAffineDimExpr(i, context));
    ArrayAttr maps = rewriter.getAffineMapArrayAttr(
        {AffineMap::get(5, 0, {e[0], e[1], e[2], e[4]}, context),
         AffineMap::get(5, 0, {e[3], e[4]}, context),
         AffineMap::get(5, 0, {e[0], e[1], e[2], e[3]}, context)});
    SmallVector<OpFoldResult> colsSizes = {batch, out[1], out[2],
                                           rewriter.getIndexAttr(rows)};
    auto colsType = RankedTensorType::get(staticShape(colsSizes), element);
    Value colsInit = filledTensor(rewriter, loc, colsType.getShape(),
                                  dynamicOf(rewriter, loc, colsType, colsSizes),
                                  rewriter.getZeroAttr(element));
    Value cols =
        linalg::ContractOp::create(rewriter, loc, TypeRange{colsInit.getType()},
                                   ValueRange{op.getDy(), matrix.getResult(0)},
                                   ValueRange{colsInit}, maps)
            .getResult(0);

    // dxpad holds every position a tap reads, and the unpadded input.
    SmallVector<OpFoldResult> paddedSizes = {batch};
    for (int i = 0; i < 2; ++i) {
      OpFoldResult lastRead =
          addSizes(rewriter, loc,
                   mulSizes(rewriter, loc,
                            subSizes(rewriter, loc, out[1 + i],
                                     rewriter.getIndexAttr(1)),
                            rewriter.getIndexAttr(strides[i])),
                   rewriter.getIndexAttr((f[i] - 1) * dilations[i] + 1));
      paddedSizes.push_back(
          maxSizes(rewriter, loc,
                   addSizes(rewriter, loc, in[1 + i],
                            rewriter.getIndexAttr(padding[2 * i])),
                   lastRead));
    }
    paddedSizes.push_back(in[3]);
    auto paddedType = RankedTensorType::get(staticShape(paddedSizes), element);
    Value dxpad =
        filledTensor(rewriter, loc, paddedType.getShape(),
                     dynamicOf(rewriter, loc, paddedType, paddedSizes),
                     rewriter.getZeroAttr(element));
    SmallVector<OpFoldResult> sliceSizes = {batch, out[1], out[2], in[3]};
    auto sliceType = RankedTensorType::get(staticShape(sliceSizes), element);
    SmallVector<int64_t> sliceStrides = {1, strides[0], strides[1], 1};
    SmallVector<AffineMap> addMaps(2, rewriter.getMultiDimIdentityMap(4));
    dxpad = forEachTap(
        rewriter, loc, f[0], f[1], dxpad,
        [&](OpBuilder &b, Location l, Value kh, Value kw,
            Value dxpad) -> Value {
          auto index = [&](int64_t v) -> OpFoldResult {
            return b.getIndexAttr(v);
          };
          SmallVector<OpFoldResult> at = {
              index(0), scaled(b, l, kh, dilations[0]),
              scaled(b, l, kw, dilations[1]), index(0)};
          SmallVector<OpFoldResult> sizes = sliceSizes;
          SmallVector<OpFoldResult> steps =
              getAsIndexOpFoldResult(context, sliceStrides);
          Value target = tensor::ExtractSliceOp::create(b, l, sliceType, dxpad,
                                                        at, sizes, steps);
          Value column = scaled(
              b, l, arith::AddIOp::create(b, l, scaled(b, l, kh, f[1]), kw),
              f[2]);
          Value tap = tensor::ExtractSliceOp::create(
              b, l, sliceType, cols,
              SmallVector<OpFoldResult>{index(0), index(0), index(0), column},
              sliceSizes, getAsIndexOpFoldResult(context, {1, 1, 1, 1}));
          // dxpad's slice is only the init: read as an input as well, it
          // would bufferize to a copy of the slice and a copy back.
          auto sum = linalg::GenericOp::create(
              b, l, TypeRange{sliceType}, ValueRange{tap}, ValueRange{target},
              addMaps, iterators(4, 0),
              [](OpBuilder &nb, Location nl, ValueRange args) {
                linalg::YieldOp::create(
                    nb, nl,
                    arith::AddFOp::create(nb, nl, args[0], args[1])
                        .getResult());
              });
          return tensor::InsertSliceOp::create(b, l, sum.getResult(0), dxpad,
                                               at, sizes, steps);
        });
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, result, dxpad,
        getAsIndexOpFoldResult(context, {0, padding[0], padding[2], 0}),
        SmallVector<OpFoldResult>{batch, in[1], in[2], in[3]},
        getAsIndexOpFoldResult(context, {1, 1, 1, 1}));
    return success();
  }
};

} // namespace

void mlir::trace::populateConvBackpropToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<CastToKnownSizes<Conv2DBackpropInputOp>,
               CastToKnownSizes<Conv2DBackpropFilterOp>,
               Conv2DBackpropFilterToMatmuls, Conv2DBackpropInputToConv,
               Conv2DBackpropInputToPhaseConvs, Conv2DBackpropInputToCol2Im,
               Conv2DBackpropInputToLinalg, Conv2DBackpropFilterToLinalg>(
      patterns.getContext());
}
