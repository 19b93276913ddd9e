//===- IndexingToLinalg.cpp - gather, scatter_add, one_hot -> linalg ------===//
//
// gather and one_hot are one linalg.generic each: gather reads `params`
// with tensor.extract at the clamped index, one_hot compares linalg.index of
// its new dim with the index. scatter_add, which writes at data-dependent
// places, is an scf.for nest over the indices whose body adds one row (a
// linalg.generic over the trailing dims) in place: O(indices x row) work,
// race-free.
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
// gather, one_hot
//===----------------------------------------------------------------------===//

/// A `?` axis must hold an element wherever there is an index to clamp
/// into it: a run-time check that `axisSize` is at least 1 where the
/// indices (of sizes `indexSizes`) are not empty. `axisName` names the axis
/// in the message.
void checkAxisHoldsIndices(PatternRewriter &rewriter, Location loc,
                           Operation *op, OpFoldResult axisSize,
                           ArrayRef<OpFoldResult> indexSizes,
                           const Twine &axisName) {
  if (getConstantIntValue(axisSize))
    return;
  OpFoldResult count = rewriter.getIndexAttr(1);
  for (OpFoldResult size : indexSizes)
    count = mulSizes(rewriter, loc, count, size);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value any = arith::MinSIOp::create(
      rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, count), one);
  checkAtLeast(rewriter, loc, op, axisSize, any,
               axisName + " is empty but there are indices");
}

struct GatherToLinalg : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto params = cast<RankedTensorType>(op.getParams().getType());
    auto indices = cast<RankedTensorType>(op.getIndices().getType());
    RankedTensorType type = op.getType();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), params.getRank());
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    if (params.getDimSize(*axis) == 0 && type.hasStaticShape() &&
        type.getNumElements() != 0)
      return rewriter.notifyMatchFailure(
          op, "gathers from an empty axis: no index can be clamped into it");

    // The result's sizes: params' around the axis, the indices' in it.
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return failure();
    SmallVector<OpFoldResult> paramSizes =
        tensor::getMixedSizes(rewriter, loc, op.getParams());
    SmallVector<OpFoldResult> indexSizes =
        tensor::getMixedSizes(rewriter, loc, op.getIndices());
    OpFoldResult axisSize = paramSizes[*axis];
    checkAxisHoldsIndices(rewriter, loc, op, axisSize, indexSizes,
                          "params dim " + Twine(*axis) + " (the gather axis)");
    // The last index along the axis: a constant in the body where static.
    std::optional<int64_t> staticAxisSize = getConstantIntValue(axisSize);
    Value dynamicLast;
    if (!staticAxisSize)
      dynamicLast = getValueOrCreateConstantIndexOp(
          rewriter, loc,
          subSizes(rewriter, loc, axisSize, rewriter.getIndexAttr(1)));

    // Iteration space: the result's dims, i.e. params.shape[:axis],
    // indices.shape, params.shape[axis+1:]. The indices are read at the
    // middle group.
    int64_t rank = type.getRank();
    int64_t indicesRank = indices.getRank();
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indicesRank; ++d)
      indexExprs.push_back(getAffineDimExpr(*axis + d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, indexExprs, context),
        rewriter.getMultiDimIdentityMap(rank)};
    Value init =
        emptyLike(rewriter, loc, type, dynamicOf(rewriter, loc, type, *sizes));
    Value source = op.getParams();
    int64_t paramsRank = params.getRank();
    int64_t gatherAxis = *axis;

    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{op.getIndices()},
            ValueRange{init}, maps, parallel(rank),
            [&](OpBuilder &b, Location l, ValueRange args) {
              // Out-of-range indices are clamped to [0, dim - 1].
              Value index = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                       args[0]);
              Value zero = arith::ConstantIndexOp::create(b, l, 0);
              Value last = staticAxisSize ? arith::ConstantIndexOp::create(
                                                b, l, *staticAxisSize - 1)
                                                .getResult()
                                          : dynamicLast;
              index = arith::MaxSIOp::create(b, l, index, zero);
              index = arith::MinSIOp::create(b, l, index, last);
              SmallVector<Value> position;
              for (int64_t d = 0; d < paramsRank; ++d) {
                if (d < gatherAxis)
                  position.push_back(linalg::IndexOp::create(b, l, d));
                else if (d == gatherAxis)
                  position.push_back(index);
                else
                  position.push_back(
                      linalg::IndexOp::create(b, l, d - 1 + indicesRank));
              }
              Value element = tensor::ExtractOp::create(b, l, source, position);
              linalg::YieldOp::create(b, l, element);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// scatter_add: an scf.for nest over operand dims before the axis and the
