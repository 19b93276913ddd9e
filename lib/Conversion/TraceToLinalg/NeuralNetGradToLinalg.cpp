//===- NeuralNetGradToLinalg.cpp - NN backprop ops -> linalg --------------===//
//
// The conv2d backprop ops of f32/f64 tensors with a static filter become
// contractions
// (linalg.contract) that the CPU's contraction stage packs into its
// micro-kernels, plus strided slices: conv2d_backprop_filter is one matmul
// per window tap (or of an im2col matrix, with few input channels),
// conv2d_backprop_input a matmul and a col2im (see the patterns). Other
// element types take the loop-nest forms below.
//
// At `?` dims, CastToKnownSizes first gives every operand the sizes that
// the static result and the attributes fix (checked at run time). What
// stays `?` (the batch, H and W, max_pool2d_grad's and avg_pool2d_grad's
// channels) is sized at run time: a result `like` a value takes dy's batch
// (and avg_pool2d_grad's channels), checked against like's, and like's H
// and W; dy's H and W are checked against the window's output sizes over
// the input's (checkOutputSizes). The matmuls keep (n, oh, ow) as three
// dims: collapsing two `?` dims into one hits an LLVM 22 crash (see
// rewriteAsIm2ColMatmul in lib/Codegen/CPU/PackContractions.cpp).
//
// Those: conv2d_backprop_filter is a linalg.generic over (kh, kw, c, f)
// reducing over (n, oh, ow), reading the zero-padded input at
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

#include "DynamicSizes.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceAdjointOps.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceShapes.h"

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
    if (!ShapedType::isDynamic(shape[d]))
      shape[d] += low[d] + high[d];
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::PadOp::create(
      b, loc, paddedType, input, getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), high), zero);
}

/// Dim `d` of `value`: a constant where static, else tensor.dim.
OpFoldResult sizeOf(OpBuilder &b, Location loc, Value value, int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(d))
    return b.getIndexAttr(type.getDimSize(d));
  return dimSize(b, loc, value, d);
}

/// max(lhs, rhs): a constant where both are, else arith.maxsi.
OpFoldResult maxSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
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

/// The sizes of the spread tensor of `source` (NHWC, one value per output
/// position) for an input of spatial sizes `inSizes`: the batch and
/// channels are the source's.
SmallVector<OpFoldResult> spreadSizes(OpBuilder &b, Location loc, Value source,
                                      ArrayRef<OpFoldResult> inSizes,
                                      ArrayRef<int64_t> padding,
                                      ArrayRef<int64_t> offsets,
                                      ArrayRef<int64_t> strides) {
  SmallVector<OpFoldResult> sizes = {sizeOf(b, loc, source, 0)};
  for (int i = 0; i < 2; ++i)
    sizes.push_back(spreadSize(b, loc, inSizes[i], padding[2 * i], offsets[i],
                               sizeOf(b, loc, source, 1 + i), strides[i]));
  sizes.push_back(sizeOf(b, loc, source, 3));
  return sizes;
}

