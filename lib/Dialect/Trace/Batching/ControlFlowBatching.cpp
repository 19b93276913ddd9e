//===- ControlFlowBatching.cpp - Rules of scf.if, scf.for, scf.while -----===//
//
// A traced cond is `tensor.extract` of a rank-0 i1 tensor and an scf.if on
// it. Under vmap the extract of a batched condition stays a tensor (one
// condition per example: TensorBatching.cpp), and an scf.if on it runs both
// branches and selects per example, as JAX's batching of cond does (the
// branches are pure: vmap refuses state). An scf.if whose condition is the same for
// every example but whose branches read batched values stays an scf.if,
// its branches batched. A loop whose trip count is the same for every
// example (fori_loop, scan) stays one loop, its body batched; its carried
// values batched where they vary (a fixed point: a carry that starts
// unbatched and becomes batched in the body is batched throughout). So
// does a while loop whose condition is the same for every example (a
// Hessian's columns through a while_loop: the tangents vary, the primal
// does not). A loop with a trip count or condition per example runs once
// per example (the fallback).
//
//===----------------------------------------------------------------------===//

#include "BatchingRules.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

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

struct ForBatching
    : BatchableOpInterface::ExternalModel<ForBatching, scf::ForOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto loop = cast<scf::ForOp>(op);
    if (state.isBatched(loop.getLowerBound()) ||
        state.isBatched(loop.getUpperBound()) ||
        state.isBatched(loop.getStep()))
      return state.emitLoop(builder, op);
    SmallVector<bool> batched;
    for (Value init : loop.getInitArgs())
      batched.push_back(state.isBatched(init));
    // Each try batches the carries that became batched in the last one;
    // the set only grows, so at most one try per carry.
    for (;;) {
      FailureOr<scf::ForOp> batchedLoop = emitTry(loop, batched, builder,
                                                  state);
      if (failed(batchedLoop))
        return failure();
      if (*batchedLoop) {
        for (auto [original, value, isBatched] :
             llvm::zip(loop.getResults(), batchedLoop->getResults(), batched))
          state.map(original, value, isBatched);
        return success();
      }
    }
  }

  /// The loop with the carries batched where `batched` says; null (and
  /// `batched` updated) where the body makes another carry batched.
  static FailureOr<scf::ForOp> emitTry(scf::ForOp loop,
                                       SmallVector<bool> &batched,
                                       OpBuilder &builder, BatchState &state) {
    SmallVector<Value> inits;
    for (auto [init, isBatched] : llvm::zip(loop.getInitArgs(), batched))
      inits.push_back(isBatched ? state.materialize(builder, init)
                                : state.lookup(init));
    auto batchedLoop = scf::ForOp::create(
        builder, loop.getLoc(), state.lookup(loop.getLowerBound()),
        state.lookup(loop.getUpperBound()), state.lookup(loop.getStep()),
        inits);
    Block *body = batchedLoop.getBody();
    if (body->mightHaveTerminator())
      body->getTerminator()->erase();
    state.map(loop.getInductionVar(), batchedLoop.getInductionVar(),
              /*batched=*/false);
    for (auto [original, value, isBatched] :
         llvm::zip(loop.getRegionIterArgs(), batchedLoop.getRegionIterArgs(),
                   batched))
      state.map(original, value, isBatched);
    OpBuilder inner = OpBuilder::atBlockEnd(body);
    if (failed(state.emitBlock(inner, *loop.getBody())))
      return failure();
    bool grew = false;
    SmallVector<Value> yields;
    for (auto [i, value] : llvm::enumerate(
             loop.getBody()->getTerminator()->getOperands())) {
      if (state.isBatched(value) && !batched[i]) {
        batched[i] = true;
        grew = true;
      }
      yields.push_back(batched[i] ? state.materialize(inner, value)
                                  : state.lookup(value));
    }
    if (grew) {
      batchedLoop.erase();
      return scf::ForOp();
    }
    scf::YieldOp::create(inner, loop.getLoc(), yields);
    return batchedLoop;
  }
};

