//===- WhileGradients.cpp - The rule of scf.while -------------------------===//
//
// scf.while runs `before` (which computes the condition and the values it
// forwards) and then `after` until the condition is false: n executions of
// after and n + 1 of before, n known only when the loop has run.
//
// Primal: the loop also carries a count, a capacity and the tapes, which
// grow while it runs: whenever the count reaches the capacity, `before`
// doubles it (a new tensor.empty of twice the rows, the old rows copied in
// with tensor.insert_slice). Each before execution records its incoming
// carried values (row = count), and the values it forwards that it computes
// itself (forwarded block arguments are read back from the first tape,
// values from above need no tape). All on tensors: bufferization and the
// buffer-deallocation pipeline free the tapes once the backward pass has
// read them.
//
// Adjoint: the last before execution (the one that exits) is swept first,
// seeded with the results' cotangents; then an scf.for runs the n
// after/before pairs in reverse, reading the carried values back from the
// tapes, recomputing and sweeping after, then before, carrying the carried
// values' cotangents and summing the captured values' cotangents.
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

/// Rows of the first tape allocation; then the capacity doubles.
constexpr int64_t kInitialTapeRows = 16;

constexpr StringLiteral kWhat = "scf.while gradient";

/// Where the backward pass finds a value that `before` forwards to `after`.
struct Forwarded {
  enum Kind { BeforeArgument, FromAbove, Taped } kind;
  /// The before argument's number, or the tape's index among the forwarded
  /// tapes.
  unsigned index = 0;
};

SmallVector<Forwarded> classifyForwarded(scf::WhileOp whileOp) {
  SmallVector<Forwarded> forwarded;
  Region &before = whileOp.getBefore();
  unsigned taped = 0;
  for (Value value : whileOp.getConditionOp().getArgs()) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg && arg.getOwner() == &before.front())
      forwarded.push_back({Forwarded::BeforeArgument, arg.getArgNumber()});
    else if (!before.isAncestor(value.getParentRegion()))
      forwarded.push_back({Forwarded::FromAbove});
    else
      forwarded.push_back({Forwarded::Taped, taped++});
  }
  return forwarded;
}

/// An empty tape (zero rows; a `?` dim of a row is 0 until the first
/// growth gives it the recorded value's size).
Value emptyTape(OpBuilder &b, Location loc, Type carried, Value zero) {
  RankedTensorType type = tapeType(carried);
  SmallVector<Value> sizes(type.getNumDynamicDims(), zero);
  return tensor::EmptyOp::create(b, loc, type, sizes);
}

/// The tapes, with room for row `count`: when count == capacity, new
/// tapes of max(2 capacity, kInitialTapeRows) rows with the old rows copied
/// in. A `?` dim of the new rows is the old tape's (so the copy stays in
/// bounds, and record() reports a value whose size changed), or the
/// recorded value's on the first growth. Returns the capacity, then the
/// tapes.
SmallVector<Value> growTapes(OpBuilder &b, Location loc, Value count,
                             Value capacity, ValueRange tapes,
                             ArrayRef<Value> values) {
  Value full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, capacity);
  SmallVector<Type> types = {capacity.getType()};
  llvm::append_range(types, tapes.getTypes());
  auto grow = scf::IfOp::create(b, loc, types, full, /*withElseRegion=*/true);
  {
    OpBuilder t = OpBuilder::atBlockBegin(grow.thenBlock());
    Value zero = arith::ConstantIndexOp::create(t, loc, 0);
    Value first =
        arith::CmpIOp::create(t, loc, arith::CmpIPredicate::eq, capacity, zero);
    Value doubled = arith::MulIOp::create(
        t, loc, capacity, arith::ConstantIndexOp::create(t, loc, 2));
    Value newCapacity = arith::MaxSIOp::create(
        t, loc, doubled,
        arith::ConstantIndexOp::create(t, loc, kInitialTapeRows));
    SmallVector<Value> yielded = {newCapacity};
    for (auto [tape, value] : llvm::zip(tapes, values)) {
      auto type = cast<RankedTensorType>(tape.getType());
      SmallVector<Value> sizes = {newCapacity};
      for (int64_t d = 1; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          sizes.push_back(arith::SelectOp::create(
              t, loc, first, tensor::DimOp::create(t, loc, value, d - 1),
              tensor::DimOp::create(t, loc, tape, d)));
      Value grown = tensor::EmptyOp::create(t, loc, type, sizes);
      SmallVector<OpFoldResult> offsets(type.getRank(), t.getIndexAttr(0)),
          copySizes, strides(type.getRank(), t.getIndexAttr(1));
      for (int64_t d = 0; d < type.getRank(); ++d)
        copySizes.push_back(dimOf(t, loc, tape, d));
      yielded.push_back(tensor::InsertSliceOp::create(
          t, loc, tape, grown, offsets, copySizes, strides));
    }
    scf::YieldOp::create(t, loc, yielded);
  }
  {
    OpBuilder e = OpBuilder::atBlockBegin(grow.elseBlock());
    SmallVector<Value> yielded = {capacity};
    llvm::append_range(yielded, tapes);
    scf::YieldOp::create(e, loc, yielded);
  }
  return SmallVector<Value>(grow.getResults());
}