/// Checks that dy's spatial dims are the output sizes of the forward op's
/// window (`window`, `strides`, `padding`, `dilations`) over an input of
/// spatial sizes `inSizes`, at run time where that is not static (the
/// verifier compared the static ones).
void checkOutputSizes(OpBuilder &b, Location loc, Operation *op, Value dy,
                      ArrayRef<OpFoldResult> inSizes, ArrayRef<int64_t> window,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                      ArrayRef<int64_t> dilations) {
  for (int i = 0; i < 2; ++i) {
    OpFoldResult want = windowedSize(
        b, loc, op, inSizes[i], b.getIndexAttr(window[i]), strides[i],
        padding[2 * i], padding[2 * i + 1], dilations[i],
        "the window does not fit the padded input dim " + Twine(1 + i));
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

/// The NHWC `source` (one value per output position) placed into a tensor
/// of `sizes` filled with `background`, at rows offsets[0] + oh * strides[0]
/// and columns offsets[1] + ow * strides[1]. Written as a linalg.generic
/// that reads `source` with tensor.extract where (p - offset) is a multiple
/// of the stride in range (rather than a strided tensor.insert_slice, which
/// becomes a strided copy): elementwise fusion folds it into its consumer.
Value spread(OpBuilder &b, Location loc, Value source,
             ArrayRef<OpFoldResult> sizes, ArrayRef<int64_t> offsets,
             ArrayRef<int64_t> strides, TypedAttr background) {
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

/// The sizes of the input cotangent that conv2d_backprop_input and
/// avg_pool2d_grad return: static where the result type is; a `?` batch
/// (and, with `channelsOfDy`, `?` channels) dy's, checked against
/// `like`'s; a `?` H or W `like`'s. Fails where a `?` has no `like`.
FailureOr<SmallVector<OpFoldResult>> resultSizes(OpBuilder &b, Location loc,
                                                 Operation *op, Value dy,
                                                 Value like,
                                                 bool channelsOfDy) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < 4; ++d) {
    if (!result.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(result.getDimSize(d)));
      continue;
    }
    if (d == 0 || (d == 3 && channelsOfDy)) {
      Value size = dimSize(b, loc, dy, d);
      if (like)
        checkSameSize(b, loc, op, dimSize(b, loc, like, d), size,
                      "dim " + Twine(d) + " of 'like' and of dy differ");
      sizes.push_back(size);
      continue;
    }
    if (!like)
      return failure();
    sizes.push_back(dimSize(b, loc, like, d));
  }
  return sizes;
}

/// `known` with `fallback`'s size where `known` has none.
int64_t orElse(int64_t known, int64_t fallback) {
  return ShapedType::isDynamic(known) ? fallback : known;
}

/// The sizes each operand of a backprop op must have, as far as the static
/// result, the attributes and the other operands fix them (`?` where they
/// do not).
SmallVector<SmallVector<int64_t>> knownShapes(Conv2DBackpropInputOp op) {
  ArrayRef<int64_t> in = op.getType().getShape();
  auto filter = cast<RankedTensorType>(op.getFilter().getType()).getShape();
  auto dy = cast<RankedTensorType>(op.getDy().getType()).getShape();
  int64_t f = orElse(filter[3], dy[3]);
  SmallVector<int64_t> out = {in[0]};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(
        in[1 + i], filter[i], op.getStrides()[i], op.getPadding()[2 * i],
        op.getPadding()[2 * i + 1], op.getDilations()[i]));
  out.push_back(f);
  return {{filter[0], filter[1], in[3], f}, out};
}

SmallVector<SmallVector<int64_t>> knownShapes(Conv2DBackpropFilterOp op) {
  ArrayRef<int64_t> f = op.getType().getShape();
  auto in = cast<RankedTensorType>(op.getInput().getType()).getShape();
  auto dy = cast<RankedTensorType>(op.getDy().getType()).getShape();
  int64_t n = orElse(in[0], dy[0]);
  SmallVector<int64_t> out = {n};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(
        in[1 + i], f[i], op.getStrides()[i], op.getPadding()[2 * i],
        op.getPadding()[2 * i + 1], op.getDilations()[i]));
  out.push_back(f[3]);
  return {{n, in[1], in[2], f[2]}, out};
}

SmallVector<SmallVector<int64_t>> knownShapes(MaxPool2DGradOp op) {
  auto in = cast<RankedTensorType>(op.getInput().getType()).getShape();
  auto dy = cast<RankedTensorType>(op.getDy().getType()).getShape();
  int64_t n = orElse(in[0], dy[0]), c = orElse(in[3], dy[3]);
  SmallVector<int64_t> out = {n};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(in[1 + i], op.getWindow()[i],
                                     op.getStrides()[i], op.getPadding()[2 * i],
                                     op.getPadding()[2 * i + 1]));
  out.push_back(c);
  return {{n, in[1], in[2], c}, out};
}

SmallVector<SmallVector<int64_t>> knownShapes(AvgPool2DGradOp op) {
  ArrayRef<int64_t> in = op.getType().getShape();
  SmallVector<int64_t> out = {in[0]};
  for (int i = 0; i < 2; ++i)
    out.push_back(windowedOutputSize(in[1 + i], op.getWindow()[i],
                                     op.getStrides()[i], op.getPadding()[2 * i],
                                     op.getPadding()[2 * i + 1]));
  out.push_back(in[3]);
  return {out};
}