/// indices' dims carrying the result (initially the operand); each
/// iteration reads its index, clamps it to [0, N - 1] as gather does, and
/// adds the updates' row (the trailing dims) to the result's row at that
/// index with extract_slice / linalg.generic / insert_slice, which
/// bufferize in place. Without trailing dims the row is one element
/// (tensor.extract / tensor.insert).
struct ScatterAddToLinalg : OpRewritePattern<ScatterAddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterAddOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto operand = cast<RankedTensorType>(op.getOperand().getType());
    auto indices = cast<RankedTensorType>(op.getIndices().getType());
    auto updates = cast<RankedTensorType>(op.getUpdates().getType());
    std::optional<int64_t> maybeAxis =
        normalizeAxis(op.getAxis(), operand.getRank());
    if (!maybeAxis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    int64_t axis = *maybeAxis;
    if (operand.getDimSize(axis) == 0 && updates.hasStaticShape() &&
        updates.getNumElements() != 0)
      return rewriter.notifyMatchFailure(
          op, "scatters into an empty axis: no index can be clamped into it");
    int64_t rank = operand.getRank();
    int64_t indicesRank = indices.getRank();
    int64_t outer = axis + indicesRank; // The loops.
    Type element = operand.getElementType();

    SmallVector<OpFoldResult> operandSizes =
        tensor::getMixedSizes(rewriter, loc, op.getOperand());
    SmallVector<OpFoldResult> indexSizes =
        tensor::getMixedSizes(rewriter, loc, op.getIndices());
    // updates: operand[:axis] + indices + operand[axis+1:], checked at run
    // time where a side is `?`.
    SmallVector<OpFoldResult> expected =
        gatheredShape<OpFoldResult>(operandSizes, indexSizes, axis);
    for (int64_t d = 0; d < updates.getRank(); ++d) {
      if (!updates.isDynamicDim(d) && getConstantIntValue(expected[d]))
        continue;
      checkSameSize(rewriter, loc, op, dimSize(rewriter, loc, op.getUpdates(), d),
                    getValueOrCreateConstantIndexOp(rewriter, loc, expected[d]),
                    "updates dim " + Twine(d) +
                        " differs from gather's result shape for the operand "
                        "and indices");
    }
    OpFoldResult axisSize = operandSizes[axis];
    checkAxisHoldsIndices(rewriter, loc, op, axisSize, indexSizes,
                          "operand dim " + Twine(axis) + " (the scatter axis)");
    Value last = getValueOrCreateConstantIndexOp(
        rewriter, loc, subSizes(rewriter, loc, axisSize, rewriter.getIndexAttr(1)));

    SmallVector<Value> lbs, ubs, steps;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t d = 0; d < outer; ++d) {
      lbs.push_back(zero);
      steps.push_back(one);
      ubs.push_back(getValueOrCreateConstantIndexOp(
          rewriter, loc, d < axis ? operandSizes[d] : indexSizes[d - axis]));
    }
    // The rows: operand dims after the axis (the row type is the
    // operand's; updates' rows are cast to it).
    ArrayRef<OpFoldResult> rowSizes = ArrayRef(operandSizes).drop_front(axis + 1);
    auto rowType =
        RankedTensorType::get(operand.getShape().drop_front(axis + 1), element);
    auto updateRowType = RankedTensorType::get(
        updates.getShape().drop_front(outer), element);
    SmallVector<OpFoldResult> updateRowSizes(
        ArrayRef(tensor::getMixedSizes(rewriter, loc, op.getUpdates()))
            .drop_front(outer));
    Value source = op.getUpdates();
    Value indexTensor = op.getIndices();
    bool isFloat = isa<FloatType>(element);

    // A splat operand (the zeros of gather's gradient) starts as a
    // linalg.fill the loop updates in place, rather than a constant global
    // that bufferization would have to copy.
    Value init = op.getOperand();
    DenseElementsAttr dense;
    if (operand.hasStaticShape() && matchPattern(init, m_Constant(&dense)) &&
        dense.isSplat())
      init = filledTensor(rewriter, loc, operand.getShape(),
                          dense.getSplatValue<TypedAttr>());

    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{init},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iterArgs) -> scf::ValueVector {
          Value acc = iterArgs[0];
          Value index = tensor::ExtractOp::create(b, l, indexTensor,
                                                  ivs.drop_front(axis));
          index = arith::IndexCastOp::create(b, l, b.getIndexType(), index);
          index = arith::MaxSIOp::create(
              b, l, index, arith::ConstantIndexOp::create(b, l, 0));
          index = arith::MinSIOp::create(b, l, index, last);
          SmallVector<Value> at(ivs.take_front(axis));
          at.push_back(index);
          // (i1: or, the sum saturated as a boolean.)
          auto add = [&](OpBuilder &ob, Location ol, Value lhs,
                         Value rhs) -> Value {
            if (isFloat)
              return arith::AddFOp::create(ob, ol, lhs, rhs);
            if (element.isInteger(1))
              return arith::OrIOp::create(ob, ol, lhs, rhs);
            return arith::AddIOp::create(ob, ol, lhs, rhs);
          };
          if (rowSizes.empty()) {
            Value current = tensor::ExtractOp::create(b, l, acc, at);
            Value update = tensor::ExtractOp::create(b, l, source, ivs);
            return {tensor::InsertOp::create(b, l, add(b, l, current, update),
                                             acc, at)};
          }
          SmallVector<OpFoldResult> offsets(getAsOpFoldResult(at));
          offsets.append(rowSizes.size(), b.getIndexAttr(0));
          SmallVector<OpFoldResult> sizes(axis + 1, b.getIndexAttr(1));
          llvm::append_range(sizes, rowSizes);
          SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
          Value row = tensor::ExtractSliceOp::create(b, l, rowType, acc,
                                                     offsets, sizes, strides);
          SmallVector<OpFoldResult> updateOffsets(getAsOpFoldResult(ivs));
          updateOffsets.append(rowSizes.size(), b.getIndexAttr(0));
          SmallVector<OpFoldResult> updateSizes(outer, b.getIndexAttr(1));
          llvm::append_range(updateSizes, updateRowSizes);
          SmallVector<OpFoldResult> updateStrides(updates.getRank(),
                                                  b.getIndexAttr(1));
          Value update = tensor::ExtractSliceOp::create(
              b, l, updateRowType, source, updateOffsets, updateSizes,
              updateStrides);
          update = castTo(b, l, update, rowType);
          int64_t rowRank = rowType.getRank();
          SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rowRank));
          Value sum =
              linalg::GenericOp::create(
                  b, l, TypeRange{rowType}, ValueRange{update}, ValueRange{row},
                  maps, parallel(rowRank),
                  [&](OpBuilder &nb, Location nl, ValueRange args) {
                    linalg::YieldOp::create(nb, nl,
                                            add(nb, nl, args[1], args[0]));
                  })
                  .getResult(0);
          return {tensor::InsertSliceOp::create(b, l, sum, acc, offsets, sizes,
                                                strides)};
        });
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};

