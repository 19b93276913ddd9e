//===- ElementwiseGradients.cpp - Rules of the elementwise ops ------------===//
//
// Each rule maps (inputs, output y, output cotangent dy) to the inputs'
// cotangents at the broadcast shape; the model sums them back down to each
// input's shape (undoing NumPy broadcasting). The Jacobians are diagonal,
// so the same rules give the tangents (GradientModels.h): the rule applied
// to an input's tangent is its part of the output's tangent.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"
#include "GradientModels.h"

#include <cmath>

using namespace mlir;
using namespace mlir::trace;

namespace {

//===----------------------------------------------------------------------===//
// Unary: dx = f(x, y, dy)
//===----------------------------------------------------------------------===//

Value negRule(GradientBuilder &g, Value, Value, Value dy) { return g.neg(dy); }
Value absRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.mul(dy, SignOp::create(g.builder, g.loc, x)); // 0 at x = 0
}
Value expRule(GradientBuilder &g, Value, Value y, Value dy) {
  return g.mul(dy, y);
}
Value logRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.div(dy, x);
}
Value log1pRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.div(dy, g.add(g.constant(1, x), x));
}
Value sqrtRule(GradientBuilder &g, Value, Value y, Value dy) {
  return g.div(g.mul(dy, g.constant(0.5, y)), y);
}
Value rsqrtRule(GradientBuilder &g, Value, Value y, Value dy) {
  // d/dx x^-1/2 = -1/2 x^-3/2 = -1/2 y^3
  return g.mul(g.mul(dy, g.constant(-0.5, y)), g.mul(y, g.mul(y, y)));
}
Value tanhRule(GradientBuilder &g, Value, Value y, Value dy) {
  return g.mul(dy, g.sub(g.constant(1, y), g.mul(y, y)));
}
Value sigmoidRule(GradientBuilder &g, Value, Value y, Value dy) {
  return g.mul(dy, g.mul(y, g.sub(g.constant(1, y), y)));
}
Value reluRule(GradientBuilder &g, Value x, Value, Value dy) {
  // The gradient at 0 is 0 (TensorFlow's and JAX's choice).
  Value positive = GtOp::create(g.builder, g.loc, x, g.constant(0, x));
  return SelectOp::create(g.builder, g.loc, positive, dy, g.constant(0, dy));
}
Value geluRule(GradientBuilder &g, Value x, Value, Value dy) {
  // d/dx x*Phi(x) = Phi(x) + x*phi(x), phi(x) = exp(-x^2/2)/sqrt(2 pi).
  Value cdf = g.mul(g.constant(0.5, x),
                    g.add(g.constant(1, x),
                          ErfOp::create(g.builder, g.loc,
                                        g.mul(x, g.constant(M_SQRT1_2, x)))));
  Value pdf = g.mul(g.constant(0.5 * M_2_SQRTPI * M_SQRT1_2, x),
                    g.exp(g.mul(g.constant(-0.5, x), g.mul(x, x))));
  return g.mul(dy, g.add(cdf, g.mul(x, pdf)));
}
Value erfRule(GradientBuilder &g, Value x, Value, Value dy) {
  // d/dx erf(x) = 2/sqrt(pi) exp(-x^2)
  return g.mul(dy, g.mul(g.constant(M_2_SQRTPI, x), g.exp(g.neg(g.mul(x, x)))));
}
Value sinRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.mul(dy, CosOp::create(g.builder, g.loc, x));
}
Value cosRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.neg(g.mul(dy, SinOp::create(g.builder, g.loc, x)));
}
// The inverse functions' derivatives. (1 - x)(1 + x) and (x - 1)(x + 1)
// rather than 1 - x^2 and x^2 - 1: accurate where |x| is near 1.
Value oneMinusSquare(GradientBuilder &g, Value x) {
  Value one = g.constant(1, x);
  return g.mul(g.sub(one, x), g.add(one, x));
}
Value asinRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.mul(dy, RsqrtOp::create(g.builder, g.loc, oneMinusSquare(g, x)));
}
Value acosRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.neg(asinRule(g, x, Value(), dy));
}
Value atanRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.div(dy, g.add(g.constant(1, x), g.mul(x, x)));
}
Value asinhRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.mul(dy, RsqrtOp::create(g.builder, g.loc,
                                   g.add(g.mul(x, x), g.constant(1, x))));
}
Value acoshRule(GradientBuilder &g, Value x, Value, Value dy) {
  Value one = g.constant(1, x);
  return g.mul(dy, RsqrtOp::create(g.builder, g.loc,
                                   g.mul(g.sub(x, one), g.add(x, one))));
}
Value atanhRule(GradientBuilder &g, Value x, Value, Value dy) {
  return g.div(dy, oneMinusSquare(g, x));
}
Value castRule(GradientBuilder &g, Value x, Value, Value dy) {
  // Float-to-float only: the cotangent goes back to the input's precision.
  auto type = cast<RankedTensorType>(x.getType());
  if (!isa<FloatType>(type.getElementType()))
    return {};
  return CastOp::create(g.builder, g.loc, dy, type.getElementType());
}
Value castTangentRule(GradientBuilder &g, Value x, Value y, Value tx) {
  // Float-to-float only: the tangent takes the result's precision.
  auto type = cast<RankedTensorType>(y.getType());
  if (!isa<FloatType>(type.getElementType()) ||
      !isa<FloatType>(cast<RankedTensorType>(x.getType()).getElementType()))
    return {};
  return CastOp::create(g.builder, g.loc, tx, type.getElementType());
}
Value identityRule(GradientBuilder &, Value, Value, Value dy) {
  return dy; // Control tokens carry no gradient.
}
/// Piecewise-constant functions (sign, floor): the gradient is 0.
Value zeroRule(GradientBuilder &, Value, Value, Value) { return {}; }

