//===- ConcatSliceToTensor.cpp - concat, slice, pad, split -> tensor ------===//
//
// Concatenation by tensor.insert_slice, slices and pads by
// tensor.extract_slice / tensor.pad, split into slices.
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
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

//===----------------------------------------------------------------------===//
// concat, slice, pad
//===----------------------------------------------------------------------===//

struct ConcatToTensor : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");

    // The result's sizes (concat's shape rule: the inputs' sum along the
    // axis; elsewhere a static input size where there is one, else the
    // first input's). The inputs' other `?`s are checked against the input
    // that gave the size, at run time.
    FailureOr<SmallVector<OpFoldResult>> reified = reifiedSizes(rewriter, op);
    if (failed(reified))
      return rewriter.notifyMatchFailure(op, "no run-time result sizes");
    SmallVector<OpFoldResult> sizes = *reified;
    SmallVector<int64_t> from(rank, 0);
    for (int64_t d = 0; d < rank; ++d)
      for (auto [i, input] : llvm::enumerate(op.getInputs()))
        if (!cast<RankedTensorType>(input.getType()).isDynamicDim(d)) {
          from[d] = i;
          break;
        }
    for (auto [i, input] : llvm::enumerate(op.getInputs()))
      for (int64_t d = 0; d < rank; ++d)
        if (d != *axis && static_cast<int64_t>(i) != from[d] &&
            cast<RankedTensorType>(input.getType()).isDynamicDim(d))
          checkSameSize(
              rewriter, loc, op,
              getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]),
              dimSize(rewriter, loc, input, d),
              "dim " + Twine(d) + " of input " + Twine(from[d]) +
                  " and of input " + Twine(i) + " differ");

    // Each input goes into its own window of the result, one after another
    // along the axis.
    Value result =
        emptyLike(rewriter, loc, type, dynamicOf(rewriter, loc, type, sizes));
    OpFoldResult position = rewriter.getIndexAttr(0);
    for (Value input : op.getInputs()) {
      SmallVector<OpFoldResult> inputSizes =
          tensor::getMixedSizes(rewriter, loc, input);
      if (getConstantIntValue(inputSizes[*axis]) == 0)
        continue;
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*axis] = position;
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, inputSizes, strides);
      position = addSizes(rewriter, loc, position, inputSizes[*axis]);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SliceToTensor : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    MLIRContext *context = rewriter.getContext();
    SmallVector<int64_t> strides(type.getRank(), 1);
    if (std::optional<ArrayRef<int64_t>> given = op.getStrides())
      strides.assign(given->begin(), given->end());
    // The sizes: the static result's, or `like`'s (`?` read at run time).
    SmallVector<OpFoldResult> sizes =
        op.getLike() ? tensor::getMixedSizes(rewriter, loc, op.getLike())
                     : getAsIndexOpFoldResult(context, type.getShape());
    // A `?` operand dim must reach start + size (the verifier checked the
    // static ones).
    for (auto [d, start] : llvm::enumerate(op.getStart())) {
      OpFoldResult size = tensor::getMixedSize(rewriter, loc, op.getX(), d);
      if (std::optional<ArrayRef<int64_t>> limit = op.getLimit()) {
        checkAtLeast(rewriter, loc, op, size, rewriter.getIndexAttr((*limit)[d]),
                     "dim " + Twine(d) +
                         " of the operand is smaller than the slice's limit " +
                         Twine((*limit)[d]));
        continue;
      }
      checkAtLeast(
          rewriter, loc, op, size,
          addSizes(rewriter, loc, rewriter.getIndexAttr(start), sizes[d]),
          "dim " + Twine(d) +
              " of the operand is smaller than start + the size of 'like'");
    }
    rewriter.replaceOp(op, tensor::ExtractSliceOp::create(
                               rewriter, loc, type, op.getX(),
                               getAsIndexOpFoldResult(context, op.getStart()),
                               sizes, getAsIndexOpFoldResult(context, strides)));
    return success();
  }
};

struct PadToTensor : OpRewritePattern<PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PadOp op,
                                PatternRewriter &rewriter) const override {
    // A `?` dim stays `?` in the result; tensor.pad sizes it.
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value padValue = arith::ConstantOp::create(
        rewriter, loc,
        scalarAttr(rewriter, type.getElementType(), op.getValue()));
    MLIRContext *context = rewriter.getContext();
    SmallVector<OpFoldResult> high;
    if (std::optional<ArrayRef<int64_t>> given = op.getHigh()) {
      high = getAsIndexOpFoldResult(context, *given);
    } else {
      // Up to `like`'s sizes: high = like - low - x, at least 0.
      for (auto [d, low] : llvm::enumerate(op.getLow())) {
        OpFoldResult filled = addSizes(
            rewriter, loc, rewriter.getIndexAttr(low),
            tensor::getMixedSize(rewriter, loc, op.getX(), d));
        OpFoldResult target =
            tensor::getMixedSize(rewriter, loc, op.getLike(), d);
        checkAtLeast(rewriter, loc, op, target, filled,
                     "dim " + Twine(d) +
                         " of 'like' is smaller than low + the operand's");
        high.push_back(subSizes(rewriter, loc, target, filled));
      }
    }
    Value padded = tensor::PadOp::create(
        rewriter, loc, RankedTensorType(), op.getX(),
        getAsIndexOpFoldResult(context, op.getLow()), high, padValue);
    rewriter.replaceOp(op, castTo(rewriter, loc, padded, type));
    return success();
  }
};

/// split: consecutive windows of the operand along the axis, each sized
/// like its `like` operand; the pieces must cover the operand and have its
/// other sizes (checked at run time where a size is `?`).
struct SplitToTensor : OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SplitOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getX().getType());
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    SmallVector<OpFoldResult> whole =
        tensor::getMixedSizes(rewriter, loc, op.getX());
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    OpFoldResult position = rewriter.getIndexAttr(0);
    SmallVector<Value> pieces;
    for (auto [k, like] : llvm::enumerate(op.getLike())) {
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, like);
      for (int64_t d = 0; d < rank; ++d)
        if (d != *axis)
          checkSameSize(rewriter, loc, op,
                        getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]),
                        getValueOrCreateConstantIndexOp(rewriter, loc, whole[d]),
                        "dim " + Twine(d) + " of 'like' operand " + Twine(k) +
                            " differs from the operand's");
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*axis] = position;
      pieces.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, cast<RankedTensorType>(op.getResult(k).getType()),
          op.getX(), offsets, sizes, strides));
      position = addSizes(rewriter, loc, position, sizes[*axis]);
    }
    checkSameSize(rewriter, loc, op,
                  getValueOrCreateConstantIndexOp(rewriter, loc, position),
                  getValueOrCreateConstantIndexOp(rewriter, loc, whole[*axis]),
                  "the pieces do not cover dim " + Twine(*axis) +
                      " of the operand");
    rewriter.replaceOp(op, pieces);
    return success();
  }
};

} // namespace

void mlir::trace::populateConcatSliceToTensorPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConcatToTensor, SliceToTensor, PadToTensor, SplitToTensor>(
      patterns.getContext());
}
