//===- ConvPoolBatching.cpp - Rules of convolutions and pooling -----------===//
//
// Convolutions and pooling already map over their images' leading N dim:
// a batch of NHWC images [B, N, H, W, C] is the images [B*N, H, W, C], and
// the result's leading dim splits back into [B, N]. So a batched image
// operand folds into N, with the filter the same for every example (a
// filter per example, as in per-example filter gradients, runs once per
// example).
//
//===----------------------------------------------------------------------===//

#include "BatchingRules.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// `shape` with its first two dims (batch and N) as one.
SmallVector<int64_t> folded(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result(shape.drop_front());
  result[0] *= shape[0];
  return result;
}

/// The rule of an op whose operands at `Images` are NHWC images (folded)
/// and whose other operands (a filter) must be the same for every example.
template <typename OpT, unsigned... Images>
struct FoldIntoImages
    : BatchableOpInterface::ExternalModel<FoldIntoImages<OpT, Images...>,
                                          OpT> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType.hasStaticShape())
      return state.emitLoop(builder, op);
    SmallVector<Value> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      bool image = ((i == Images) || ...);
      if (!image) {
        if (state.isBatched(operand))
          return state.emitLoop(builder, op);
        operands.push_back(state.lookup(operand));
        continue;
      }
      auto type = cast<RankedTensorType>(operand.getType());
      if (!type.hasStaticShape())
        return state.emitLoop(builder, op);
      Value batched = state.materialize(builder, operand);
      operands.push_back(ReshapeOp::create(
          builder, loc, batched,
          folded(cast<RankedTensorType>(batched.getType()).getShape())));
    }
    SmallVector<int64_t> batchedShape(
        withBatchDim(resultType, state.batchSize()).getShape());
    SmallVector<NamedAttribute> replaced;
    // conv2d_backprop_input's optional input shape: its N grows too.
    if (auto inputShape = op->getAttrOfType<DenseI64ArrayAttr>("input_shape")) {
      SmallVector<int64_t> shape(inputShape.asArrayRef());
      shape[0] *= state.batchSize();
      replaced.push_back(builder.getNamedAttr(
          "input_shape", builder.getDenseI64ArrayAttr(shape)));
    }
    Operation *batched = rebuild(builder, op, operands,
                                 resultType.clone(folded(batchedShape)),
                                 replaced);
    state.map(op->getResult(0),
              ReshapeOp::create(builder, loc, batched->getResult(0),
                                batchedShape),
              /*batched=*/true);
    return success();
  }
};

} // namespace

void mlir::trace::registerConvPoolBatching(MLIRContext *context) {
  Conv2DOp::attachInterface<FoldIntoImages<Conv2DOp, 0>>(*context);
  Conv2DBackpropInputOp::attachInterface<
      FoldIntoImages<Conv2DBackpropInputOp, 1>>(*context);
  MaxPool2DOp::attachInterface<FoldIntoImages<MaxPool2DOp, 0>>(*context);
  AvgPool2DOp::attachInterface<FoldIntoImages<AvgPool2DOp, 0>>(*context);
  MaxPool2DGradOp::attachInterface<FoldIntoImages<MaxPool2DGradOp, 0, 1>>(
      *context);
}
