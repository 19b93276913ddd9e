//===- LowerVectors.cpp - Vectorized code on buffers to 1-D vector ops ----===//
//
// The vectorizer leaves n-D transfers with unit dims, masks, and
// multi-reductions; convert-vector-to-llvm wants 1-D loads, stores and
// arithmetic. Lane accumulators whose buffer a loop reads and writes at the
// same place become loop-carried vectors first, so they stay in registers.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECPULOWERVECTORS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

struct CpuLowerVectorsPass
    : mlir::trace::impl::TraceCpuLowerVectorsBase<CpuLowerVectorsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    linalg::hoistRedundantVectorTransfers(func, /*verifyNonZeroTrip=*/true);
    // What is left of a lane accumulator's buffer, a write then a read
    // around its loop, forwards in registers; the buffer itself stays
    // (buffer-loop-hoisting moves it out of the row loop): upstream's
    // eraseDeadAllocAndStores also erases calls that read a cast of it.
    IRRewriter rewriter(context);
    vector::transferOpflowOpt(rewriter, func);

    // Masks onto the transfers they guard; unit dims away.
    {
      RewritePatternSet patterns(context);
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      vector::populateDropUnitDimWithShapeCastPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      vector::populateSinkVectorOpsPatterns(patterns);
      vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
      vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
      vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
      vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
      vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
      memref::AllocOp::getCanonicalizationPatterns(patterns, context);
      memref::SubViewOp::getCanonicalizationPatterns(patterns, context);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
    // Then transfers to loads and stores.
    {
      RewritePatternSet patterns(context);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
