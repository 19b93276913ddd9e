//===- MathApproximation.cpp - f32 math as vectorizable polynomials -------===//
//
// Upstream MLIR's polynomial approximations, for the functions whose
// accuracy unittests/Target/Cpu/MathAccuracyTest.cpp checks against libm
// (bounds in docs/cpu-math.md). The rest keep LLVM's intrinsics or libm.
//
//===----------------------------------------------------------------------===//

#include "tracec/Target/Cpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECPUMATHAPPROXIMATION
#include "tracec/Target/Cpu/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

/// The functions approximated: those whose upstream approximation is
/// accurate over the whole f32 range (sin and cos are not: their argument
/// reduction loses every digit for large |x|).
bool isApproximated(StringRef name) {
  return llvm::is_contained(
      {math::ExpOp::getOperationName(), math::ExpM1Op::getOperationName(),
       math::LogOp::getOperationName(), math::Log2Op::getOperationName(),
       math::Log1pOp::getOperationName(), math::TanhOp::getOperationName(),
       math::ErfOp::getOperationName(), math::ErfcOp::getOperationName(),
       math::AtanOp::getOperationName(), math::Atan2Op::getOperationName(),
       math::AsinOp::getOperationName(), math::AcosOp::getOperationName(),
       math::CbrtOp::getOperationName()},
      name);
}

struct CpuMathApproximationPass
    : mlir::trace::impl::TraceCpuMathApproximationBase<
          CpuMathApproximationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // powf(x, 2) -> x * x, powf(x, 0.5) -> sqrt(x), ...
    populateMathAlgebraicSimplificationPatterns(patterns);
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