struct WhileGradient
    : DifferentiableOpInterface::ExternalModel<WhileGradient, scf::WhileOp> {
  /// The loop, carrying a count, a capacity and the tapes besides its own
  /// values; the count and the tapes are saved for the adjoint.
  LogicalResult emitPrimal(Operation *op, OpBuilder &builder,
                           AdjointState &state) const {
    auto whileOp = cast<scf::WhileOp>(op);
    // A body that touches state is never swept backwards (emitAdjoint
    // reports it); a loop no differentiated value reaches is never swept
    // either: nothing to tape.
    if (findStatefulOp(op) || llvm::none_of(whileOp.getResults(), [&](Value v) {
          return state.isActive(v);
        }))
      return state.clonePrimal(op, builder);
    Location loc = op->getLoc();
    Block &before = whileOp.getBefore().front();
    Block &after = whileOp.getAfter().front();
    auto condition = whileOp.getConditionOp();
    SmallVector<Forwarded> forwarded = classifyForwarded(whileOp);
    SmallVector<Value> tapedForwarded;
    for (auto [value, where] : llvm::zip(condition.getArgs(), forwarded))
      if (where.kind == Forwarded::Taped)
        tapedForwarded.push_back(value);
    size_t numArgs = before.getNumArguments();
    size_t numResults = whileOp.getNumResults();
    size_t numTapes = numArgs + tapedForwarded.size();

    // Carried: the loop's values, then count, capacity and the tapes.
    SmallVector<Value> inits;
    for (Value init : whileOp.getInits())
      inits.push_back(state.primal(init));
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    inits.push_back(zero);
    inits.push_back(zero);
    for (Type type : before.getArgumentTypes())
      inits.push_back(emptyTape(builder, loc, type, zero));
    for (Value value : tapedForwarded)
      inits.push_back(emptyTape(builder, loc, value.getType(), zero));
    SmallVector<Type> resultTypes(whileOp.getResultTypes());
    for (Value init : ArrayRef(inits).drop_front(numArgs))
      resultTypes.push_back(init.getType());

    // The regions are filled by hand, so that a body that cannot be copied
    // drops the loop before it is complete.
    auto loop = scf::WhileOp::create(builder, loc, resultTypes, inits);
    Block *newBefore = new Block(), *newAfter = new Block();
    loop.getBefore().push_back(newBefore);
    loop.getAfter().push_back(newAfter);
    for (Value init : inits)
      newBefore->addArgument(init.getType(), loc);
    for (Type type : resultTypes)
      newAfter->addArgument(type, loc);
    Operation *notCloned = nullptr;
    auto cloneBody = [&](OpBuilder &b, Block &body, ValueRange args) {
      for (auto [original, arg] : llvm::zip(body.getArguments(), args))
        state.setPrimal(original, arg);
      for (Operation &nested : body.without_terminator())
        if (failed(state.clonePrimal(&nested, b))) {
          notCloned = &nested;
          return failure();
        }
      return success();
    };

    // before: the original condition, then the tapes grown (if full) and
    // this execution's carried and forwarded values recorded at row count.
    OpBuilder b = OpBuilder::atBlockBegin(newBefore);
    ValueRange args = newBefore->getArguments();
    Value count = args[numArgs], capacity = args[numArgs + 1];
    if (succeeded(cloneBody(b, before, args.take_front(numArgs)))) {
      SmallVector<Value> recorded(args.take_front(numArgs));
      for (Value value : tapedForwarded)
        recorded.push_back(state.primal(value));
      SmallVector<Value> grown = growTapes(
          b, loc, count, capacity, args.drop_front(numArgs + 2), recorded);
      SmallVector<Value> forwardedValues;
      for (Value value : condition.getArgs())
        forwardedValues.push_back(state.primal(value));
      forwardedValues.push_back(count);
      forwardedValues.push_back(grown.front());
      for (size_t i = 0; i < numTapes; ++i)
        forwardedValues.push_back(
            record(b, loc, grown[1 + i], count, recorded[i], kWhat));
      scf::ConditionOp::create(b, loc, state.primal(condition.getCondition()),
                               forwardedValues);
    }
    // after: the original body; the count goes up by one.
    b.setInsertionPointToStart(newAfter);
    args = newAfter->getArguments();
    if (!notCloned &&
        succeeded(cloneBody(b, after, args.take_front(numResults)))) {
      SmallVector<Value> yielded;
      for (Value value : after.getTerminator()->getOperands())
        yielded.push_back(state.primal(value));
      yielded.push_back(arith::AddIOp::create(
          b, loc, args[numResults], arith::ConstantIndexOp::create(b, loc, 1)));
      llvm::append_range(yielded, args.drop_front(numResults + 1));
      scf::YieldOp::create(b, loc, yielded);
    }
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
         llvm::zip(whileOp.getResults(), loop.getResults()))
      state.setPrimal(result, value);
    // The count of after executions, then the tapes (count + 1 rows).
    SmallVector<Value> saved = {loop.getResult(numResults)};
    llvm::append_range(saved, loop.getResults().drop_front(numResults + 2));
    state.save(op, saved);
    return success();
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto whileOp = cast<scf::WhileOp>(op);
    if (failed(checkReplayable(op)))
      return failure();
    Location loc = op->getLoc();
    Block &before = whileOp.getBefore().front();
    Block &after = whileOp.getAfter().front();
    auto condition = whileOp.getConditionOp();
    SmallVector<Forwarded> forwarded = classifyForwarded(whileOp);
    size_t numArgs = before.getNumArguments();
    size_t numResults = whileOp.getNumResults();
    ValueRange saved = state.saved(op);
    Value count = saved.front();
    ValueRange argTapes = saved.drop_front().take_front(numArgs);
    ValueRange forwardedTapes = saved.drop_front(1 + numArgs);
    SmallVector<Value> captured = activeCaptures(op, state);

    auto beforeArgsAt = [&](OpBuilder &b, Value row) {
      SmallVector<Value> args;
      for (auto [tape, arg] : llvm::zip(argTapes, before.getArguments()))
        args.push_back(replay(b, loc, tape, row, arg.getType()));
      return args;
    };
    auto afterArgsAt = [&](OpBuilder &b, Value row,
                           ArrayRef<Value> beforeArgs) {
      SmallVector<Value> args;
      for (auto [value, where] : llvm::zip(condition.getArgs(), forwarded)) {
        switch (where.kind) {
        case Forwarded::BeforeArgument:
          args.push_back(beforeArgs[where.index]);
          break;
        case Forwarded::FromAbove:
          args.push_back(state.primal(value));
          break;
        case Forwarded::Taped:
          args.push_back(replay(b, loc, forwardedTapes[where.index], row,
                                value.getType()));
          break;
        }
      }
      return args;
    };
    // The carried values' cotangents travel in the reverse loop for the
    // float ones only (integers, such as counters, carry none).
    SmallVector<unsigned> floatArgs;
    for (BlockArgument arg : before.getArguments())
      if (carriesGradient(arg.getType()))
        floatArgs.push_back(arg.getArgNumber());
    // Cotangents as the loop carries them: the static types of the values.
    auto castTo = [&](OpBuilder &b, Value ct, Type type) -> FailureOr<Value> {
      Value cast = castCotangent(b, ct, cotangentType(type));
      if (!cast)
        return emitError(loc)
               << "scf.while gradient: a cotangent of type " << ct.getType()
               << " for a value of type " << type;
      return cast;
    };

    // The last before execution: the one that exits, forwarding the
    // results.
    SmallVector<Value> exitCts = {Value()};
    for (Value result : whileOp.getResults())
      exitCts.push_back(state.cotangent(result));
    auto exitSweep = state.differentiateBlock(
        before, beforeArgsAt(builder, count), exitCts, captured, builder);
    if (failed(exitSweep))
      return failure();
    SmallVector<Value> inits;
    for (unsigned i : floatArgs) {
      auto ct =
          castTo(builder, (*exitSweep)[i], before.getArgument(i).getType());
      if (failed(ct))
        return failure();
      inits.push_back(*ct);
    }
    for (auto [j, value] : llvm::enumerate(captured)) {
      auto ct = castTo(builder, (*exitSweep)[numArgs + j], value.getType());
      if (failed(ct))
        return failure();
      inits.push_back(*ct);
    }

    // The after/before pairs in reverse: row = count - 1 - k.
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    LogicalResult status = success();
    auto loop = scf::ForOp::create(
        builder, loc, zero, count, one, inits,
        [&](OpBuilder &b, Location l, Value k, ValueRange iterArgs) {
          auto body = [&]() -> FailureOr<SmallVector<Value>> {
            Value row = arith::SubIOp::create(
                b, l, arith::SubIOp::create(b, l, count, one), k);
            SmallVector<Value> beforeArgs = beforeArgsAt(b, row);
            SmallVector<Value> yieldCts(numArgs);
            for (auto [n, i] : llvm::enumerate(floatArgs))
              yieldCts[i] = iterArgs[n];
            auto afterCts = state.differentiateBlock(
                after, afterArgsAt(b, row, beforeArgs), yieldCts, captured, b);
            if (failed(afterCts))
              return failure();
            SmallVector<Value> conditionCts = {Value()};
            llvm::append_range(conditionCts,
                               ArrayRef(*afterCts).take_front(numResults));
            auto beforeCts = state.differentiateBlock(
                before, beforeArgs, conditionCts, captured, b);
            if (failed(beforeCts))
              return failure();
            SmallVector<Value> next;
            for (unsigned i : floatArgs) {
              auto ct =
                  castTo(b, (*beforeCts)[i], before.getArgument(i).getType());
              if (failed(ct))
                return failure();
              next.push_back(*ct);
            }
            for (auto [j, value] : llvm::enumerate(captured)) {
              Value sum =
                  AddOp::create(b, l, iterArgs[floatArgs.size() + j],
                                AddOp::create(b, l, (*afterCts)[numResults + j],
                                              (*beforeCts)[numArgs + j]));
              auto ct = castTo(b, sum, value.getType());
              if (failed(ct))
                return failure();
              next.push_back(*ct);
            }
            return next;
          };
          FailureOr<SmallVector<Value>> next = body();
          if (failed(next)) {
            status = failure();
            scf::YieldOp::create(b, l, iterArgs);
            return;
          }
          scf::YieldOp::create(b, l, *next);
        });
    if (failed(status))
      return failure();
    for (auto [n, i] : llvm::enumerate(floatArgs))
      if (failed(state.accumulate(whileOp.getInits()[i], loop.getResult(n))))
        return failure();
    for (auto [j, value] : llvm::enumerate(captured))
      if (failed(state.accumulate(value, loop.getResult(floatArgs.size() + j))))
        return failure();
    return success();
  }
};

} // namespace

void mlir::trace::registerWhileGradients(MLIRContext *context) {
  scf::WhileOp::attachInterface<WhileGradient>(*context);
}
