//===- ReductionGradients.cpp - Rules of the reductions -------------------===//
//
// A reduction's cotangent is broadcast back over the reduced axes: reshape
// to the keepdims shape, then broadcast_to the input's shape (`like` the
// input where its `?` sizes come from nowhere else; a mean's count is then
// read at run time with trace.size). softmax and
// log_softmax, which normalize along one axis, are here too.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// `value` (a reduction's result or cotangent) reshaped to the keepdims
/// shape of reducing `input` over `axes`, so that it broadcasts against
/// `input`.
Value keepReducedDims(GradientBuilder &g, Value value, Value input,
                      ArrayRef<int64_t> axes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> kept(inputType.getShape());
  for (int64_t axis : axes)
    kept[*normalizeAxis(axis, inputType.getRank())] = 1;
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == ArrayRef<int64_t>(kept))
    return value;
  return ReshapeOp::create(g.builder, g.loc, type.clone(kept), value);
}

/// dy, reshaped to keep the reduced dims as 1s and broadcast to the shape
/// of `x` (the primal input, which gives the sizes of its `?` dims).
Value expandToInput(GradientBuilder &g, Value dy, Value x,
                    ArrayRef<int64_t> axes) {
  return g.broadcastLike(keepReducedDims(g, dy, x, axes), x);
}

template <typename OpTy>
struct SumLikeGradient
    : DifferentiableOpInterface::ExternalModel<SumLikeGradient<OpTy>, OpTy> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reduce = cast<OpTy>(op);
    GradientBuilder g(builder, op->getLoc());
    Value x = state.primal(reduce.getX());
    Value dx = expandToInput(g, state.cotangent(reduce.getResult()), x,
                             reduce.getAxes());
    if constexpr (std::is_same_v<OpTy, ReduceMeanOp>) {
      // The count is read at run time where a reduced dim is `?`.
      Type element = cast<RankedTensorType>(x.getType()).getElementType();
      dx = g.div(dx, g.size(x, reduce.getAxes(), element));
    }
    return state.accumulate(reduce.getX(), dx);
  }

  /// Linear: the sum (mean) of the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state, cast<OpTy>(op).getX());
  }
};

/// reduce_max/reduce_min: the cotangent goes to the elements equal to the
/// result. On ties it is split evenly among all tied elements (each gets
/// dy / count), the elementwise max/min rule's choice generalized, so the
/// shares still sum to dy:
///   mask = (x == y), dx = mask * dy / sum(mask, axes, keepdims).
/// The tangent is the same split forward, the mean of the tied elements'
/// tangents: ty = sum(mask * tx, axes) / sum(mask, axes).
template <typename OpTy>
struct ExtremumGradient
    : DifferentiableOpInterface::ExternalModel<ExtremumGradient<OpTy>, OpTy> {
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto reduce = cast<OpTy>(op);
    GradientBuilder g(builder, op->getLoc());
    Value x = state.primal(reduce.getX());
    ArrayRef<int64_t> axes = reduce.getAxes();
    Value y = state.primal(reduce.getResult());
    Type element = cast<RankedTensorType>(x.getType()).getElementType();
    Value mask = CastOp::create(
        builder, g.loc,
        EqOp::create(builder, g.loc, x, keepReducedDims(g, y, x, axes)),
        element);
    bool keepdims = reduce.getKeepdims();
    Value count = ReduceSumOp::create(builder, g.loc, mask, axes, keepdims);
    Value picked = ReduceSumOp::create(
        builder, g.loc, g.mul(mask, state.tangent(reduce.getX())), axes,
        keepdims);
    return state.setTangent(reduce.getResult(), g.div(picked, count));
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reduce = cast<OpTy>(op);
    GradientBuilder g(builder, op->getLoc());
    Value x = state.primal(reduce.getX());
    ArrayRef<int64_t> axes = reduce.getAxes();
    Value y = keepReducedDims(g, state.primal(reduce.getResult()), x, axes);
    Value dy = keepReducedDims(g, state.cotangent(reduce.getResult()), x, axes);
    Type element = cast<RankedTensorType>(x.getType()).getElementType();
    Value mask = CastOp::create(builder, g.loc,
                                EqOp::create(builder, g.loc, x, y), element);
    Value count = ReduceSumOp::create(builder, g.loc, mask, axes,
                                      /*keepdims=*/true);
    return state.accumulate(reduce.getX(), g.mul(mask, g.div(dy, count)));
  }
};

