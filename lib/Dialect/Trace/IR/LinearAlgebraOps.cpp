//===- LinearAlgebraOps.cpp - matmul --------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trace;

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto lhs = dyn_cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = dyn_cast<RankedTensorType>(adaptor.getRhs().getType());
  if (!lhs || !rhs)
    return emitOptionalError(loc, "'trace.matmul' op operands must be ranked tensors");
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "'trace.matmul' op operands must be at least 2-D: lhs ",
                             formatShape(lhs.getShape()), ", rhs ",
                             formatShape(rhs.getShape()));
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "'trace.matmul' op operand element types differ: lhs ",
                             lhs.getElementType(), " vs rhs ",
                             rhs.getElementType());
  ArrayRef<int64_t> l = lhs.getShape(), r = rhs.getShape();
  int64_t lr = l.size(), rr = r.size();
  bool ta = adaptor.getTransposeA(), tb = adaptor.getTransposeB();
  int64_t m = ta ? l[lr - 1] : l[lr - 2];
  int64_t kl = ta ? l[lr - 2] : l[lr - 1];
  int64_t kr = tb ? r[rr - 1] : r[rr - 2];
  int64_t n = tb ? r[rr - 2] : r[rr - 1];
  if (!ShapedType::isDynamic(kl) && !ShapedType::isDynamic(kr) && kl != kr)
    return emitOptionalError(loc, "'trace.matmul' op contraction dims differ: lhs ", kl,
                             " vs rhs ", kr);
  auto batch = broadcastShapes(l.drop_back(2), r.drop_back(2));
  if (!batch)
    return emitOptionalError(
        loc, "'trace.matmul' op batch dims are not broadcast-compatible: lhs ",
        formatShape(l.drop_back(2)), " vs rhs ", formatShape(r.drop_back(2)),
        " (",
        describeBroadcastMismatch(l.drop_back(2), "lhs", r.drop_back(2), "rhs"),
        "; only a static 1 broadcasts)");
  SmallVector<int64_t> shape = *batch;
  shape.push_back(m);
  shape.push_back(n);
  types.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

LogicalResult MatmulOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  RankedTensorType type = getType();
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  // The batch dims broadcast; then M from lhs and N from rhs.
  SmallVector<OpFoldResult> sizes = reifyBroadcastSizes(
      b, loc, {getLhs(), getRhs()}, type, /*trailing=*/2);
  sizes.push_back(tensor::getMixedSize(b, loc, getLhs(),
                                       lhs.getRank() - (getTransposeA() ? 1 : 2)));
  sizes.push_back(tensor::getMixedSize(b, loc, getRhs(),
                                       rhs.getRank() - (getTransposeB() ? 2 : 1)));
  return reifiedAs(b, getResult(), sizes, shapes);
}

namespace {

/// An operand with the static `shape`, reshaped from `value` (only where
/// the elements keep their order).
Value reshapedTo(PatternRewriter &rewriter, Location loc, Value value,
                 ArrayRef<int64_t> shape) {
  if (cast<RankedTensorType>(value.getType()).getShape() == shape)
    return value;
  return ReshapeOp::create(rewriter, loc, value, shape);
}

/// A product over a contraction dim of size 1 is an outer product: one
/// broadcasting multiply that writes each result once, where a contraction
/// would zero its accumulator first and relayout both operands (the weight
/// gradients of a batch of 1 and of per-example gradients under vmap).
struct MatmulOfUnitContraction : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto lhs = cast<RankedTensorType>(op.getLhs().getType());
    auto rhs = cast<RankedTensorType>(op.getRhs().getType());
    // (Half-precision products accumulate in f32, rounded once: keep them.)
    Type element = op.getType().getElementType();
    if (!lhs.hasStaticShape() || !rhs.hasStaticShape() ||
        !(element.isF32() || element.isF64() || isa<IntegerType>(element)))
      return failure();
    int64_t k = lhs.getDimSize(lhs.getRank() - (op.getTransposeA() ? 2 : 1));
    if (k != 1)
      return failure();
    // lhs as columns [..., M, 1], rhs as rows [..., 1, N]: with one of the
    // two dims a 1, transposing keeps the elements' order.
    SmallVector<int64_t> column(lhs.getShape().drop_back(2));
    column.append({op.getTransposeA() ? lhs.getShape().back()
                                      : lhs.getDimSize(lhs.getRank() - 2),
                   1});
    SmallVector<int64_t> row(rhs.getShape().drop_back(2));
    row.append({1, op.getTransposeB() ? rhs.getDimSize(rhs.getRank() - 2)
                                      : rhs.getShape().back()});
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<MulOp>(
        op, op.getType(), reshapedTo(rewriter, loc, op.getLhs(), column),
        reshapedTo(rewriter, loc, op.getRhs(), row));
    return success();
  }
};

/// A batch of matrices times one matrix is one matrix product with the
/// batch folded into the rows: [B..., M, K] x [K, N] as [B...*M, K] x
/// [K, N], the shape the packed kernels take (vmap of a layer gives it,
/// with M = 1).
struct MatmulOfBatchByMatrix : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto lhs = cast<RankedTensorType>(op.getLhs().getType());
    auto rhs = cast<RankedTensorType>(op.getRhs().getType());
    if (op.getTransposeA() || lhs.getRank() < 3 || rhs.getRank() != 2 ||
        !lhs.hasStaticShape() || !op.getType().hasStaticShape())
      return failure();
    int64_t rows = 1;
    for (int64_t dim : lhs.getShape().drop_back())
      rows *= dim;
    Location loc = op.getLoc();
    Value flat = ReshapeOp::create(rewriter, loc, op.getLhs(),
                                   {rows, lhs.getShape().back()});
    auto product = MatmulOp::create(rewriter, loc, flat, op.getRhs(),
                                    /*transpose_a=*/false,
                                    op.getTransposeB());
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), product,
                                           /*like=*/Value());
    return success();
  }
};

} // namespace

void MatmulOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<MatmulOfUnitContraction, MatmulOfBatchByMatrix>(context);
}
