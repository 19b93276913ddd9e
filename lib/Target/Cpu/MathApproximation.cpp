//===- MathApproximation.cpp - f32 math as vectorizable polynomials -------===//
//
// Upstream MLIR's polynomial approximations, for the functions whose
// accuracy unittests/Target/Cpu/MathAccuracyTest.cpp checks against libm
// (bounds in docs/cpu-math.md). The rest keep LLVM's intrinsics or libm.
//
//===----------------------------------------------------------------------===//

#include "tracec/Target/Cpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
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

/// 1 + erf(y) -> erfc(-y): the same value without the cancellation that
/// leaves nothing of 1 + erf(y) for y below -3 or so (GELU's left tail).
struct OnePlusErfToErfc : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [one, other] : {std::pair(op.getLhs(), op.getRhs()),
                              std::pair(op.getRhs(), op.getLhs())}) {
      auto erf = other.getDefiningOp<math::ErfOp>();
      if (!erf || !matchPattern(one, m_OneFloat()))
        continue;
      Value negated = arith::NegFOp::create(rewriter, op.getLoc(),
                                            erf.getOperand());
      rewriter.replaceOpWithNewOp<math::ErfcOp>(op, negated);
      return success();
    }
    return failure();
  }
};

struct CpuMathApproximationPass
    : mlir::trace::impl::TraceCpuMathApproximationBase<
          CpuMathApproximationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // powf(x, 2) -> x * x, powf(x, 0.5) -> sqrt(x), ...
    populateMathAlgebraicSimplificationPatterns(patterns);
    patterns.add<OnePlusErfToErfc>(&getContext());
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
