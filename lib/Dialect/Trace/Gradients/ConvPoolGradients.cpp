//===- ConvPoolGradients.cpp - Rules of conv2d and pooling ----------------===//
//
// As in TensorFlow, the gradients are dedicated backprop ops:
//   conv2d(x, F)      -> dx = conv2d_backprop_input(F, dy),
//                        dF = conv2d_backprop_filter(x, dy)
//   max_pool2d(x)     -> dx = max_pool2d_grad(x, dy) (first maximum wins;
//                        tangent: t_y = max_pool2d_select(x, t_x))
//   avg_pool2d(x)     -> dx = avg_pool2d_grad(dy)
// The backprop ops take the shape of the operand they differentiate: its
// static shape, or for an input with `?` dims the input itself (`like`),
// whose run-time shape the cotangent takes. A filter with `?` dims is
// reported.
//
// The linear backprop ops are differentiable too (grad of grad): both conv2d
// backprop ops are bilinear, and avg_pool2d_grad is the adjoint of
// avg_pool2d, so their adjoints are conv2d, the other backprop op and
// avg_pool2d. max_pool2d_grad is linear in dy (the argmax is piecewise
// constant in x): its adjoint is max_pool2d_select(x, c), which picks each
// window's value at the argmax, and whose adjoint is max_pool2d_grad again,
// so max pooling has derivatives of every order.
//
// Forward mode: conv2d and the conv2d backprop ops are bilinear, avg_pool2d
// and avg_pool2d_grad linear: their tangents re-apply the op to the
// tangents (LinearTangents.cpp). max_pool2d's tangent picks each window's
// argmax element of the input's tangent (max_pool2d_select(x, t_x));
// max_pool2d_grad and max_pool2d_select are linear in their second operand
// (the argmax is fixed by x): their tangents re-apply them to its tangent.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The static shape of `value`, or an error at `op` naming `what`.
FailureOr<ArrayRef<int64_t>> staticShape(Operation *op, Value value,
                                         StringRef what) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.hasStaticShape())
    return type.getShape();
  return op->emitError("cannot differentiate '")
         << op->getName() << "' with respect to its " << what
         << ": its shape " << type << " is not static";
}

/// conv2d_backprop_input with the input's static shape, or `like` its
/// primal `input` where the original `original` has `?` dims.
Value backpropInput(OpBuilder &builder, Location loc, Value filter, Value dy,
                    Value original, Value input, ArrayRef<int64_t> strides,
                    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations) {
  auto type = cast<RankedTensorType>(original.getType());
  bool known = type.hasStaticShape();
  return Conv2DBackpropInputOp::create(
      builder, loc, filter, dy, known ? Value() : input,
      known ? builder.getDenseI64ArrayAttr(type.getShape())
            : DenseI64ArrayAttr(),
      builder.getDenseI64ArrayAttr(strides),
      builder.getDenseI64ArrayAttr(padding),
      builder.getDenseI64ArrayAttr(dilations));
}

struct Conv2DGradient
    : DifferentiableOpInterface::ExternalModel<Conv2DGradient, Conv2DOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto conv = cast<Conv2DOp>(op);
    Value dy = state.cotangent(conv.getResult());
    if (!dy)
      return success();
    Value x = state.primal(conv.getInput());
    Value filter = state.primal(conv.getFilter());
    // Only the cotangents that are wanted are built: the filter's needs a
    // static filter shape.
    if (state.isActive(conv.getInput())) {
      Value dx = backpropInput(builder, op->getLoc(), filter, dy,
                               conv.getInput(), x, conv.getStrides(),
                               conv.getPadding(), conv.getDilations());
      if (failed(state.accumulate(conv.getInput(), dx)))
        return failure();
    }
    if (!state.isActive(conv.getFilter()))
      return success();
    FailureOr<ArrayRef<int64_t>> filterShape =
        staticShape(op, conv.getFilter(), "filter");
    if (failed(filterShape))
      return failure();
    Value dFilter = Conv2DBackpropFilterOp::create(
        builder, op->getLoc(), x, dy, *filterShape, conv.getStrides(),
        conv.getPadding(), conv.getDilations());
    return state.accumulate(conv.getFilter(), dFilter);
  }

  /// Bilinear in (input, filter).
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitMultilinearTangent(op, builder, state, {{0}, {1}});
  }
};

