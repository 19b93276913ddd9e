//===- SourcesToLinalg.cpp - constant, fill, iota, identity -> linalg -----===//
//
// constant becomes arith.constant; fill becomes linalg.fill of the scalar
// read out of its rank-0 operand; iota becomes a linalg.generic that writes
// linalg.index of its axis (both into a tensor.empty of `like`'s run-time
// sizes where they have `like`); identity without control tokens is its operand.
// The stateful sources (random_*) and identity with `after` tokens are left
// for the state lowering.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "DynamicSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Splats of more elements than this become fills: as a constant, a splat
/// is materialized element by element in the binary's data (compiling
/// tnp.ones((8192, 8192)) took 9 s, and the (2^31, 2^31) grew to
/// 8 GB in 15 s).
constexpr int64_t kMaxSplatConstantElements = 1024;

struct ConstantToArith : OpRewritePattern<ConstantOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConstantOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (splat && type && type.hasStaticShape() &&
        type.getNumElements() > kMaxSplatConstantElements) {
      Location loc = op.getLoc();
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, splat.getSplatValue<TypedAttr>());
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar, empty);
      return success();
    }
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value || !arith::ConstantOp::isBuildableWith(value, op.getType()))
      return rewriter.notifyMatchFailure(
          op, "the value is not an attribute arith.constant accepts");
    rewriter.replaceOp(op, arith::ConstantOp::create(rewriter, op.getLoc(),
                                                     value));
    return success();
  }
};

/// The destination of a source op, of the op's sizes (its static shape, or
/// `like`'s, read at run time where `?`).
FailureOr<Value> emptyResult(OpBuilder &b, Operation *op) {
  FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(b, op);
  if (failed(sizes))
    return failure();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  return tensor::EmptyOp::create(b, op->getLoc(), *sizes, type.getElementType())
      .getResult();
}

struct FillToLinalg : OpRewritePattern<FillOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FillOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().hasStaticShape() && !op.getLike())
      return rewriter.notifyMatchFailure(op, "? dims without 'like'");
    Location loc = op.getLoc();
    // The operand is rank 0 (verified): its one element has no indices.
    Value scalar = tensor::ExtractOp::create(rewriter, loc, op.getValue(),
                                             ValueRange{});
    FailureOr<Value> empty = emptyResult(rewriter, op);
    if (failed(empty))
      return failure();
    rewriter.replaceOp(
        op, linalg::FillOp::create(rewriter, loc, scalar, *empty).getResult(0));
    return success();
  }
};

/// `index` (non-negative) as a scalar of `element`, an integer or float type.
Value castIndex(OpBuilder &b, Location loc, Value index, Type element) {
  if (isa<IntegerType>(element))
    return arith::IndexCastOp::create(b, loc, element, index);
  Value wide = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return arith::SIToFPOp::create(b, loc, element, wide);
}

struct IotaToLinalg : OpRewritePattern<IotaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IotaOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), type.getRank());
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis is out of range");
    if (!type.hasStaticShape() && !op.getLike())
      return rewriter.notifyMatchFailure(op, "? dims without 'like'");
    FailureOr<Value> init = emptyResult(rewriter, op);
    if (failed(init))
      return failure();
    Location loc = op.getLoc();
    Type element = type.getElementType();
    SmallVector<AffineMap> maps = {
        rewriter.getMultiDimIdentityMap(type.getRank())};
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{*init},
            maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange) {
              Value index = linalg::IndexOp::create(b, l, *axis);
              linalg::YieldOp::create(b, l, castIndex(b, l, index, element));
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct IdentityToOperand : OpRewritePattern<IdentityOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IdentityOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getAfter().empty())
      return rewriter.notifyMatchFailure(
          op, "control tokens are lowered with the stateful ops");
    rewriter.replaceOp(op, op.getX());
    return success();
  }
};

} // namespace

void mlir::trace::populateSourcesToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantToArith, FillToLinalg, IotaToLinalg, IdentityToOperand>(
      patterns.getContext());
}