struct OneHotToLinalg : OpRewritePattern<OneHotOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(OneHotOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    if (type.isDynamicDim(*axis))
      return rewriter.notifyMatchFailure(op, "the depth is dynamic");
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return failure();
    SmallVector<Value> dynamic = dynamicOf(rewriter, loc, type, *sizes);

    // The indices are read at every result dim but the new one.
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis)
        indexExprs.push_back(getAffineDimExpr(d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, indexExprs, context),
        rewriter.getMultiDimIdentityMap(rank)};
    Type element = type.getElementType();
    Value on = arith::ConstantOp::create(
        rewriter, loc, scalarAttr(rewriter, element, op.getOnValue()));
    Value off = arith::ConstantOp::create(
        rewriter, loc, scalarAttr(rewriter, element, op.getOffValue()));
    Value init = emptyLike(rewriter, loc, type, dynamic);
    int64_t hotDim = *axis;

    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{op.getIndices()},
            ValueRange{init}, maps, parallel(rank),
            [&](OpBuilder &b, Location l, ValueRange args) {
              // The index, sign-extended, is compared with the position
              // along the new dim: an out-of-range one (negative or >= depth)
              // matches none, giving all off_value.
              Value position = linalg::IndexOp::create(b, l, hotDim);
              Value index = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                       args[0]);
              Value hot = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                position, index);
              Value element = arith::SelectOp::create(b, l, hot, on, off);
              linalg::YieldOp::create(b, l, element);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::trace::populateIndexingToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GatherToLinalg, ScatterAddToLinalg, OneHotToLinalg>(
      patterns.getContext());
}
