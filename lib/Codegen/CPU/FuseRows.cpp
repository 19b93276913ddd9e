//===- FuseRows.cpp - Row-at-a-time chains through reductions -------------===//
//
// softmax is max, exp, sum and divide; layer norm a mean, a variance and
// a normalization: each a pass over the whole tensor, with the whole
// intermediate tensors in memory. Tiled to one row (all loops but the
// innermost, by 1) with every producer fused into the row loop, the chain
// reads its input from memory once and writes its result once; the passes
// over a row run back to back while it is in L1.
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Linalg/Contractions.h"
#include "tracec/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECPUFUSEROWS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

/// A reduction whose reduced loops are its innermost ones: its rows are
/// independent.
bool reducesRows(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto firstReduction = llvm::find(iterators, utils::IteratorType::reduction);
  return firstReduction != iterators.end() &&
         firstReduction != iterators.begin() &&
         std::all_of(firstReduction, iterators.end(), [](auto type) {
           return type == utils::IteratorType::reduction;
         });
}

/// Whether `op` reads an operand through a window (`ih + kh`, a flipped
/// `2 - kh`): a loop-nest convolution gradient. Row tiling does not fuse
/// such reads (upstream slices them wrongly), so chains stop there.
bool readsThroughWindows(linalg::LinalgOp op) {
  return !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return map.isProjectedPermutation(/*allowZeroInResults=*/true);
  });
}

/// Whether a row reduction feeds `root` through linalg ops on tensors.
bool hasRowReductionProducer(linalg::LinalgOp root) {
  SmallVector<Operation *> worklist = {root};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    for (Value operand : op->getOperands()) {
      auto producer = operand.getDefiningOp<linalg::LinalgOp>();
      if (!producer || trace::isContractionOrConvolution(producer) ||
          readsThroughWindows(producer))
        continue;
      if (reducesRows(producer))
        return true;
      worklist.push_back(producer);
    }
  }
  return false;
}

/// Whether `op` loops over an empty dim: it does no work, and tiling it
/// (upstream's computeTileSizes) does not expect a size of 0.
bool hasEmptyLoop(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

/// The last op of a chain: a static, all-parallel op with two loops or
/// more whose result no other linalg op reads, fed by a row reduction.
bool isRowRoot(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      hasEmptyLoop(op) || op.getNumLoops() < 2 ||
      op.getNumReductionLoops() != 0 || trace::isContractionOrConvolution(op))
    return false;
  for (Operation *user : op->getUsers())
    if (isa<linalg::LinalgOp>(user))
      return false;
  return hasRowReductionProducer(op);
}

/// linalg.reduce as linalg.generic, so elementwise producers fuse into it.
void generalizeReductions(func::FuncOp func) {
  SmallVector<linalg::ReduceOp> reductions;
  func.walk([&](linalg::ReduceOp op) { reductions.push_back(op); });
  IRRewriter rewriter(func.getContext());
  for (linalg::ReduceOp op : reductions) {
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
}

struct CpuFuseRowsPass
    : mlir::trace::impl::TraceCpuFuseRowsBase<CpuFuseRowsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    generalizeReductions(func);
    {
      // Elementwise producers with one use into their consumers, the
      // reductions included (as upstream's fusion pass decides).
      RewritePatternSet patterns(context);
      // Not into a contraction (it keeps its packed kernels, as in
      // trace-fuse-elementwise), and not a producer that reads its own
      // output: a unit-extent reduction (a matmul with K = 1, an outer
      // product once the unit dim is dropped) accumulates into it, and fused
      // into a consumer that reads each element several times it would
      // accumulate again each time.
      linalg::ControlFusionFn oneUse = [](OpOperand *operand) {
        auto producer = operand->get().getDefiningOp<linalg::LinalgOp>();
        if (!producer || !producer->hasOneUse() ||
            trace::isContractionOrConvolution(operand->getOwner()))
          return false;
        return llvm::none_of(producer.getDpsInitsMutable(), [&](OpOperand &init) {
          return producer.payloadUsesValueFromOperand(&init);
        });
      };
      linalg::populateElementwiseOpsFusionPatterns(patterns, oneUse);
      // Fusion through keepdims' expand_shape leaves unit dims and
      // reshapes between a mean and its uses, where row fusion would stop:
      // the unit dims go, and the reshapes with them.
      linalg::ControlDropUnitDims dropUnitDims;
      linalg::populateFoldUnitExtentDimsPatterns(patterns, dropUnitDims);
      tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
      tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }

    SmallVector<linalg::LinalgOp> roots;
    func.walk([&](linalg::LinalgOp op) {
      if (isRowRoot(op))
        roots.push_back(op);
    });
    IRRewriter rewriter(context);
    for (linalg::LinalgOp root : roots) {
      unsigned numLoops = root.getNumLoops();
      SmallVector<OpFoldResult> sizes(numLoops, rewriter.getIndexAttr(1));
      sizes.back() = rewriter.getIndexAttr(0);
      scf::SCFTileAndFuseOptions options;
      options.tilingOptions.setTileSizes(sizes);
      // Rows are independent: a forall, which threads may share.
      options.tilingOptions.setLoopType(
          scf::SCFTilingOptions::LoopType::ForallOp);
      // Fuse the linalg ops of the chain; contractions stay whole, and so
      // does anything else (a call of a deduplicated kernel was cloned into
      // every row, whole: a 256x512 relu per element of the row loop).
      options.setFusionControlFn(
          [](tensor::ExtractSliceOp, OpResult producer, bool)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            auto linalgOp = dyn_cast<linalg::LinalgOp>(producer.getOwner());
            if (!linalgOp ||
                trace::isContractionOrConvolution(producer.getOwner()) ||
                hasEmptyLoop(linalgOp) || readsThroughWindows(linalgOp))
              return std::nullopt;
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          });
      rewriter.setInsertionPoint(root);
      FailureOr<scf::SCFTileAndFuseResult> fused =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(root.getOperation()), options);
      if (failed(fused))
        continue;
      for (OpResult result : root->getResults())
        rewriter.replaceAllUsesWith(result, fused->replacements.lookup(result));
    }
    // Producers fused twice (exp, read by both the sum and the division)
    // are one again.
    DominanceInfo dominance(func);
    eliminateCommonSubExpressions(rewriter, dominance, func);
  }
};

} // namespace
