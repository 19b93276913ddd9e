//===- ReductionGradients.cpp - Rules of the reductions -------------------===//
//
// A reduction's cotangent is broadcast back over the reduced axes: reshape
// to the keepdims shape, then broadcast_to the input's shape.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// dy, reshaped to keep the reduced dims as 1s and broadcast to `input`'s
/// shape.
Value expandToInput(GradientBuilder &g, Value dy, Value input,
                    ArrayRef<int64_t> axes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> kept(inputType.getShape());
  for (int64_t axis : axes)
    kept[*normalizeAxis(axis, rank)] = 1;
  auto dyType = cast<RankedTensorType>(dy.getType());
  if (dyType.getShape() != ArrayRef<int64_t>(kept))
    dy = ReshapeOp::create(g.builder, g.loc, dyType.clone(kept), dy);
  if (cast<RankedTensorType>(dy.getType()) == inputType)
    return dy;
  return BroadcastToOp::create(g.builder, g.loc, inputType, dy);
}

template <typename OpTy>
struct SumLikeGradient
    : DifferentiableOpInterface::ExternalModel<SumLikeGradient<OpTy>, OpTy> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto reduce = cast<OpTy>(op);
    GradientBuilder g(builder, op->getLoc());
    Value dx = expandToInput(g, state.cotangent(reduce.getResult()),
                             reduce.getX(), reduce.getAxes());
    if constexpr (std::is_same_v<OpTy, ReduceMeanOp>) {
      auto type = cast<RankedTensorType>(reduce.getX().getType());
      int64_t count = 1;
      for (int64_t axis : reduce.getAxes())
        count *= type.getDimSize(*normalizeAxis(axis, type.getRank()));
      dx = g.div(dx, g.constant(static_cast<double>(count), dx));
    }
    return state.accumulate(reduce.getX(), dx);
  }
};

} // namespace

void mlir::trace::registerReductionGradients(MLIRContext *context) {
  ReduceSumOp::attachInterface<SumLikeGradient<ReduceSumOp>>(*context);
  ReduceMeanOp::attachInterface<SumLikeGradient<ReduceMeanOp>>(*context);
}
