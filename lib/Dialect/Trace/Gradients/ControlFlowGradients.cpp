//===- ControlFlowGradients.cpp - Rules of scf.if and scf.for -------------===//
//
// scf.if: the adjoint is an scf.if on the same condition whose branches
// recompute the taken branch and sweep it backwards, yielding the
// cotangents of the values the branches capture from above.
//
// scf.for: the primal loop also records each iteration's incoming carried
// values on a tape (a tensor with a leading trip-count dim), and the
// results of its contractions where the rematerialization policy saves
// them; the adjoint loop runs the iterations backwards, reads them back
// from the tapes, recomputes the rest of the body and sweeps it, carrying
// the carries' cotangents and summing the captured values' cotangents. Of
// a carry whose contents are never read (a tape of an inner gradient's
// loop: isWriteOnly) only the sizes are taped, and a captured tape's
// cotangent grows by one row per iteration (addCotangent), so a gradient
// through a loop is differentiated again in linear time and memory.
//
// scf.while, whose tape grows while it runs, has its own file
// (WhileGradients.cpp); the helpers they share are in RegionGradients.h.
//
// Forward mode (all three): ControlFlowTangents.cpp.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"
#include "RegionGradients.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Which carried values are write-only (only their sizes are taped).
SmallVector<bool> writeOnlyCarries(scf::ForOp forOp) {
  SmallVector<bool> writeOnly;
  for (BlockArgument carried : forOp.getRegionIterArgs())
    writeOnly.push_back(isWriteOnly(carried, forOp));
  return writeOnly;
}

/// The results of the body's contractions that the rematerialization
/// policy saves (all but `nothing`): taped as well, so that the adjoint
/// reads them back instead of recomputing the contractions (of an LSTM
/// step, the gate and head products: half the adjoint's work). Static
/// float tensors only; the cheap ops around them are still recomputed.
SmallVector<Value> tapedContractions(scf::ForOp forOp, AdjointState &state) {
  SmallVector<Value> results;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (!op.hasTrait<OpTrait::trace::Contraction>() ||
        !state.savesResultsOf(&op))
      continue;
    for (Value result : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (type && type.hasStaticShape() && carriesGradient(type))
        results.push_back(result);
    }
  }
  return results;
}

struct IfGradient
    : DifferentiableOpInterface::ExternalModel<IfGradient, scf::IfOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto ifOp = cast<scf::IfOp>(op);
    if (failed(checkReplayable(op)))
      return failure();
    SmallVector<Value> captured = activeCaptures(op, state);
    if (captured.empty())
      return success();
    SmallVector<Value> resultCts;
    for (Value result : ifOp.getResults())
      resultCts.push_back(state.cotangent(result));
    SmallVector<Type> types;
    for (Value value : captured)
      types.push_back(value.getType());

    Location loc = op->getLoc();
    auto adjoint = scf::IfOp::create(builder, loc, types,
                                     state.primal(ifOp.getCondition()),
                                     /*withElseRegion=*/true);
    for (auto [original, emitted] :
         llvm::zip(ifOp->getRegions(), adjoint->getRegions())) {
      OpBuilder b = OpBuilder::atBlockBegin(&emitted.front());
      // An if without results has an empty else: nothing flows there.
      if (original.empty()) {
        SmallVector<Value> zeros;
        for (Value value : captured) {
          FailureOr<Value> zero = zerosLike(b, loc, state.primal(value));
          if (failed(zero))
            return failure();
          zeros.push_back(*zero);
        }
        scf::YieldOp::create(b, loc, zeros);
        continue;
      }
      auto cts = state.differentiateBlock(original.front(), {}, resultCts,
                                          captured, b);
      if (failed(cts))
        return failure();
      scf::YieldOp::create(b, loc, *cts);
    }
    for (auto [value, ct] : llvm::zip(captured, adjoint.getResults()))
      if (failed(state.accumulate(value, ct)))
        return failure();
    return success();
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitIfTangent(cast<scf::IfOp>(op), builder, state);
  }
};