struct MaxPool2DGradient
    : DifferentiableOpInterface::ExternalModel<MaxPool2DGradient,
                                               MaxPool2DOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto pool = cast<MaxPool2DOp>(op);
    Value dy = state.cotangent(pool.getResult());
    if (!dy)
      return success();
    Value dx = MaxPool2DGradOp::create(
        builder, op->getLoc(), state.primal(pool.getInput()), dy,
        pool.getWindow(), pool.getStrides(), pool.getPadding());
    return state.accumulate(pool.getInput(), dx);
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto pool = cast<MaxPool2DOp>(op);
    Value tx = state.tangent(pool.getInput());
    if (!tx)
      return success();
    Value ty = MaxPool2DSelectOp::create(
        builder, op->getLoc(), state.primal(pool.getInput()), tx,
        pool.getWindow(), pool.getStrides(), pool.getPadding());
    return state.setTangent(pool.getResult(), ty);
  }
};

struct AvgPool2DGradient
    : DifferentiableOpInterface::ExternalModel<AvgPool2DGradient,
                                               AvgPool2DOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto pool = cast<AvgPool2DOp>(op);
    Value dy = state.cotangent(pool.getResult());
    if (!dy)
      return success();
    auto type = cast<RankedTensorType>(pool.getInput().getType());
    bool known = type.hasStaticShape();
    Value dx = AvgPool2DGradOp::create(
        builder, op->getLoc(), dy,
        known ? Value() : state.primal(pool.getInput()),
        known ? builder.getDenseI64ArrayAttr(type.getShape())
              : DenseI64ArrayAttr(),
        pool.getWindowAttr(), pool.getStridesAttr(), pool.getPaddingAttr());
    return state.accumulate(pool.getInput(), dx);
  }
  /// Linear: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<AvgPool2DOp>(op).getInput());
  }
};

/// y = conv2d_backprop_input(F, dy): d dy = conv2d(c, F),
/// dF = conv2d_backprop_filter(c, dy).
struct Conv2DBackpropInputGradient
    : DifferentiableOpInterface::ExternalModel<Conv2DBackpropInputGradient,
                                               Conv2DBackpropInputOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto backprop = cast<Conv2DBackpropInputOp>(op);
    Value ct = state.cotangent(backprop.getResult());
    if (!ct)
      return success();
    FailureOr<ArrayRef<int64_t>> filterShape =
        staticShape(op, backprop.getFilter(), "filter");
    if (failed(filterShape))
      return failure();
    Value filter = state.primal(backprop.getFilter());
    Value dy = state.primal(backprop.getDy());
    Value dDy = Conv2DOp::create(builder, op->getLoc(), ct, filter,
                                 backprop.getStrides(), backprop.getPadding(),
                                 backprop.getDilations());
    if (failed(state.accumulate(backprop.getDy(), dDy)))
      return failure();
    Value dFilter = Conv2DBackpropFilterOp::create(
        builder, op->getLoc(), ct, dy, *filterShape, backprop.getStrides(),
        backprop.getPadding(), backprop.getDilations());
    return state.accumulate(backprop.getFilter(), dFilter);
  }

  /// Bilinear in (filter, dy); `like` gives only a shape.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitMultilinearTangent(op, builder, state, {{0}, {1}});
  }
};

