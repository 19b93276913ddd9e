//===- WindowUtils.h - Window arithmetic the conv/pool lowerings share ----===//
//
// The backprop ops of conv2d and the pooling ops scatter each output
// position's value onto the input positions of its window. Their lowerings
// write that as a gather over the input positions, with affine indexing
// only: the per-output values are first "spread" into a zero tensor at rows
// (k - 1) * d + oh * s (and the same for columns), so that output position
// oh contributes to input row ih through window row kh exactly when
//   spread[ih + pad_top + (k - 1 - kh) * d] holds oh,
// i.e. when ih + pad_top - kh * d == oh * s, the divisibility and range test
// of the direct gather; every other spread element is zero (or, for the
// max-pool argmax, -1, which never matches). Each op is then one
// linalg.generic over (n, ih, iw, c) reducing over the flipped window
// (kh', kw') = (k - 1 - kh, ...). Padding positions are never computed, so
// they never receive.
//
// At `?` dims, CastToKnownSizes first gives every operand the sizes that
// the static result and the attributes fix (checked at run time). What
// stays `?` is sized at run time: a result `like` a value takes dy's batch
// (and avg_pool2d_grad's channels), checked against like's, and like's H
// and W; dy's H and W are checked against the window's output sizes over
// the input's (checkOutputSizes).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_CONVERSION_TRACETOLINALG_WINDOWUTILS_H
#define TRACEC_LIB_CONVERSION_TRACETOLINALG_WINDOWUTILS_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trace {

/// Whether `padding` ([top, bottom, left, right]) pads at all.
bool hasPadding(ArrayRef<int64_t> padding);

/// Pads the H and W dims of the NHWC `input` by `padding` ([top, bottom,
/// left, right]) with `value`; returns `input` itself when there is none.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> padding, TypedAttr value);

/// The number of non-padding elements, as a float of `element`, in the
/// window of the output position (linalg.index 1, linalg.index 2) of a
/// linalg.generic body over NHWC outputs: window[0] * window[1] without
/// padding, else counted per position over an input of `height` x `width`
/// (avg_pool2d's divisor).
Value windowCount(OpBuilder &b, Location loc, Type element,
                  ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> padding, OpFoldResult height,
                  OpFoldResult width);

/// Dim `d` of `value`: a constant where static, else tensor.dim.
OpFoldResult sizeOf(OpBuilder &b, Location loc, Value value, int64_t d);

/// max(lhs, rhs): a constant where both are, else arith.maxsi.
OpFoldResult maxSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs);

/// The sizes of the spread tensor of `source` (NHWC, one value per output
/// position) for an input of spatial sizes `inSizes`: the batch and
/// channels are the source's.
SmallVector<OpFoldResult> spreadSizes(OpBuilder &b, Location loc, Value source,
                                      ArrayRef<OpFoldResult> inSizes,
                                      ArrayRef<int64_t> padding,
                                      ArrayRef<int64_t> offsets,
                                      ArrayRef<int64_t> strides);

/// Checks that dy's spatial dims are the output sizes of the forward op's
/// window (`window`, `strides`, `padding`, `dilations`) over an input of
/// spatial sizes `inSizes`, at run time where that is not static (the
/// verifier compared the static ones).
void checkOutputSizes(OpBuilder &b, Location loc, Operation *op, Value dy,
                      ArrayRef<OpFoldResult> inSizes, ArrayRef<int64_t> window,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                      ArrayRef<int64_t> dilations);

/// The NHWC `source` (one value per output position) placed into a tensor
/// of `sizes` filled with `background`, at rows offsets[0] + oh * strides[0]
/// and columns offsets[1] + ow * strides[1]. Written as a linalg.generic
/// that reads `source` with tensor.extract where (p - offset) is a multiple
/// of the stride in range (rather than a strided tensor.insert_slice, which
/// becomes a strided copy): elementwise fusion folds it into its consumer.
Value spread(OpBuilder &b, Location loc, Value source,
             ArrayRef<OpFoldResult> sizes, ArrayRef<int64_t> offsets,
             ArrayRef<int64_t> strides, TypedAttr background);

/// Iterator types: `parallel` parallel dims, then `reduction` ones.
SmallVector<utils::IteratorType> iterators(int parallel, int reduction);

/// The per-input-position gather of a spread tensor: maps (n, ih, iw, c,
/// kh', kw') to (n, ih + padTop + kh' * dh, iw + padLeft + kw' * dw, c).
AffineMap spreadReadMap(MLIRContext *context, unsigned numDims,
                        ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations,
                        AffineExpr channel);

/// (d0, d1, d2, d3) of `numDims` dims.
AffineMap leadingMap(MLIRContext *context, unsigned numDims);

/// linalg derives loop bounds from the operands' plain dim indexings only:
/// an empty [kh, kw] tensor read at (d4, d5), as linalg's pooling ops take,
/// gives the window dims theirs.
Value windowShape(OpBuilder &b, Location loc, int64_t kh, int64_t kw,
                  Type element);

/// (d4, d5) of `numDims` dims: the window dims, read from windowShape.
AffineMap windowMap(MLIRContext *context, unsigned numDims);

/// Checks, where they are `?`, that the batch (and, with `channelsOfDy`,
/// the channels) of the result, which the op takes from `like`, are dy's.
void checkLikeMatchesDy(OpBuilder &b, Location loc, Operation *op, Value dy,
                        Value like, bool channelsOfDy);

/// The operands of `op` where `known` (one shape per operand, `?` where
/// nothing fixes a size) makes `?` dims static: each such dim is checked at
/// run time and the operand cast to the static size (tensor.cast). Fails,
/// creating nothing, where no operand dim becomes static.
FailureOr<SmallVector<Value>>
castToKnownSizes(PatternRewriter &rewriter, Operation *op,
                 ArrayRef<SmallVector<int64_t>> known);

/// A backprop op whose operands have `?` dims that its static result or
/// its other operands fix (the op's getKnownOperandShapes) becomes the same
/// op on operands cast to those sizes, so that the lowerings see static
/// sizes wherever the op has them.
template <typename OpTy> struct CastToKnownSizes : OpRewritePattern<OpTy> {
  CastToKnownSizes(MLIRContext *context)
      : OpRewritePattern<OpTy>(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> operands =
        castToKnownSizes(rewriter, op, op.getKnownOperandShapes());
    if (failed(operands))
      return rewriter.notifyMatchFailure(op, "no operand dim to make static");
    rewriter.replaceOpWithNewOp<OpTy>(op, op.getType(), *operands,
                                      op->getAttrs());
    return success();
  }
};

} // namespace mlir::trace

#endif // TRACEC_LIB_CONVERSION_TRACETOLINALG_WINDOWUTILS_H