//===----------------------------------------------------------------------===//
// Binary: (da, db) = f(a, b, y, dy), at the broadcast shape
//===----------------------------------------------------------------------===//

Cotangents addRule(GradientBuilder &, Value, Value, Value, Value dy) {
  return {dy, dy};
}
Cotangents subRule(GradientBuilder &g, Value, Value, Value, Value dy) {
  return {dy, g.neg(dy)};
}
Cotangents mulRule(GradientBuilder &g, Value a, Value b, Value, Value dy) {
  return {g.mul(dy, b), g.mul(dy, a)};
}
Cotangents divRule(GradientBuilder &g, Value, Value b, Value y, Value dy) {
  Value da = g.div(dy, b);
  return {da, g.neg(g.mul(da, y))}; // d(a/b)/db = -a/b^2 = -y/b
}
/// rem: y = a - trunc(a/b) * b, so da = dy and db = -dy * trunc(a/b),
/// where trunc(a/b) = (a - y) / b (exactly an integer up to rounding).
/// atan2(a, b) = angle of (b, a): da = dy b / (a^2 + b^2), db = -dy a / (...).
Cotangents atan2Rule(GradientBuilder &g, Value a, Value b, Value, Value dy) {
  Value scale = g.div(dy, g.add(g.mul(a, a), g.mul(b, b)));
  return {g.mul(scale, b), g.neg(g.mul(scale, a))};
}
Cotangents remRule(GradientBuilder &g, Value a, Value b, Value y, Value dy) {
  return {dy, g.neg(g.mul(dy, g.div(g.sub(a, y), b)))};
}
/// pow, with PyTorch's choices (JAX's too for da) where the formulas
/// da = dy * b * a^(b-1) and db = dy * y * log(a) meet 0 * inf or NaN:
/// - da is 0 where b == 0 (a^0 is constant in a; the formula gives
///   0 * 0^-1 = NaN at a = 0);
/// - db is 0 where a == 0 and b >= 0 (0^b is 0 or 1 there; the formula
///   gives 0 * -inf = NaN);
/// - elsewhere the formulas stand: at a = 0, b < 0 they give -inf for both
///   (with dy = 1), and db is NaN for a < 0, where log(a) is undefined.
/// (TensorFlow instead takes db as 0 wherever a <= 0; JAX gives NaN for db at
/// a = 0, b < 0.) Checked against
/// torch.autograd in unittests/Gradients/ElementwiseGradientTest.cpp.
Cotangents powRule(GradientBuilder &g, Value a, Value b, Value y, Value dy) {
  Value zero = g.constant(0, dy);
  Value power = g.mul(b, PowOp::create(g.builder, g.loc, a,
                                       g.sub(b, g.constant(1, b))));
  Value constantInA = EqOp::create(g.builder, g.loc, b, g.constant(0, b));
  Value da = g.mul(dy, SelectOp::create(g.builder, g.loc, constantInA, zero,
                                        power));
  Value zeroBase = EqOp::create(g.builder, g.loc, a, g.constant(0, a));
  Value nonNegativeExponent =
      GeOp::create(g.builder, g.loc, b, g.constant(0, b));
  Value logTerm = g.mul(y, g.log(a));
  Value atZeroBase = SelectOp::create(g.builder, g.loc, nonNegativeExponent,
                                      zero, logTerm);
  Value db = g.mul(dy, SelectOp::create(g.builder, g.loc, zeroBase,
                                        atZeroBase, logTerm));
  return {da, db};
}
/// max/min: the cotangent goes to the selected side; on ties it is split
/// evenly between both (JAX's choice), so the two shares still sum to dy.
Cotangents extremumRule(GradientBuilder &g, Value a, Value b, Value dy,
                        bool isMax) {
  Type element = cast<RankedTensorType>(dy.getType()).getElementType();
  auto asFloat = [&](Value mask) {
    return CastOp::create(g.builder, g.loc, mask, element).getResult();
  };
  Value wins = isMax ? GtOp::create(g.builder, g.loc, a, b).getResult()
                     : LtOp::create(g.builder, g.loc, a, b).getResult();
  Value loses = isMax ? LtOp::create(g.builder, g.loc, a, b).getResult()
                      : GtOp::create(g.builder, g.loc, a, b).getResult();
  Value tie = g.mul(asFloat(EqOp::create(g.builder, g.loc, a, b)),
                    g.constant(0.5, dy));
  return {g.mul(dy, g.add(asFloat(wins), tie)),
          g.mul(dy, g.add(asFloat(loses), tie))};
}
Cotangents maxRule(GradientBuilder &g, Value a, Value b, Value, Value dy) {
  return extremumRule(g, a, b, dy, /*isMax=*/true);
}
Cotangents minRule(GradientBuilder &g, Value a, Value b, Value, Value dy) {
  return extremumRule(g, a, b, dy, /*isMax=*/false);
}

