//===- TraceToLinalgPass.cpp - The trace-to-linalg pass -------------------===//

#include "tracec/Conversion/Passes.h"
#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACETOLINALG
#include "tracec/Conversion/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {
struct TraceToLinalgPass
    : mlir::trace::impl::TraceToLinalgBase<TraceToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addLegalDialect<affine::AffineDialect, arith::ArithDialect,
                           cf::ControlFlowDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    // Every trace op must be lowered; one that is not is reported.
    target.addIllegalDialect<TraceDialect>();
    // ... but the optimization barrier, which must outlive the CSE passes
    // until bufferization erases it.
    target.addLegalOp<OptimizationBarrierOp>();

    RewritePatternSet patterns(context);
    populateElementwiseToLinalgPatterns(patterns);
    populateMatmulToLinalgPatterns(patterns);
    populateReductionToLinalgPatterns(patterns);
    populateConvPoolToLinalgPatterns(patterns);
    populateConvBackpropToLinalgPatterns(patterns);
    populatePoolingGradToLinalgPatterns(patterns);
    populateSoftmaxToLinalgPatterns(patterns);
    populateSourcesToLinalgPatterns(patterns);
    populateShapeToLinalgPatterns(patterns);
    populateConcatSliceToTensorPatterns(patterns);
    populateIndexingToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