/// reduce_prod: dx_i = dy * (the product of the other elements), exact with
/// zeros among them. With P the product of the nonzero elements (zeros
/// taken as 1) and z the number of zeros (both per reduced slice):
///   z = 0: dx_i = dy * P / x_i;
///   z = 1: dx_i = dy * P at the zero, 0 elsewhere;
///   z > 1: dx = 0.
/// Forward: ty = sum(others * tx, axes), the same partial derivatives.
struct ProdGradient
    : DifferentiableOpInterface::ExternalModel<ProdGradient, ReduceProdOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reduce = cast<ReduceProdOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value x = state.primal(reduce.getX());
    ArrayRef<int64_t> axes = reduce.getAxes();
    Value dy = keepReducedDims(g, state.cotangent(reduce.getResult()), x, axes);
    return state.accumulate(reduce.getX(), g.mul(partials(g, x, axes), dy));
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto reduce = cast<ReduceProdOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value x = state.primal(reduce.getX());
    Value terms =
        g.mul(partials(g, x, reduce.getAxes()), state.tangent(reduce.getX()));
    return state.setTangent(reduce.getResult(),
                            ReduceSumOp::create(builder, g.loc, terms,
                                                reduce.getAxes(),
                                                reduce.getKeepdims()));
  }

  /// d prod / d x_i, at x's shape.
  static Value partials(GradientBuilder &g, Value x, ArrayRef<int64_t> axes) {
    OpBuilder &builder = g.builder;
    Type element = cast<RankedTensorType>(x.getType()).getElementType();
    Value zero = g.constant(0, x), one = g.constant(1, x);
    Value isZero = EqOp::create(builder, g.loc, x, zero);
    Value nonzero = SelectOp::create(builder, g.loc, isZero, one, x);
    Value product = ReduceProdOp::create(builder, g.loc, nonzero, axes,
                                         /*keepdims=*/true);
    Value zeros = ReduceSumOp::create(
        builder, g.loc, CastOp::create(builder, g.loc, isZero, element), axes,
        /*keepdims=*/true);
    // select broadcasts its operands.
    Value onlyZero = SelectOp::create(builder, g.loc, isZero, product, zero);
    Value others = SelectOp::create(
        builder, g.loc, EqOp::create(builder, g.loc, zeros, zero),
        g.div(product, nonzero),
        SelectOp::create(builder, g.loc,
                         EqOp::create(builder, g.loc, zeros, one), onlyZero,
                         zero));
    return others;
  }
};

/// softmax: dx = y * (dy - sum(dy * y, axis, keepdims)). The Jacobian
/// diag(y) - y y^T is symmetric, so the tangent is the same expression of
/// tx.
struct SoftmaxGradient
    : DifferentiableOpInterface::ExternalModel<SoftmaxGradient, SoftmaxOp> {
  /// The Jacobian at the result `y` applied to `v`: y * (v - sum(v * y)).
  static Value jacobianTimes(OpBuilder &builder, SoftmaxOp softmax, Value y,
                             Value v) {
    GradientBuilder g(builder, softmax.getLoc());
    Value dot = ReduceSumOp::create(builder, g.loc, g.mul(v, y),
                                    ArrayRef<int64_t>{softmax.getAxis()},
                                    /*keepdims=*/true);
    return g.mul(y, g.sub(v, dot));
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto softmax = cast<SoftmaxOp>(op);
    Value y = state.primal(softmax.getResult());
    Value tx = state.tangent(softmax.getX());
    return state.setTangent(softmax.getResult(),
                            jacobianTimes(builder, softmax, y, tx));
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto softmax = cast<SoftmaxOp>(op);
    Value y = state.primal(softmax.getResult());
    Value dy = state.cotangent(softmax.getResult());
    return state.accumulate(softmax.getX(),
                            jacobianTimes(builder, softmax, y, dy));
  }
};

