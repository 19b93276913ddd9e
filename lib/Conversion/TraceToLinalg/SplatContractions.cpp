//===- SplatContractions.cpp - A contraction with a splat operand is a sum ===//
//
// init + sum_k c * b[..k..] = init + c * (sum_k b[..k..]): a contraction one of
// whose operands holds one value c everywhere (a splat constant, or a fill:
// `tnp.ones((32, 256)) @ w`, an RNN's zero state, a ones cotangent) becomes the
// sum of the other operand over the contracted dims (in the sums' type: f32 for
// bf16 operands), scaled by c and broadcast over the splat operand's own dims.
// The sum reads the other operand once, where the contraction multiplied it
// once per row of the splat. Packed as it is, the splat's pack folds to a fill,
// which later fusion folds into the packed contraction: a generic loop with the
// reduction innermost, not the micro-kernel (70x slower than the same matmul
// with the matrix passed in).
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// The one value every element of `tensor` holds, materialized at
/// `builder`'s insertion point, or null.
Value splatValue(OpBuilder &builder, Location loc, Value tensor) {
  Attribute attr;
  if (matchPattern(tensor, m_Constant(&attr))) {
    auto splat = dyn_cast<SplatElementsAttr>(attr);
    if (!splat)
      return {};
    return arith::ConstantOp::create(
        builder, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
  }
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return fill.getInputs()[0];
  return {};
}

/// `map`, which uses only the loops `kept`, over those loops alone,
/// renumbered in their order.
AffineMap keepDims(AffineMap map, ArrayRef<unsigned> kept) {
  MLIRContext *context = map.getContext();
  SmallVector<AffineExpr> renumbered(map.getNumDims(),
                                     getAffineConstantExpr(0, context));
  for (auto [position, dim] : llvm::enumerate(kept))
    renumbered[dim] = getAffineDimExpr(position, context);
  return map.replaceDimsAndSymbols(renumbered, {}, kept.size(), 0);
}

/// `value` without an arith.extf (a half-precision operand summed in f32).
Value skipExtension(Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return value;
}

/// Whether `body` computes `acc + a * b` (in either order) from its block
/// arguments a, b, acc, in floats; a and b may be extended (arith.extf)
/// to acc's type first.
bool isMultiplyAdd(Block &body) {
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != 1)
    return false;
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  auto isMul = [](Value value) {
    return value.getDefiningOp<arith::MulFOp>() != nullptr;
  };
  if (!add || !(isMul(add.getLhs()) || isMul(add.getRhs())))
    return false;
  auto mul = (isMul(add.getLhs()) ? add.getLhs() : add.getRhs())
                 .getDefiningOp<arith::MulFOp>();
  BlockArgument a = body.getArgument(0), b = body.getArgument(1),
                acc = body.getArgument(2);
  auto isPair = [](Value x, Value y, Value p, Value q) {
    return (x == p && y == q) || (x == q && y == p);
  };
  // Nothing else in the body: the op, its extensions, the yield.
  size_t extensions = llvm::count_if(body.without_terminator(), [](auto &op) {
    return isa<arith::ExtFOp>(op);
  });
  return body.getOperations().size() == 3 + extensions &&
         isPair(skipExtension(mul.getLhs()), skipExtension(mul.getRhs()), a,
                b) &&
         isPair(add.getLhs(), add.getRhs(), mul.getResult(), acc);
}

struct SplatOperandToSum : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op) ||
        !isMultiplyAdd(*op.getBlock()))
      return rewriter.notifyMatchFailure(op, "not a float multiply-add "
                                             "contraction on tensors");
    // The sums' type; the operands may be narrower (bf16 summed in f32).
    Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());

    Location loc = op.getLoc();
    OpOperand *splatOperand = nullptr;
    Value c;
    for (OpOperand *input : op.getDpsInputOperands()) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(op);
      if ((c = splatValue(rewriter, loc, input->get()))) {
        splatOperand = input;
        break;
      }
    }
    if (!splatOperand)
      return rewriter.notifyMatchFailure(op, "no splat operand");
    if (c.getType() != element)
      c = arith::ExtFOp::create(rewriter, loc, element, c);
    OpOperand *other =
        op.getDpsInputOperand(splatOperand->getOperandNumber() == 0 ? 1 : 0);
    OpOperand *init = op.getDpsInitOperand(0);

    // Loops: the other operand's (its batch, free and contracted dims) for
    // the sum, the result's for the scaled broadcast; each in the order of
    // its tensor's dims, so both walk memory in order (a sum over k is then
    // an outer-axis sum, vectorized along the kept dims).
    AffineMap otherMap = op.getMatchingIndexingMap(other);
    AffineMap initMap = op.getMatchingIndexingMap(init);
    auto loopsOf = [](AffineMap map) {
      SmallVector<unsigned> loops;
      for (AffineExpr expr : map.getResults())
        loops.push_back(cast<AffineDimExpr>(expr).getPosition());
      return loops;
    };
    SmallVector<unsigned> sumLoops = loopsOf(otherMap);
    SmallVector<unsigned> resultLoops = loopsOf(initMap);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<utils::IteratorType> sumIterators;
    for (unsigned loop : sumLoops)
      sumIterators.push_back(iterators[loop]);
    // The partial sum's dims: the result's dims that the other operand
    // has, in the result's order.
    SmallVector<AffineExpr> partialExprs;
    for (AffineExpr expr : initMap.getResults())
      if (otherMap.isFunctionOfDim(cast<AffineDimExpr>(expr).getPosition()))
        partialExprs.push_back(expr);
    AffineMap partialMap = AffineMap::get(op.getNumLoops(), 0, partialExprs,
                                          rewriter.getContext());

    // The sum over the contracted dims, into zeros.
    SmallVector<OpFoldResult> initSizes =
        tensor::getMixedSizes(rewriter, loc, init->get());
    SmallVector<OpFoldResult> partialSizes;
    for (auto [position, expr] : llvm::enumerate(initMap.getResults()))
      if (llvm::is_contained(partialExprs, expr))
        partialSizes.push_back(initSizes[position]);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    Value empty = tensor::EmptyOp::create(rewriter, loc, partialSizes, element);
    Value zeros =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    Value partial =
        linalg::GenericOp::create(
            rewriter, loc, zeros.getType(), ValueRange{other->get()},
            ValueRange{zeros},
            ArrayRef<AffineMap>{keepDims(otherMap, sumLoops),
                                keepDims(partialMap, sumLoops)},
            sumIterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = args[0];
              if (x.getType() != element)
                x = arith::ExtFOp::create(b, l, element, x);
              linalg::YieldOp::create(
                  b, l, arith::AddFOp::create(b, l, args[1], x).getResult());
            })
            .getResult(0);

    // init + c * partial, broadcast over the splat operand's own dims.
    SmallVector<utils::IteratorType> parallel(resultLoops.size(),
                                              utils::IteratorType::parallel);
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, op->getResultTypes(), ValueRange{partial}, ValueRange{init->get()},
        ArrayRef<AffineMap>{keepDims(partialMap, resultLoops),
                            keepDims(initMap, resultLoops)},
        parallel, [&](OpBuilder &b, Location l, ValueRange args) {
          Value scaled = arith::MulFOp::create(b, l, c, args[0]);
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[1], scaled).getResult());
        });
    return success();
  }
};

} // namespace

void mlir::trace::populateSplatContractionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SplatOperandToSum>(patterns.getContext());
}
