//===- FuseElementwise.cpp - Elementwise fusion that spares contractions --===//
//
// The pattern set of upstream's linalg-fuse-elementwise-ops, with a control
// function that never fuses into a contraction or a convolution (see the
// pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/Passes.h"
#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"
#include "tracec/Dialect/Linalg/Contractions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEFUSEELEMENTWISE
#include "tracec/Conversion/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

struct FuseElementwisePass
    : mlir::trace::impl::TraceFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      return producer && producer->hasOneUse() &&
             !trace::isContractionOrConvolution(fused->getOwner());
    };
    RewritePatternSet patterns(context);
    trace::populateSplatContractionPatterns(patterns);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    // Top-down, as upstream's pass (compile time); as there, not reaching a
    // fixed point leaves correct IR, fused less.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