/// log_softmax: dx = dy - exp(y) * sum(dy, axis, keepdims). The Jacobian
/// I - 1 softmax^T is not symmetric: ty = tx - sum(exp(y) * tx, axis,
/// keepdims).
struct LogSoftmaxGradient
    : DifferentiableOpInterface::ExternalModel<LogSoftmaxGradient,
                                               LogSoftmaxOp> {
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto logSoftmax = cast<LogSoftmaxOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value y = state.primal(logSoftmax.getResult());
    Value tx = state.tangent(logSoftmax.getX());
    Value dot = ReduceSumOp::create(builder, g.loc, g.mul(g.exp(y), tx),
                                    ArrayRef<int64_t>{logSoftmax.getAxis()},
                                    /*keepdims=*/true);
    return state.setTangent(logSoftmax.getResult(), g.sub(tx, dot));
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto logSoftmax = cast<LogSoftmaxOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value y = state.primal(logSoftmax.getResult());
    Value dy = state.cotangent(logSoftmax.getResult());
    Value total = ReduceSumOp::create(builder, g.loc, dy,
                                      ArrayRef<int64_t>{logSoftmax.getAxis()},
                                      /*keepdims=*/true);
    return state.accumulate(logSoftmax.getX(),
                            g.sub(dy, g.mul(g.exp(y), total)));
  }
};

/// logsumexp: dx = dy * exp(x - y), y broadcast back (softmax over the
/// axes); the tangent is sum(exp(x - y) * tx, axes).
struct LogSumExpGradient
    : DifferentiableOpInterface::ExternalModel<LogSumExpGradient,
                                               ReduceLogSumExpOp> {
  static Value softmax(GradientBuilder &g, ReduceLogSumExpOp op, Value x,
                       Value y) {
    return g.exp(g.sub(x, keepReducedDims(g, y, x, op.getAxes())));
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto reduce = cast<ReduceLogSumExpOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value weights = softmax(g, reduce, state.primal(reduce.getX()),
                            state.primal(reduce.getResult()));
    return state.setTangent(
        reduce.getResult(),
        ReduceSumOp::create(builder, g.loc,
                            g.mul(weights, state.tangent(reduce.getX())),
                            reduce.getAxes(), reduce.getKeepdims()));
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reduce = cast<ReduceLogSumExpOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value x = state.primal(reduce.getX());
    Value weights = softmax(g, reduce, x, state.primal(reduce.getResult()));
    Value dy = expandToInput(g, state.cotangent(reduce.getResult()), x,
                             reduce.getAxes());
    return state.accumulate(reduce.getX(), g.mul(dy, weights));
  }
};

} // namespace

void mlir::trace::registerReductionGradients(MLIRContext *context) {
  ReduceSumOp::attachInterface<SumLikeGradient<ReduceSumOp>>(*context);
  ReduceMeanOp::attachInterface<SumLikeGradient<ReduceMeanOp>>(*context);
  ReduceMaxOp::attachInterface<ExtremumGradient<ReduceMaxOp>>(*context);
  ReduceMinOp::attachInterface<ExtremumGradient<ReduceMinOp>>(*context);
  ReduceProdOp::attachInterface<ProdGradient>(*context);
  ReduceLogSumExpOp::attachInterface<LogSumExpGradient>(*context);
  SoftmaxOp::attachInterface<SoftmaxGradient>(*context);
  LogSoftmaxOp::attachInterface<LogSoftmaxGradient>(*context);
}
