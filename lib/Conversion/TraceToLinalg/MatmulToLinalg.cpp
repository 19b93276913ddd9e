//===- MatmulToLinalg.cpp - trace.matmul -> linalg ------------------------===//
//
// The plain cases map to the named ops that later tiling, packing and
// vectorization know best (linalg.matmul, linalg.batch_matmul); transposed
// operands and broadcast batch dims become one linalg.generic whose
// indexing maps read the operands in place.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "DynamicSizes.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Operand map over the iteration space (batch..., m, n, k): its own batch
/// dims (right-aligned, size-1 dims broadcast) and its two matrix dims.
AffineMap operandMap(RankedTensorType operand, RankedTensorType result,
                     unsigned rowDim, unsigned colDim, MLIRContext *context) {
  int64_t batchRank = result.getRank() - 2;
  int64_t operandBatch = operand.getRank() - 2;
  int64_t offset = batchRank - operandBatch;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < operandBatch; ++d) {
    bool broadcast =
        operand.getDimSize(d) == 1 && result.getDimSize(d + offset) != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(d + offset, context));
  }
  exprs.push_back(getAffineDimExpr(rowDim, context));
  exprs.push_back(getAffineDimExpr(colDim, context));
  return AffineMap::get(batchRank + 3, 0, exprs, context);
}

struct MatmulToLinalg : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto lhs = cast<RankedTensorType>(op.getLhs().getType());
    auto rhs = cast<RankedTensorType>(op.getRhs().getType());
    RankedTensorType result = op.getType();
    // Iteration space (batch..., m, n, k).
    MLIRContext *context = rewriter.getContext();
    unsigned batchRank = result.getRank() - 2;
    unsigned m = batchRank, n = batchRank + 1, k = batchRank + 2;
    AffineMap lhsMap = op.getTransposeA()
                           ? operandMap(lhs, result, k, m, context)
                           : operandMap(lhs, result, m, k, context);
    AffineMap rhsMap = op.getTransposeB()
                           ? operandMap(rhs, result, n, k, context)
                           : operandMap(rhs, result, k, n, context);

    // Sizes from the operands; with dynamic dims, the contraction dims (and
    // batch dims) that must agree are checked at run time.
    FailureOr<SmallVector<OpFoldResult>> sizes = reifiedSizes(rewriter, op);
    if (failed(sizes))
      return failure();
    if (failed(checkLoopSizes(rewriter, loc, op,
                              ValueRange{op.getLhs(), op.getRhs()},
                              {lhsMap, rhsMap}, batchRank + 3)))
      return rewriter.notifyMatchFailure(op, "a loop of no operand");
    SmallVector<Value> dynamic = dynamicOf(rewriter, loc, result, *sizes);

    // Half-precision products accumulate in f32, rounded once at the end.
    Type element = result.getElementType();
    Type accElement = accumulatorType(element);
    RankedTensorType accType = result.clone(accElement);
    Value init = filledTensor(rewriter, loc, result.getShape(), dynamic,
                              rewriter.getZeroAttr(accElement));
    auto finish = [&](Value sum) {
      rewriter.replaceOp(op, accElement == element
                                 ? sum
                                 : roundTo(rewriter, loc, sum, element));
      return success();
    };
    bool transposed = op.getTransposeA() || op.getTransposeB();
    if (!transposed && lhs.getRank() == 2 && rhs.getRank() == 2)
      return finish(linalg::MatmulOp::create(
                        rewriter, loc, TypeRange{accType},
                        ValueRange{op.getLhs(), op.getRhs()}, ValueRange{init})
                        .getResult(0));
    // (Equal batch dims: both static, or checked above.)
    if (!transposed && lhs.getRank() == 3 && rhs.getRank() == 3 &&
        lhs.getDimSize(0) == rhs.getDimSize(0))
      return finish(linalg::BatchMatmulOp::create(
                        rewriter, loc, TypeRange{accType},
                        ValueRange{op.getLhs(), op.getRhs()}, ValueRange{init})
                        .getResult(0));

    SmallVector<AffineExpr> outExprs;
    for (unsigned d = 0; d < batchRank + 2; ++d)
      outExprs.push_back(getAffineDimExpr(d, context));
    AffineMap outMap = AffineMap::get(batchRank + 3, 0, outExprs, context);

    SmallVector<utils::IteratorType> iterators(batchRank + 2,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    bool isFloat = isa<FloatType>(element);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{accType}, ValueRange{op.getLhs(), op.getRhs()},
        ValueRange{init}, ArrayRef<AffineMap>{lhsMap, rhsMap, outMap},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value product, sum;
          if (isFloat) {
            Value x = args[0], y = args[1];
            if (accElement != element) {
              x = arith::ExtFOp::create(b, l, accElement, x);
              y = arith::ExtFOp::create(b, l, accElement, y);
            }
            product = arith::MulFOp::create(b, l, x, y);
            sum = arith::AddFOp::create(b, l, args[2], product);
          } else {
            product = arith::MulIOp::create(b, l, args[0], args[1]);
            sum = arith::AddIOp::create(b, l, args[2], product);
          }
          linalg::YieldOp::create(b, l, sum);
        });
    return finish(generic.getResult(0));

  }
};

} // namespace

void mlir::trace::populateMatmulToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg>(patterns.getContext());
}
