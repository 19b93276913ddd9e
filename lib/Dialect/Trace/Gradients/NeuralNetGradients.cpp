//===- NeuralNetGradients.cpp - Rules of conv2d and pooling ---------------===//
//
// As in TensorFlow, the gradients are dedicated backprop ops:
//   conv2d(x, F)      -> dx = conv2d_backprop_input(F, dy),
//                        dF = conv2d_backprop_filter(x, dy)
//   max_pool2d(x)     -> dx = max_pool2d_grad(x, dy) (first maximum wins)
//   avg_pool2d(x)     -> dx = avg_pool2d_grad(dy)
// The backprop ops take the static shape of the operand they differentiate;
// a dynamic one is reported.
//
// The linear backprop ops are differentiable too (grad of grad): both conv2d
// backprop ops are bilinear, and avg_pool2d_grad is the adjoint of
// avg_pool2d, so their adjoints are conv2d, the other backprop op and
// avg_pool2d. max_pool2d_grad has no rule.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

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
    // Each backprop op needs the static shape of what it differentiates,
    // so only the cotangents that are wanted are built: the filter's
    // gradient over a `?` batch needs no static input shape.
    if (state.isActive(conv.getInput())) {
      FailureOr<ArrayRef<int64_t>> inputShape =
          staticShape(op, conv.getInput(), "input");
      if (failed(inputShape))
        return failure();
      Value dx = Conv2DBackpropInputOp::create(
          builder, op->getLoc(), filter, dy, *inputShape, conv.getStrides(),
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
    FailureOr<ArrayRef<int64_t>> inputShape =
        staticShape(op, pool.getInput(), "input");
    if (failed(inputShape))
      return failure();
    Value dx = AvgPool2DGradOp::create(builder, op->getLoc(), dy, *inputShape,
                                       pool.getWindow(), pool.getStrides(),
                                       pool.getPadding());
    return state.accumulate(pool.getInput(), dx);
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
    FailureOr<ArrayRef<int64_t>> inputShape =
        staticShape(op, backprop.getInput(), "input");
    if (failed(inputShape))
      return failure();
    Value x = state.primal(backprop.getInput());
    Value dy = state.primal(backprop.getDy());
    Value dDy = Conv2DOp::create(builder, op->getLoc(), x, ct,
                                 backprop.getStrides(), backprop.getPadding(),
                                 backprop.getDilations());
    if (failed(state.accumulate(backprop.getDy(), dDy)))
      return failure();
    Value dx = Conv2DBackpropInputOp::create(
        builder, op->getLoc(), ct, dy, *inputShape, backprop.getStrides(),
        backprop.getPadding(), backprop.getDilations());
    return state.accumulate(backprop.getInput(), dx);
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
};

} // namespace

void mlir::trace::registerNeuralNetGradients(MLIRContext *context) {
  Conv2DOp::attachInterface<Conv2DGradient>(*context);
  MaxPool2DOp::attachInterface<MaxPool2DGradient>(*context);
  AvgPool2DOp::attachInterface<AvgPool2DGradient>(*context);
  Conv2DBackpropInputOp::attachInterface<Conv2DBackpropInputGradient>(
      *context);
  Conv2DBackpropFilterOp::attachInterface<Conv2DBackpropFilterGradient>(
      *context);
  AvgPool2DGradOp::attachInterface<AvgPool2DGradGradient>(*context);
}
