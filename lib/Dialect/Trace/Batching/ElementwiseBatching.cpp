//===- ElementwiseBatching.cpp - Rules of elementwise ops and reductions --===//
//
// Elementwise ops and matmul broadcast their operands as NumPy does, so a
// leading batch dim rides along: batched operands of lower rank get unit
// dims after it, and the result is the original's with the batch dim in
// front (matmul's leading dims are batch dims of the same kind). The
// reductions and the ops along one axis keep their dims, one further on.
//
//===----------------------------------------------------------------------===//

#include "BatchingRules.h"

#include "tracec/Dialect/Trace/Batching/Batching.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trace;

FailureOr<Value> mlir::trace::alignedOperand(OpBuilder &builder, Location loc,
                                             BatchState &state, Value operand,
                                             int64_t rank) {
  Value value = state.lookup(operand);
  auto type = cast<RankedTensorType>(operand.getType());
  if (!state.isBatched(operand) || type.getRank() == rank)
    return value;
  if (!type.hasStaticShape())
    return emitError(loc) << "vmap: cannot broadcast a batched " << type
                          << " against operands of rank " << rank
                          << " with dynamic dims";
  SmallVector<int64_t> shape = {state.batchSize()};
  shape.append(rank - type.getRank(), 1);
  llvm::append_range(shape, type.getShape());
  return ReshapeOp::create(builder, loc, value, shape).getResult();
}

Operation *mlir::trace::rebuild(OpBuilder &builder, Operation *op,
                                ValueRange operands, TypeRange resultTypes,
                                ArrayRef<NamedAttribute> replaced) {
  NamedAttrList attributes(op->getAttrs());
  for (NamedAttribute attribute : replaced)
    attributes.set(attribute.getName(), attribute.getValue());
  OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                       attributes.getAttrs());
  return builder.create(state);
}

/// The original's result types with the batch dim in front.
static SmallVector<Type> batchedResultTypes(Operation *op, BatchState &state) {
  SmallVector<Type> types;
  for (Type type : op->getResultTypes())
    types.push_back(withBatchDim(type, state.batchSize()));
  return types;
}

static void mapBatchedResults(Operation *op, Operation *batched,
                              BatchState &state) {
  for (auto [original, value] :
       llvm::zip(op->getResults(), batched->getResults()))
    state.map(original, value, /*batched=*/true);
}

namespace {

/// Elementwise ops (NumPy broadcasting) and matmul (broadcast batch dims).
template <typename Op>
struct BroadcastingBatching
    : BatchableOpInterface::ExternalModel<BroadcastingBatching<Op>, Op> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    int64_t rank = 0;
    for (Value operand : op->getOperands())
      rank = std::max(rank,
                      cast<RankedTensorType>(operand.getType()).getRank());
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> aligned =
          alignedOperand(builder, op->getLoc(), state, operand, rank);
      if (failed(aligned))
        return failure();
      operands.push_back(*aligned);
    }
    mapBatchedResults(
        op, rebuild(builder, op, operands, batchedResultTypes(op, state)),
        state);
    return success();
  }
};

/// A dim of the original as a dim of the batched form: one further on,
/// unless it counts from the end.
int64_t shiftedDim(int64_t dim) { return dim < 0 ? dim : dim + 1; }

/// Reductions over `axes` (all dims without them): the same dims, one
/// further on.
template <typename Op>
struct AxesBatching : BatchableOpInterface::ExternalModel<AxesBatching<Op>, Op> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto reduction = cast<Op>(op);
    SmallVector<int64_t> axes;
    for (int64_t axis : reduction.getAxes())
      axes.push_back(shiftedDim(axis));
    Value x = state.materialize(builder, reduction.getX());
    Operation *batched =
        rebuild(builder, op, x, batchedResultTypes(op, state),
                {builder.getNamedAttr(reduction.getAxesAttrName(),
                                      builder.getDenseI64ArrayAttr(axes))});
    mapBatchedResults(op, batched, state);
    return success();
  }
};

/// Ops along one `axis` (argmax, softmax, log_softmax, concat, one_hot's
/// new dim): every
/// operand batched, the axis one further on.
template <typename Op>
struct AxisBatching : BatchableOpInterface::ExternalModel<AxisBatching<Op>, Op> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto axisOp = cast<Op>(op);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(state.materialize(builder, operand));
    Operation *batched = rebuild(
        builder, op, operands, batchedResultTypes(op, state),
        {builder.getNamedAttr(
            axisOp.getAxisAttrName(),
            builder.getI64IntegerAttr(shiftedDim(axisOp.getAxis())))});
    mapBatchedResults(op, batched, state);
    return success();
  }
};

template <typename... Ops>
void attachBroadcasting(MLIRContext *context) {
  (Ops::template attachInterface<BroadcastingBatching<Ops>>(*context), ...);
}

template <typename... Ops> void attachAxes(MLIRContext *context) {
  (Ops::template attachInterface<AxesBatching<Ops>>(*context), ...);
}

template <typename... Ops> void attachAxis(MLIRContext *context) {
  (Ops::template attachInterface<AxisBatching<Ops>>(*context), ...);
}

} // namespace

void mlir::trace::registerBatchingRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, TraceDialect *) {
    attachBroadcasting<NegOp, AbsOp, ExpOp, LogOp, Log1pOp, SqrtOp, RsqrtOp,
                       TanhOp, SigmoidOp, ReluOp, GeluOp, ErfOp, SinOp, CosOp,
                       SignOp, FloorOp, AsinOp, AcosOp, AtanOp, AsinhOp,
                       AcoshOp, AtanhOp, Atan2Op, AddOp, SubOp, MulOp, DivOp,
                       RemOp, PowOp, MaxOp, MinOp, EqOp, NeOp, LtOp, LeOp, GtOp,
                       GeOp, SelectOp, CastOp, StopGradientOp, MatmulOp>(
        context);
    attachAxes<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp,
               ReduceProdOp, ReduceLogSumExpOp>(context);
    attachAxis<ArgmaxOp, SoftmaxOp, LogSoftmaxOp, ConcatOp, OneHotOp, SortOp>(
        context);
    registerShapeBatching(context);
    registerConvPoolBatching(context);
    registerGradientRequestBatching(context);
  });
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    registerCallBatching(context);
  });
  registry.addExtension(+[](MLIRContext *context, scf::SCFDialect *) {
    registerControlFlowBatching(context);
  });
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    registerTensorBatching(context);
  });
}