/// y = conv2d_backprop_filter(x, dy): d dy = conv2d(x, c),
/// dx = conv2d_backprop_input(c, dy).
struct Conv2DBackpropFilterGradient
    : DifferentiableOpInterface::ExternalModel<Conv2DBackpropFilterGradient,
                                               Conv2DBackpropFilterOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto backprop = cast<Conv2DBackpropFilterOp>(op);
    Value ct = state.cotangent(backprop.getResult());
    if (!ct)
      return success();
    Value x = state.primal(backprop.getInput());
    Value dy = state.primal(backprop.getDy());
    Value dDy = Conv2DOp::create(builder, op->getLoc(), x, ct,
                                 backprop.getStrides(), backprop.getPadding(),
                                 backprop.getDilations());
    if (failed(state.accumulate(backprop.getDy(), dDy)))
      return failure();
    Value dx = backpropInput(builder, op->getLoc(), ct, dy,
                             backprop.getInput(), x, backprop.getStrides(),
                             backprop.getPadding(), backprop.getDilations());
    return state.accumulate(backprop.getInput(), dx);
  }

  /// Bilinear in (input, dy).
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitMultilinearTangent(op, builder, state, {{0}, {1}});
  }
};

/// y = avg_pool2d_grad(dy) is linear with adjoint avg_pool2d.
struct AvgPool2DGradGradient
    : DifferentiableOpInterface::ExternalModel<AvgPool2DGradGradient,
                                               AvgPool2DGradOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto grad = cast<AvgPool2DGradOp>(op);
    Value ct = state.cotangent(grad.getResult());
    if (!ct)
      return success();
    Value dDy = AvgPool2DOp::create(builder, op->getLoc(), ct, grad.getWindow(),
                                    grad.getStrides(), grad.getPadding());
    return state.accumulate(grad.getDy(), dDy);
  }
  /// Linear: the op applied to the tangent.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<AvgPool2DGradOp>(op).getDy());
  }
};

/// y = max_pool2d_grad(x, dy): d dy = max_pool2d_select(x, c); dx = 0 (the
/// argmax does not move under small changes of x, ties aside).
/// Tangent (forward mode): t_y = max_pool2d_grad(x, t_dy).
struct MaxPool2DGradGradient
    : DifferentiableOpInterface::ExternalModel<MaxPool2DGradGradient,
                                               MaxPool2DGradOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto grad = cast<MaxPool2DGradOp>(op);
    Value ct = state.cotangent(grad.getResult());
    if (!ct || !state.isActive(grad.getDy()))
      return success();
    Value dDy = MaxPool2DSelectOp::create(
        builder, op->getLoc(), state.primal(grad.getInput()), ct,
        grad.getWindow(), grad.getStrides(), grad.getPadding());
    return state.accumulate(grad.getDy(), dDy);
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<MaxPool2DGradOp>(op).getDy());
  }
};

/// y = max_pool2d_select(x, t): dt = max_pool2d_grad(x, c); dx = 0.
/// Tangent (forward mode): t_y = max_pool2d_select(x, t_t).
struct MaxPool2DSelectGradient
    : DifferentiableOpInterface::ExternalModel<MaxPool2DSelectGradient,
                                               MaxPool2DSelectOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto select = cast<MaxPool2DSelectOp>(op);
    Value ct = state.cotangent(select.getResult());
    if (!ct || !state.isActive(select.getT()))
      return success();
    Value dT = MaxPool2DGradOp::create(
        builder, op->getLoc(), state.primal(select.getInput()), ct,
        select.getWindow(), select.getStrides(), select.getPadding());
    return state.accumulate(select.getT(), dT);
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitLinearTangent(op, builder, state,
                             cast<MaxPool2DSelectOp>(op).getT());
  }
};

} // namespace

void mlir::trace::registerConvPoolGradients(MLIRContext *context) {
  Conv2DOp::attachInterface<Conv2DGradient>(*context);
  MaxPool2DOp::attachInterface<MaxPool2DGradient>(*context);
  AvgPool2DOp::attachInterface<AvgPool2DGradient>(*context);
  Conv2DBackpropInputOp::attachInterface<Conv2DBackpropInputGradient>(
      *context);
  Conv2DBackpropFilterOp::attachInterface<Conv2DBackpropFilterGradient>(
      *context);
  AvgPool2DGradOp::attachInterface<AvgPool2DGradGradient>(*context);
  MaxPool2DGradOp::attachInterface<MaxPool2DGradGradient>(*context);
  MaxPool2DSelectOp::attachInterface<MaxPool2DSelectGradient>(*context);
}