/// The carried values of `from` mapped to `to` (batched where `batched`
/// says).
void mapCarried(ValueRange from, ValueRange to, ArrayRef<bool> batched,
                BatchState &state) {
  for (auto [original, value, isBatched] : llvm::zip(from, to, batched))
    state.map(original, value, isBatched);
}

/// `values` as a region passes them on, batched where `batched` says;
/// records in `batched` (and `grew`) those that became batched.
SmallVector<Value> passedOn(ValueRange values, SmallVector<bool> &batched,
                            bool &grew, OpBuilder &builder,
                            BatchState &state) {
  SmallVector<Value> passed;
  for (auto [i, value] : llvm::enumerate(values)) {
    if (state.isBatched(value) && !batched[i]) {
      batched[i] = true;
      grew = true;
    }
    passed.push_back(batched[i] ? state.materialize(builder, value)
                                : state.lookup(value));
  }
  return passed;
}

SmallVector<Type> carriedTypes(TypeRange types, ArrayRef<bool> batched,
                               int64_t size) {
  SmallVector<Type> result;
  for (auto [type, isBatched] : llvm::zip(types, batched))
    result.push_back(isBatched ? Type(withBatchDim(type, size)) : type);
  return result;
}

struct WhileBatching
    : BatchableOpInterface::ExternalModel<WhileBatching, scf::WhileOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto loop = cast<scf::WhileOp>(op);
    SmallVector<bool> batchedIn, batchedOut;
    for (Value init : loop.getInits())
      batchedIn.push_back(state.isBatched(init));
    batchedOut.assign(loop.getNumResults(), false);
    // As for scf.for: tries until no carried value becomes batched.
    for (;;) {
      SmallVector<Value> inits;
      for (auto [init, isBatched] : llvm::zip(loop.getInits(), batchedIn))
        inits.push_back(isBatched ? state.materialize(builder, init)
                                  : state.lookup(init));
      int64_t size = state.batchSize();
      auto batched = scf::WhileOp::create(
          builder, loop.getLoc(),
          carriedTypes(loop.getResultTypes(), batchedOut, size), inits);
      Location loc = loop.getLoc();
      SmallVector<Location> inLocs(inits.size(), loc);
      SmallVector<Location> outLocs(loop.getNumResults(), loc);
      Block *before = builder.createBlock(
          &batched.getBefore(), {},
          carriedTypes(loop.getInits().getTypes(), batchedIn, size), inLocs);
      Block *after = builder.createBlock(
          &batched.getAfter(), {},
          carriedTypes(loop.getResultTypes(), batchedOut, size), outLocs);
      builder.setInsertionPointAfter(batched);

      bool grew = false;
      mapCarried(loop.getBeforeArguments(), before->getArguments(), batchedIn,
                 state);
      OpBuilder inner = OpBuilder::atBlockEnd(before);
      if (failed(state.emitBlock(inner, *loop.getBeforeBody())))
        return failure();
      scf::ConditionOp condition = loop.getConditionOp();
      if (state.isBatched(condition.getCondition())) {
        // A condition per example: a trip count per example.
        batched.erase();
        return state.emitLoop(builder, op);
      }
      SmallVector<Value> forwarded = passedOn(
          condition.getArgs(), batchedOut, grew, inner, state);
      scf::ConditionOp::create(inner, loc,
                               state.lookup(condition.getCondition()),
                               forwarded);

      mapCarried(loop.getAfterArguments(), after->getArguments(), batchedOut,
                 state);
      inner.setInsertionPointToEnd(after);
      if (failed(state.emitBlock(inner, *loop.getAfterBody())))
        return failure();
      SmallVector<Value> next = passedOn(loop.getYieldOp().getOperands(),
                                         batchedIn, grew, inner, state);
      scf::YieldOp::create(inner, loc, next);
      if (grew) {
        batched.erase();
        continue;
      }
      mapCarried(loop.getResults(), batched.getResults(), batchedOut, state);
      return success();
    }
  }
};

} // namespace

void mlir::trace::registerControlFlowBatching(MLIRContext *context) {
  scf::IfOp::attachInterface<IfBatching>(*context);
  scf::ForOp::attachInterface<ForBatching>(*context);
  scf::WhileOp::attachInterface<WhileBatching>(*context);
}