/// A backprop op whose operands have `?` dims that its static result or
/// its other operands fix: each such dim is checked at run time and the
/// operand cast to the static size (tensor.cast), so that the lowerings
/// below see static sizes wherever the op has them.
template <typename OpTy> struct CastToKnownSizes : OpRewritePattern<OpTy> {
  CastToKnownSizes(MLIRContext *context)
      : OpRewritePattern<OpTy>(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<SmallVector<int64_t>> known = knownShapes(op);
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
                      "dim " + Twine(d) + " of operand " + Twine(i) +
                          " is not " + Twine(shape[d]) +
                          ", the size the other shapes give it");
        sizes[d] = shape[d];
        changed = true;
      }
      operands[i] = castTo(rewriter, loc, operands[i], type.clone(sizes));
    }
    if (!changed)
      return rewriter.notifyMatchFailure(op, "no operand dim to make static");
    rewriter.replaceOpWithNewOp<OpTy>(op, op.getType(), operands,
                                      op->getAttrs());
    return success();
  }
};

/// Whether a result dim of a backprop op returning the input's cotangent
/// is `?` where only `like` can size it (dims 1 and 2, and 3 unless
/// `channelsOfDy`) and there is no `like`.
bool unsizedResult(Operation *op, Value like, bool channelsOfDy) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  return !like && (result.isDynamicDim(1) || result.isDynamicDim(2) ||
                   (!channelsOfDy && result.isDynamicDim(3)));
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
    if (!allStatic({filter}) || result.isDynamicDim(3) ||
        unsizedResult(op, op.getLike(), /*channelsOfDy=*/false))
      return rewriter.notifyMatchFailure(
          op, "a dynamic filter or channel dim is not lowered");
    SmallVector<OpFoldResult> in = *resultSizes(
        rewriter, loc, op, op.getDy(), op.getLike(), /*channelsOfDy=*/false);

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