struct ForGradient
    : DifferentiableOpInterface::ExternalModel<ForGradient, scf::ForOp> {
  /// The loop, plus one tape per carried value; the tapes and the trip
  /// count are saved for the adjoint.
  LogicalResult emitPrimal(Operation *op, OpBuilder &builder,
                           AdjointState &state) const {
    // A body that touches state is never swept backwards (emitAdjoint
    // reports it), nor is a loop no differentiated value reaches: nothing
    // to tape, the loop is cloned as it is (with the control token it may
    // carry, which has no gradient).
    auto forOp = cast<scf::ForOp>(op);
    if (findStatefulOp(op) || llvm::none_of(forOp.getResults(), [&](Value v) {
          return state.isActive(v);
        }))
      return state.clonePrimal(op, builder);
    Location loc = op->getLoc();
    Value lb = state.primal(forOp.getLowerBound());
    Value ub = state.primal(forOp.getUpperBound());
    Value step = state.primal(forOp.getStep());
    if (!forOp.getInductionVar().getType().isIndex())
      return op->emitError("cannot differentiate an scf.for over ")
             << forOp.getInductionVar().getType()
             << ": only index induction variables are supported";
    Value trips = arith::CeilDivSIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, ub, lb), step);
    trips = arith::MaxSIOp::create(
        builder, loc, trips, arith::ConstantIndexOp::create(builder, loc, 0));

    SmallVector<Value> inits;
    for (Value init : forOp.getInitArgs())
      inits.push_back(state.primal(init));
    size_t numCarried = inits.size();
    SmallVector<bool> writeOnly = writeOnlyCarries(forOp);
    SmallVector<Value> contractions = tapedContractions(forOp, state);
    for (auto [init, wo] : llvm::zip(forOp.getInitArgs(), writeOnly)) {
      // Rows of the initial value's sizes.
      SmallVector<Value> sizes = {trips};
      Value taped = tapedValue(builder, loc, state.primal(init), wo);
      if (auto tensor = dyn_cast<RankedTensorType>(taped.getType()))
        for (int64_t d = 0; d < tensor.getRank(); ++d)
          if (tensor.isDynamicDim(d))
            sizes.push_back(tensor::DimOp::create(builder, loc, taped, d));
      inits.push_back(tensor::EmptyOp::create(
          builder, loc, tapeType(taped.getType()), sizes));
    }
    for (Value result : contractions)
      inits.push_back(tensor::EmptyOp::create(
          builder, loc, tapeType(result.getType()), ValueRange{trips}));
    // The body builder cannot return a failure: it records the op that could
    // not be cloned, and the loop is dropped after it is built.
    Operation *notCloned = nullptr;
    auto loop = scf::ForOp::create(
        builder, loc, lb, ub, step, inits,
        [&](OpBuilder &b, Location l, Value iv, ValueRange args) {
          // Row of this iteration: (iv - lb) / step.
          Value row = arith::DivSIOp::create(
              b, l, arith::SubIOp::create(b, l, iv, lb), step);
          SmallVector<Value> tapes;
          for (size_t i = 0; i < numCarried; ++i)
            tapes.push_back(record(b, l, args[numCarried + i], row,
                                   tapedValue(b, l, args[i], writeOnly[i]),
                                   "scf.for gradient"));
          Block &body = *forOp.getBody();
          state.setPrimal(forOp.getInductionVar(), iv);
          for (auto [original, arg] : llvm::zip(
                   body.getArguments().drop_front(), args.take_front(numCarried)))
            state.setPrimal(original, arg);
          for (Operation &nested : body.without_terminator()) {
            if (failed(state.clonePrimal(&nested, b))) {
              notCloned = &nested;
              // Yield the incoming values so that the loop stays valid
              // until it is erased.
              scf::YieldOp::create(b, l, args);
              return;
            }
          }
          for (auto [i, result] : llvm::enumerate(contractions))
            tapes.push_back(record(b, l, args[2 * numCarried + i], row,
                                   state.primal(result), "scf.for gradient"));
          SmallVector<Value> yielded;
          for (Value value : body.getTerminator()->getOperands())
            yielded.push_back(state.primal(value));
          llvm::append_range(yielded, tapes);
          scf::YieldOp::create(b, l, yielded);
        });
    if (notCloned) {
      loop->erase();
      InFlightDiagnostic diag = op->emitOpError(
          "cannot be differentiated: its body could not be copied into the "
          "primal loop");
      diag.attachNote(notCloned->getLoc())
          << "could not copy '" << notCloned->getName() << "'";
      return diag;
    }
    for (auto [result, value] :
         llvm::zip(forOp.getResults(), loop.getResults().take_front(numCarried)))
      state.setPrimal(result, value);
    SmallVector<Value> saved = {trips};
    llvm::append_range(saved, loop.getResults().drop_front(numCarried));
    state.save(op, saved);
    return success();
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto forOp = cast<scf::ForOp>(op);
    if (failed(checkReplayable(op)))
      return failure();
    Location loc = op->getLoc();
    ValueRange saved = state.saved(op);
    Value trips = saved.front();
    SmallVector<bool> writeOnly = writeOnlyCarries(forOp);
    ValueRange tapes = saved.drop_front().take_front(writeOnly.size());
    ValueRange contractionTapes = saved.drop_front(1 + writeOnly.size());
    SmallVector<Value> contractions = tapedContractions(forOp, state);
    SmallVector<Value> captured = activeCaptures(op, state);
    Block &body = *forOp.getBody();
    size_t numCarried = forOp.getNumResults();

    // Iteration state: the carried values' cotangents (zeros where none),
    // then the running sums of the captured values' cotangents.
    SmallVector<Value> inits;
    for (Value result : forOp.getResults()) {
      Value ct = state.cotangent(result);
      if (!ct && carriesGradient(result.getType())) {
        FailureOr<Value> zeros = zerosLike(builder, loc, state.primal(result));
        if (failed(zeros))
          return failure();
        ct = *zeros;
      }
      // Non-float carries have no cotangent; a placeholder keeps positions.
      inits.push_back(ct ? ct : state.primal(result));
    }
    for (Value value : captured) {
      FailureOr<Value> zeros = zerosLike(builder, loc, state.primal(value));
      if (failed(zeros))
        return failure();
      inits.push_back(*zeros);
    }

    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value lb = state.primal(forOp.getLowerBound());
    Value step = state.primal(forOp.getStep());
    LogicalResult status = success();
    auto loop = scf::ForOp::create(
        builder, loc, zero, trips, one, inits,
        [&](OpBuilder &b, Location l, Value k, ValueRange args) {
          // Iterations in reverse: row = trips - 1 - k.
          Value row = arith::SubIOp::create(
              b, l, arith::SubIOp::create(b, l, trips, one), k);
          Value iv = arith::AddIOp::create(
              b, l, lb, arith::MulIOp::create(b, l, row, step));
          SmallVector<Value> primalArgs = {iv};
          for (auto [tape, carried, wo] :
               llvm::zip(tapes, forOp.getRegionIterArgs(), writeOnly)) {
            Type type = carried.getType();
            primalArgs.push_back(untaped(
                b, l, replay(b, l, tape, row, tapedType(type, wo)), type, wo));
          }
          SmallVector<std::pair<Value, Value>> known;
          for (auto [result, tape] :
               llvm::zip_equal(contractions, contractionTapes))
            known.emplace_back(result,
                               replay(b, l, tape, row, result.getType()));
          SmallVector<Value> yieldCts;
          for (size_t i = 0; i < numCarried; ++i)
            yieldCts.push_back(carriesGradient(forOp.getResult(i).getType())
                                   ? args[i]
                                   : Value());
          auto cts = state.differentiateBlock(body, primalArgs, yieldCts,
                                              captured, b, known);
          SmallVector<Value> next;
          if (failed(cts)) {
            status = failure();
            llvm::append_range(next, args);
          } else {
            // (*cts) = [iv, carried..., captured...]
            for (size_t i = 0; i < numCarried; ++i)
              next.push_back((*cts)[1 + i] ? (*cts)[1 + i] : args[i]);
            for (size_t j = 0; j < captured.size(); ++j)
              next.push_back(addCotangent(b, l, args[numCarried + j],
                                          (*cts)[1 + numCarried + j]));
          }
          scf::YieldOp::create(b, l, next);
        });
    if (failed(status))
      return failure();
    for (auto [init, ct] : llvm::zip(forOp.getInitArgs(),
                                     loop.getResults().take_front(numCarried)))
      if (carriesGradient(init.getType()) && failed(state.accumulate(init, ct)))
        return failure();
    for (auto [value, ct] :
         llvm::zip(captured, loop.getResults().drop_front(numCarried)))
      if (failed(state.accumulate(value, ct)))
        return failure();
    return success();
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitForTangent(cast<scf::ForOp>(op), builder, state);
  }
};

} // namespace

void mlir::trace::registerControlFlowGradients(MLIRContext *context) {
  scf::IfOp::attachInterface<IfGradient>(*context);
  scf::ForOp::attachInterface<ForGradient>(*context);
}