/// select: the condition has no gradient; each branch gets dy where it was
/// chosen.
struct SelectGradient
    : DifferentiableOpInterface::ExternalModel<SelectGradient, SelectOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto select = cast<SelectOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value dy = state.cotangent(select.getResult());
    Value cond = state.primal(select.getCond());
    Value zero = g.constant(0, dy);
    Value onTrue = SelectOp::create(builder, g.loc, cond, dy, zero);
    Value onFalse = SelectOp::create(builder, g.loc, cond, zero, dy);
    if (failed(state.accumulate(select.getOnTrue(),
                                g.unbroadcast(onTrue, select.getOnTrue().getType()))))
      return failure();
    return state.accumulate(select.getOnFalse(),
                            g.unbroadcast(onFalse, select.getOnFalse().getType()));
  }

  /// ty = select(cond, t_true, t_false), a missing tangent being 0.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto select = cast<SelectOp>(op);
    Value onTrue = state.tangent(select.getOnTrue());
    Value onFalse = state.tangent(select.getOnFalse());
    if (!onTrue && !onFalse)
      return success();
    GradientBuilder g(builder, op->getLoc());
    Value y = state.primal(select.getResult());
    Value zero = g.constant(0, y);
    Value ty =
        SelectOp::create(builder, g.loc, state.primal(select.getCond()),
                         onTrue ? onTrue : zero, onFalse ? onFalse : zero);
    return state.setTangent(select.getResult(), g.fitTo(ty, y));
  }
};

/// stop_gradient: nothing flows back.
struct StopGradientGradient
    : DifferentiableOpInterface::ExternalModel<StopGradientGradient,
                                               StopGradientOp> {
  LogicalResult emitAdjoint(Operation *, OpBuilder &, AdjointState &) const {
    return success();
  }
  /// ... nor forward: the tangent is zero.
  LogicalResult emitTangent(Operation *, OpBuilder &, TangentState &) const {
    return success();
  }
};

/// random_uniform/random_normal: sources whose `like` operand gives only a
/// shape, so nothing flows back into it and their tangent is zero; the
/// keyed ones read only an integer key.
template <typename OpTy>
struct RandomGradient
    : DifferentiableOpInterface::ExternalModel<RandomGradient<OpTy>, OpTy> {
  LogicalResult emitAdjoint(Operation *, OpBuilder &, AdjointState &) const {
    return success();
  }
  LogicalResult emitTangent(Operation *, OpBuilder &, TangentState &) const {
    return success();
  }
};

} // namespace

