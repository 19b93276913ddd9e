//===- ControlFlowBatching.cpp - Rules of scf.if and its condition --------===//
//
// A traced cond is `tensor.extract` of a rank-0 i1 tensor and an scf.if on
// it. Under vmap the extract of a batched condition stays a tensor (one
// condition per example), and an scf.if on it runs both branches and
// selects per example, as JAX's batching of cond does (the branches are
// pure: vmap refuses state). An scf.if whose condition is the same for
// every example but whose branches read batched values stays an scf.if,
// its branches batched.
//
//===----------------------------------------------------------------------===//

#include "BatchingRules.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// tensor.extract of a batched rank-0 tensor: the batch's values, as a
/// rank-1 tensor (how a batched scalar is represented).
struct ExtractBatching
    : BatchableOpInterface::ExternalModel<ExtractBatching, tensor::ExtractOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto extract = cast<tensor::ExtractOp>(op);
    if (extract.getTensor().getType().getRank() != 0)
      return op->emitOpError("has no batching rule for tensors of rank > 0: "
                             "vmap maps only the extract of a scalar (a "
                             "cond's condition)");
    state.map(extract.getResult(), state.lookup(extract.getTensor()),
              /*batched=*/true);
    return success();
  }
};

struct IfBatching : BatchableOpInterface::ExternalModel<IfBatching, scf::IfOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto ifOp = cast<scf::IfOp>(op);
    Location loc = op->getLoc();
    SmallVector<Type> types;
    for (Type type : ifOp.getResultTypes()) {
      if (!isa<RankedTensorType>(type))
        return op->emitOpError("cannot be batched (vmap): it yields a ")
               << type;
      types.push_back(withBatchDim(type, state.batchSize()));
    }
    auto thenYield = cast<scf::YieldOp>(ifOp.thenBlock()->getTerminator());
    if (!state.isBatched(ifOp.getCondition())) {
      // One branch for the whole batch, batched.
      auto batched = scf::IfOp::create(builder, loc, types,
                                       state.lookup(ifOp.getCondition()),
                                       /*withElseRegion=*/ifOp.elseBlock());
      for (auto [from, to] :
           llvm::zip(op->getRegions(), batched->getRegions())) {
        if (from.empty())
          continue;
        // (The builder gives a region a terminator only when the op has no
        // results.)
        Block &block = to.front();
        if (block.mightHaveTerminator())
          block.getTerminator()->erase();
        OpBuilder inner = OpBuilder::atBlockEnd(&block);
        if (failed(state.emitBlock(inner, from.front())))
          return failure();
        SmallVector<Value> yields;
        for (Value value : from.front().getTerminator()->getOperands())
          yields.push_back(state.materialize(inner, value));
        scf::YieldOp::create(inner, loc, yields);
      }
      for (auto [original, value] :
           llvm::zip(ifOp.getResults(), batched.getResults()))
        state.map(original, value, /*batched=*/true);
      return success();
    }
    // A condition per example: both branches, then a select per example.
    if (failed(state.emitBlock(builder, *ifOp.thenBlock())))
      return failure();
    if (ifOp.getNumResults() == 0)
      return success();
    if (failed(state.emitBlock(builder, *ifOp.elseBlock())))
      return failure();
    auto elseYield = cast<scf::YieldOp>(ifOp.elseBlock()->getTerminator());
    Value condition = state.lookup(ifOp.getCondition());
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      auto type = cast<RankedTensorType>(types[i]);
      SmallVector<int64_t> shape(type.getRank(), 1);
      shape[0] = state.batchSize();
      Value aligned = ReshapeOp::create(builder, loc, condition, shape);
      Value selected = SelectOp::create(
          builder, loc, type, aligned,
          state.materialize(builder, thenYield.getOperand(i)),
          state.materialize(builder, elseYield.getOperand(i)));
      state.map(result, selected, /*batched=*/true);
    }
    return success();
  }
};

} // namespace

void mlir::trace::registerTensorBatching(MLIRContext *context) {
  tensor::ExtractOp::attachInterface<ExtractBatching>(*context);
}

void mlir::trace::registerControlFlowBatching(MLIRContext *context) {
  scf::IfOp::attachInterface<IfBatching>(*context);
}
