//===- GpuExpandMath.cpp - Math functions without libdevice ---------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUEXPANDMATH
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
/// rsqrt(x) = 1 / sqrt(x), for the types no approximation covers.
struct ExpandRsqrt : OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type)
      return failure();
    Location loc = op.getLoc();
    Value one = arith::ConstantOp::create(rewriter, loc, type,
                                          rewriter.getFloatAttr(type, 1.0));
    Value root = math::SqrtOp::create(rewriter, loc, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, root);
    return success();
  }
};

/// |x| = max(x, -x) for integers (wrapping at the minimum, as C's abs);
/// convert-gpu-to-nvvm would call libdevice's __nv_abs.
struct ExpandAbsI : OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsIOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(op.getType()));
    Value negated = arith::SubIOp::create(rewriter, loc, zero, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::MaxSIOp>(op, op.getOperand(), negated);
    return success();
  }
};

struct GpuExpandMathPass
    : mlir::trace::impl::TraceGpuExpandMathBase<GpuExpandMathPass> {
  void runOnOperation() override {
    auto all = [](StringRef) { return true; };
    RewritePatternSet patterns(&getContext());
    math::populateExpansionPatterns(patterns);
    populateMathF32ExpansionPatterns(patterns, all);
    populateMathPolynomialApproximationPatterns(patterns, all);
    // After the approximations, which may produce rsqrt.
    patterns.add<ExpandRsqrt>(&getContext(), /*benefit=*/0);
    patterns.add<ExpandAbsI>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