/// conv2d_backprop_filter as one matmul per window tap (kh, kw), in a loop
/// over the taps:
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
    Value padded = padSpatial(rewriter, loc, op.getInput(), op.getPadding());

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
    Value dw = forEachTap(
        rewriter, loc, f[0], f[1], empty,
        [&](OpBuilder &b, Location l, Value kh, Value kw, Value dw) -> Value {
          Value init =
              filledTensor(b, l, matrixType.getShape(), b.getZeroAttr(element));
          Value part = linalg::ContractOp::create(
                           b, l, TypeRange{matrixType},
                           ValueRange{extractTap(b, l, kh, kw), op.getDy()},
                           ValueRange{init}, maps)
                           .getResult(0);
          return tensor::InsertSliceOp::create(
              b, l, part, dw,
              SmallVector<OpFoldResult>{kh, kw, index(b, 0), index(b, 0)},
              getAsIndexOpFoldResult(context, {1, 1, f[2], f[3]}),
              getAsIndexOpFoldResult(context, {1, 1, 1, 1}));
        });
    rewriter.replaceOp(op, dw);
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
    // `?` batch, H and W are sized at run time (the batch dy's, H and W
    // like's): the matmul's rows (n, oh, ow) stay three dims, never
    // collapsed (see rewriteAsIm2ColMatmul in PackContractions.cpp).
    if (!allStatic({filter}) || result.isDynamicDim(3) || dy.isDynamicDim(3) ||
        unsizedResult(op, op.getLike(), /*channelsOfDy=*/false) ||
        !contractionElement(element))
      return rewriter.notifyMatchFailure(
          op, "not an f32/f64 op with a static filter and channels");
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> f = filter.getShape();
    SmallVector<OpFoldResult> in = *resultSizes(
        rewriter, loc, op, op.getDy(), op.getLike(), /*channelsOfDy=*/false);
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
    SmallVector<AffineMap> addMaps(3, rewriter.getMultiDimIdentityMap(4));
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
          auto sum = linalg::GenericOp::create(
              b, l, TypeRange{sliceType}, ValueRange{target, tap},
              ValueRange{target}, addMaps, iterators(4, 0),
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
                               ValueRange outDynamic,
                               ArrayRef<OpFoldResult> in,
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
  SmallVector<Value> inits = {
      filledTensor(rewriter, loc, outShape, outDynamic,
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
  SmallVector<Value> inputs = {padSpatial(rewriter, loc, input, padding)};
  SmallVector<AffineMap> maps = {windowRead};
  if (carries) {
    inputs.push_back(padSpatial(rewriter, loc, t, padding));
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
    bool padded = hasPadding(padding);

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
    // The pooled sizes: the batch and channels are the input's, H and W
    // the windows' count over it.
    SmallVector<Value> outDynamic;
    for (int64_t d = 0; d < 4; ++d) {
      if (!result.isDynamicDim(d))
        continue;
      if (d == 0 || d == 3) {
        outDynamic.push_back(dimSize(rewriter, loc, op.getInput(), d));
        continue;
      }
      int i = d - 1;
      outDynamic.push_back(getValueOrCreateConstantIndexOp(
          rewriter, loc,
          windowedSize(rewriter, loc, op, in[d],
                       rewriter.getIndexAttr(op.getWindow()[i]),
                       op.getStrides()[i], op.getPadding()[2 * i],
                       op.getPadding()[2 * i + 1], /*dilation=*/1,
                       "the window does not fit the padded input dim " +
                           Twine(d))));
    }
    linalg::GenericOp argmax = windowArgmax(
        rewriter, loc, op.getInput(), tValue, result.getShape(), outDynamic,
        in, op.getWindow(), op.getStrides(), op.getPadding());
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
    // `?` batch and channels are dy's, `?` H and W like's.
    if (unsizedResult(op, op.getLike(), /*channelsOfDy=*/true))
      return rewriter.notifyMatchFailure(op, "a dynamic dim without 'like'");
    SmallVector<OpFoldResult> in = *resultSizes(
        rewriter, loc, op, op.getDy(), op.getLike(), /*channelsOfDy=*/true);

    MLIRContext *context = rewriter.getContext();
    Type element = result.getElementType();
    ArrayRef<int64_t> window = op.getWindow();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> padding = op.getPadding();
    SmallVector<int64_t> ones = {1, 1};
    checkOutputSizes(rewriter, loc, op, op.getDy(), {in[1], in[2]}, window,
                     strides, padding, ones);
    bool padded = hasPadding(padding);

    // 1. dy / count, count = the window's non-padding elements.
    SmallVector<AffineMap> identity(2, rewriter.getMultiDimIdentityMap(4));
    Value empty = tensor::EmptyOp::create(rewriter, loc, dy.getShape(), element,
                                          dynamicSizes(rewriter, loc, op.getDy()));
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
    Value spreadDy =
        spread(rewriter, loc, scaled.getResult(0),
               spreadSizes(rewriter, loc, scaled.getResult(0), {in[1], in[2]},
                           padding, offsets, strides),
               offsets, strides, rewriter.getZeroAttr(element));
    SmallVector<AffineMap> maps = {
        spreadReadMap(context, 6, padding, ones, getAffineDimExpr(3, context)),
        windowMap(context, 6), leadingMap(context, 6)};
    Value init = filledTensor(rewriter, loc, result.getShape(),
                              dynamicOf(rewriter, loc, result, in),
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

void mlir::trace::populateNeuralNetGradToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<CastToKnownSizes<Conv2DBackpropInputOp>,
           CastToKnownSizes<Conv2DBackpropFilterOp>,
           CastToKnownSizes<MaxPool2DGradOp>, CastToKnownSizes<AvgPool2DGradOp>,
           Conv2DBackpropFilterToMatmuls, Conv2DBackpropInputToCol2Im,
           Conv2DBackpropInputToLinalg, Conv2DBackpropFilterToLinalg,
           MaxPool2DGradToLinalg, MaxPool2DSelectToLinalg,
           AvgPool2DGradToLinalg>(patterns.getContext());
}
