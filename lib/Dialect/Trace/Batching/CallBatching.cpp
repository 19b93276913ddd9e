//===- CallBatching.cpp - Rules of calls and gradient ops -----------------===//
//
// A call batches its callee (with the same arguments batched); results
// that do not vary across the batch stay unbatched. A gradient
// op of a batched function is the gradient op of the batched callee: the
// examples are independent, so the vector-Jacobian product of the batched
// function seeded with ones gives every example's gradient, once the
// differentiated arguments are batched too (a per-example gradient with
// respect to an unbatched argument is still one per example). vmap of grad
// is thus per-example gradients, and vmap of jvp forward-mode Jacobians.
//
//===----------------------------------------------------------------------===//

#include "BatchingRules.h"

#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

struct CallBatching
    : BatchableOpInterface::ExternalModel<CallBatching, func::CallOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto call = cast<func::CallOp>(op);
    // A function with a custom gradient is called once per example: its
    // rule (trace.custom_vjp) holds for one example's arguments.
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, call.getCalleeAttr());
    if (callee && callee->hasAttr(kCustomVjpAttrName))
      return state.emitLoop(builder, op);
    SmallVector<bool> batchedArgs;
    SmallVector<Value> operands;
    for (Value operand : call.getOperands()) {
      batchedArgs.push_back(state.isBatched(operand));
      operands.push_back(state.lookup(operand));
    }
    FailureOr<BatchedFunction> batchedCallee =
        state.batchedCallee(op->getLoc(), call.getCalleeAttr(), batchedArgs,
                            /*batchAllResults=*/false);
    if (failed(batchedCallee))
      return failure();
    auto batched = func::CallOp::create(builder, op->getLoc(),
                                        batchedCallee->func, operands);
    for (auto [original, value, isBatched] :
         llvm::zip(call.getResults(), batched.getResults(),
                   batchedCallee->batchedResults))
      state.map(original, value, isBatched);
    return success();
  }
};

/// The batched callee of gradient op `request` and its arguments, batched
/// where they were or are differentiated.
struct BatchedRequest {
  func::FuncOp callee;
  SmallVector<Value> args;
};

FailureOr<BatchedRequest> batchRequest(GradientRequestOpInterface request,
                                       OpBuilder &builder, BatchState &state) {
  Operation *op = request.getOperation();
  if (!request.getAfter().empty())
    return op->emitOpError("touches state and cannot be batched (vmap)");
  SmallVector<bool> batchedArgs;
  BatchedRequest batched;
  ArrayRef<int64_t> wrt = request.getWrt();
  for (auto [i, arg] : llvm::enumerate(request.getArgs())) {
    bool isBatched =
        state.isBatched(arg) || llvm::is_contained(wrt, (int64_t)i);
    batchedArgs.push_back(isBatched);
    batched.args.push_back(isBatched ? state.materialize(builder, arg)
                                     : state.lookup(arg));
  }
  // The differentiated function's results all batched: one cotangent
  // (tangent) per example.
  FailureOr<BatchedFunction> callee =
      state.batchedCallee(op->getLoc(), request.getCalleeAttr(), batchedArgs,
                          /*batchAllResults=*/true);
  if (failed(callee))
    return failure();
  batched.callee = callee->func;
  return batched;
}

void mapAll(ValueRange originals, ValueRange values, BatchState &state) {
  for (auto [original, value] : llvm::zip_equal(originals, values))
    state.map(original, value, /*batched=*/true);
}

/// grad and value_and_grad: a vjp of the batched loss seeded with ones.
template <typename Op>
struct ScalarLossBatching
    : BatchableOpInterface::ExternalModel<ScalarLossBatching<Op>, Op> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto request = cast<GradientRequestOpInterface>(op);
    FailureOr<BatchedRequest> batched = batchRequest(request, builder, state);
    if (failed(batched))
      return failure();
    SmallVector<Value> seeds = request.buildSeedCotangents(
        builder, batched->callee.getFunctionType().getResults());
    auto vjp = VjpOp::create(builder, op->getLoc(), batched->callee,
                             batched->args, seeds, request.getWrt());
    vjp.setUnconnected(cast<Op>(op).getUnconnected());
    // grad: the gradients; value_and_grad: the losses, then the gradients.
    ValueRange results = vjp.getResults();
    mapAll(op->getResults(),
           results.drop_front(results.size() - op->getNumResults()), state);
    return success();
  }
};

struct VjpBatching : BatchableOpInterface::ExternalModel<VjpBatching, VjpOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto vjp = cast<VjpOp>(op);
    FailureOr<BatchedRequest> batched =
        batchRequest(cast<GradientRequestOpInterface>(op), builder, state);
    if (failed(batched))
      return failure();
    SmallVector<Value> cotangents;
    for (Value cotangent : vjp.getCotangents())
      cotangents.push_back(state.materialize(builder, cotangent));
    auto result = VjpOp::create(builder, op->getLoc(), batched->callee,
                                batched->args, cotangents, vjp.getWrt());
    result.setUnconnected(vjp.getUnconnected());
    mapAll(vjp.getResults(), result.getResults(), state);
    return success();
  }
};

struct JvpBatching : BatchableOpInterface::ExternalModel<JvpBatching, JvpOp> {
  LogicalResult emitBatched(Operation *op, OpBuilder &builder,
                            BatchState &state) const {
    auto jvp = cast<JvpOp>(op);
    FailureOr<BatchedRequest> batched =
        batchRequest(cast<GradientRequestOpInterface>(op), builder, state);
    if (failed(batched))
      return failure();
    SmallVector<Value> tangents;
    for (Value tangent : jvp.getTangents())
      tangents.push_back(state.materialize(builder, tangent));
    auto result = JvpOp::create(builder, op->getLoc(), batched->callee,
                                batched->args, tangents, jvp.getWrt());
    mapAll(jvp.getResults(), result.getResults(), state);
    return success();
  }
};

} // namespace

void mlir::trace::registerCallBatching(MLIRContext *context) {
  func::CallOp::attachInterface<CallBatching>(*context);
}

void mlir::trace::registerGradientRequestBatching(MLIRContext *context) {
  GradOp::attachInterface<ScalarLossBatching<GradOp>>(*context);
  ValueAndGradOp::attachInterface<ScalarLossBatching<ValueAndGradOp>>(
      *context);
  VjpOp::attachInterface<VjpBatching>(*context);
  JvpOp::attachInterface<JvpBatching>(*context);
}