void mlir::trace::registerElementwiseGradients(MLIRContext *context) {
  NegOp::attachInterface<UnaryGradient<NegOp, negRule>>(*context);
  AbsOp::attachInterface<UnaryGradient<AbsOp, absRule>>(*context);
  ExpOp::attachInterface<UnaryGradient<ExpOp, expRule>>(*context);
  LogOp::attachInterface<UnaryGradient<LogOp, logRule>>(*context);
  Log1pOp::attachInterface<UnaryGradient<Log1pOp, log1pRule>>(*context);
  SqrtOp::attachInterface<UnaryGradient<SqrtOp, sqrtRule>>(*context);
  RsqrtOp::attachInterface<UnaryGradient<RsqrtOp, rsqrtRule>>(*context);
  TanhOp::attachInterface<UnaryGradient<TanhOp, tanhRule>>(*context);
  SigmoidOp::attachInterface<UnaryGradient<SigmoidOp, sigmoidRule>>(*context);
  ReluOp::attachInterface<UnaryGradient<ReluOp, reluRule>>(*context);
  GeluOp::attachInterface<UnaryGradient<GeluOp, geluRule>>(*context);
  ErfOp::attachInterface<UnaryGradient<ErfOp, erfRule>>(*context);
  SinOp::attachInterface<UnaryGradient<SinOp, sinRule>>(*context);
  CosOp::attachInterface<UnaryGradient<CosOp, cosRule>>(*context);
  AsinOp::attachInterface<UnaryGradient<AsinOp, asinRule>>(*context);
  AcosOp::attachInterface<UnaryGradient<AcosOp, acosRule>>(*context);
  AtanOp::attachInterface<UnaryGradient<AtanOp, atanRule>>(*context);
  AsinhOp::attachInterface<UnaryGradient<AsinhOp, asinhRule>>(*context);
  AcoshOp::attachInterface<UnaryGradient<AcoshOp, acoshRule>>(*context);
  AtanhOp::attachInterface<UnaryGradient<AtanhOp, atanhRule>>(*context);
  SignOp::attachInterface<UnaryGradient<SignOp, zeroRule>>(*context);
  FloorOp::attachInterface<UnaryGradient<FloorOp, zeroRule>>(*context);
  CastOp::attachInterface<UnaryGradient<CastOp, castRule, castTangentRule>>(
      *context);
  IdentityOp::attachInterface<UnaryGradient<IdentityOp, identityRule>>(*context);
  StopGradientOp::attachInterface<StopGradientGradient>(*context);
  RandomUniformOp::attachInterface<RandomGradient<RandomUniformOp>>(*context);
  RandomNormalOp::attachInterface<RandomGradient<RandomNormalOp>>(*context);
  StatelessRandomUniformOp::attachInterface<
      RandomGradient<StatelessRandomUniformOp>>(*context);
  StatelessRandomNormalOp::attachInterface<
      RandomGradient<StatelessRandomNormalOp>>(*context);
  StatelessRandomBitsOp::attachInterface<RandomGradient<StatelessRandomBitsOp>>(
      *context);
  // size reads only its operand's shape.
  SizeOp::attachInterface<UnaryGradient<SizeOp, zeroRule>>(*context);

  AddOp::attachInterface<BinaryGradient<AddOp, addRule>>(*context);
  SubOp::attachInterface<BinaryGradient<SubOp, subRule>>(*context);
  MulOp::attachInterface<BinaryGradient<MulOp, mulRule>>(*context);
  DivOp::attachInterface<BinaryGradient<DivOp, divRule>>(*context);
  RemOp::attachInterface<BinaryGradient<RemOp, remRule>>(*context);
  PowOp::attachInterface<BinaryGradient<PowOp, powRule>>(*context);
  Atan2Op::attachInterface<BinaryGradient<Atan2Op, atan2Rule>>(*context);
  MaxOp::attachInterface<BinaryGradient<MaxOp, maxRule>>(*context);
  MinOp::attachInterface<BinaryGradient<MinOp, minRule>>(*context);
  SelectOp::attachInterface<SelectGradient>(*context);
}
