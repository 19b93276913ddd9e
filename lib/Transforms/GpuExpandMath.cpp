//===- GpuExpandMath.cpp - Math functions without libdevice ---------------===//

#include "tracec/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUEXPANDMATH
#include "tracec/Transforms/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct GpuExpandMathPass
    : mlir::trace::impl::TraceGpuExpandMathBase<GpuExpandMathPass> {
  void runOnOperation() override {
    auto all = [](StringRef) { return true; };
    RewritePatternSet patterns(&getContext());
    math::populateExpansionPatterns(patterns);
    populateMathF32ExpansionPatterns(patterns, all);
    populateMathPolynomialApproximationPatterns(patterns, all);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
