//===- LowerContractionVectors.cpp - Contracts to FMAs on buffers ---------===//
//
// After bufferization (see Passes.td): the accumulator's transfers move out
// of the k loop, unit dims go, and vector.contract becomes outer products:
// per row of the register tile, one broadcast of the left operand and an
// FMA with the right operand's row.
//
//===----------------------------------------------------------------------===//

#include "tracec/Target/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACELOWERCONTRACTIONVECTORS
#include "tracec/Target/Cpu/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

struct LowerContractionVectorsPass
    : mlir::trace::impl::TraceLowerContractionVectorsBase<
          LowerContractionVectorsPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();
    // The accumulator stays in registers across the k loop.
    linalg::hoistRedundantVectorTransfers(root, /*verifyNonZeroTrip=*/true);

    // Unit dims (of the packed layout's outer dims) go first, so the
    // contracts are plain [m0] x [n0] outer products.
    {
      RewritePatternSet patterns(context);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      vector::populateDropUnitDimWithShapeCastPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::Shuffle1D);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
