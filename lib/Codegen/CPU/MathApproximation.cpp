//===- MathApproximation.cpp - f32 math as vectorizable polynomials -------===//
//
// Upstream MLIR's polynomial approximations, for the functions whose
// accuracy unittests/Codegen/CPU/MathAccuracyTest.cpp checks against libm
// (bounds in lib/Codegen/CPU/MathAccuracy.md). The rest keep LLVM's intrinsics or libm.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECPUMATHAPPROXIMATION
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

/// The functions upstream's approximations replace: those accurate over the
/// whole f32 range once the fixes below are applied (sin and cos are not:
/// their argument reduction loses every digit for large |x|; nor is atan2,
/// NaN at zeros and infinities, where libm's is exact). exp is tracec's
/// own.
bool isApproximated(StringRef name) {
  return llvm::is_contained(
      {math::ExpM1Op::getOperationName(), math::LogOp::getOperationName(),
       math::Log2Op::getOperationName(), math::Log1pOp::getOperationName(),
       math::TanhOp::getOperationName(), math::ErfOp::getOperationName(),
       math::ErfcOp::getOperationName(), math::AtanOp::getOperationName(),
       math::AsinOp::getOperationName(), math::AcosOp::getOperationName(),
       math::CbrtOp::getOperationName()},
      name);
}

/// Marks a math op a fix below made, so the fix doesn't apply again.
constexpr llvm::StringLiteral kFixed = "__trace_cpu_fixed";

bool isF32(Value value) { return getElementTypeOrSelf(value).isF32(); }

Value f32Constant(OpBuilder &b, Location loc, Type type, float value) {
  return arith::ConstantOp::create(
      b, loc, type, SplatElementsAttr::get(
                        cast<ShapedType>(type), b.getF32FloatAttr(value)))
      .getResult();
}

Value constantLike(OpBuilder &b, Location loc, Type type, float value) {
  if (isa<ShapedType>(type))
    return f32Constant(b, loc, type, value);
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

Value i32ConstantLike(OpBuilder &b, Location loc, Type type, int32_t value) {
  Type i32 = b.getI32Type();
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(
        b, loc, SplatElementsAttr::get(shaped.clone(i32),
                                       b.getI32IntegerAttr(value)));
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

/// exp on f32 with results correct to about 1 ulp down into the denormals
/// (upstream's flushes results below 2^-126 and overflows early): Cody-Waite
/// reduction x = k ln2 + r, |r| <= ln2/2, a degree-7 polynomial for e^r,
/// and 2^k applied as two normal powers of two, so the one rounding into a
/// denormal (or infinity) happens in the last multiplication.
struct ExpApproximation : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    if (!isF32(x))
      return failure();
    Location loc = op.getLoc();
    Type type = x.getType();
    auto c = [&](float v) { return constantLike(rewriter, loc, type, v); };
    Type intType = isa<ShapedType>(type)
                       ? Type(cast<ShapedType>(type).clone(rewriter.getI32Type()))
                       : Type(rewriter.getI32Type());
    auto ci = [&](int32_t v) { return i32ConstantLike(rewriter, loc, type, v); };

    // Below -104 the result rounds to 0, above 88.8 to infinity.
    Value clamped = arith::MinimumFOp::create(
        rewriter, loc, arith::MaximumFOp::create(rewriter, loc, x, c(-104.0f)),
        c(88.8f));
    Value k = math::RoundEvenOp::create(
        rewriter, loc,
        arith::MulFOp::create(rewriter, loc, clamped, c(1.44269504088896341f)));
    // ln2 = 0.693359375 - 2.12194440e-4: k * hi is exact.
    Value negK = arith::NegFOp::create(rewriter, loc, k);
    Value r = math::FmaOp::create(rewriter, loc, negK, c(0.693359375f), clamped);
    r = math::FmaOp::create(rewriter, loc, negK, c(-2.12194440e-4f), r);
    // e^r, Taylor to r^7 (the remainder is below 0.1 ulp on |r| <= ln2/2).
    const float coefficients[] = {1.0f / 5040, 1.0f / 720, 1.0f / 120,
                                  1.0f / 24,   1.0f / 6,   0.5f,
                                  1.0f,        1.0f};
    Value p = c(coefficients[0]);
    for (float coefficient : ArrayRef(coefficients).drop_front())
      p = math::FmaOp::create(rewriter, loc, p, r, c(coefficient));
    // 2^k = 2^k1 * 2^k2, each a normal float for k in [-150, 128].
    Value ki = arith::FPToSIOp::create(rewriter, loc, intType, k);
    Value k1 = arith::ShRSIOp::create(rewriter, loc, ki, ci(1));
    Value k2 = arith::SubIOp::create(rewriter, loc, ki, k1);
    auto powerOfTwo = [&](Value e) -> Value {
      Value bits = arith::ShLIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, e, ci(127)),
          ci(23));
      return arith::BitcastOp::create(rewriter, loc, type, bits);
    };
    Value result = arith::MulFOp::create(
        rewriter, loc, arith::MulFOp::create(rewriter, loc, p, powerOfTwo(k1)),
        powerOfTwo(k2));
    Value isNaN = arith::CmpFOp::create(rewriter, loc,
                                        arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, x, result);
    return success();
  }
};

/// log of a denormal: upstream's log reads the exponent field, which a
/// denormal lacks; scaled by 2^23 it is normal, and 23 ln2 comes off after.
struct LogOfDenormals : OpRewritePattern<math::LogOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::LogOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    if (!isF32(x) || op->hasAttr(kFixed))
      return failure();
    Location loc = op.getLoc();
    Type type = x.getType();
    auto c = [&](float v) { return constantLike(rewriter, loc, type, v); };
    Value denormal = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT,
        math::AbsFOp::create(rewriter, loc, x), c(0x1p-126f));
    Value scaled = arith::SelectOp::create(
        rewriter, loc, denormal,
        arith::MulFOp::create(rewriter, loc, x, c(0x1p23f)), x);
    auto log = math::LogOp::create(rewriter, loc, scaled);
    log->setAttr(kFixed, rewriter.getUnitAttr());
    Value offset =
        arith::SelectOp::create(rewriter, loc, denormal,
                                c(-15.9423851528787421f), c(0.0f));
    rewriter.replaceOpWithNewOp<arith::AddFOp>(op, log, offset);
    return success();
  }
};

/// erf is odd: upstream's loses the sign of -0.
struct ErfKeepsSign : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    if (!isF32(x) || op->hasAttr(kFixed))
      return failure();
    auto erf = math::ErfOp::create(rewriter, op.getLoc(), x);
    erf->setAttr(kFixed, rewriter.getUnitAttr());
    rewriter.replaceOpWithNewOp<math::CopySignOp>(op, erf, x);
    return success();
  }
};

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
    // Ahead of upstream's patterns, which would take the ops first.
    patterns.add<OnePlusErfToErfc, ExpApproximation, LogOfDenormals,
                 ErfKeepsSign>(&getContext(), /*benefit=*/2);
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
