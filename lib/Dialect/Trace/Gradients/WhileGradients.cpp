//===- WhileGradients.cpp - The rule of scf.while -------------------------===//
//
// scf.while runs `before` (which computes the condition and the values it
// forwards) and then `after` until the condition is false: n executions of
// after and n + 1 of before, n known only when the loop has run.
//
// Primal: two nested loops, so that the tapes (one per carried value, a
// row per before execution) are written in place and copied only when they
// grow. The inner loop is the original one, plus a count and the tapes;
// each before execution records its incoming carried values at row count,
// and the loop stops early when the next row would not fit (the values
// before computes and forwards are not taped: the adjoint recomputes them). Then the outer
// loop runs the pending after execution and doubles the tapes (a new
// tensor.empty, the old rows copied in with tensor.insert_slice), and
// enters the inner loop again. (With the growth inside one loop,
// one-shot bufferization would copy the whole tape on every iteration:
// quadratic time.) All on tensors: bufferization and the
// buffer-deallocation pipeline free the tapes once the backward pass has
// read them.
//
// Adjoint: the last before execution (the one that exits) is swept first,
// seeded with the results' cotangents; then an scf.for runs the n
// after/before pairs in reverse, reading the carried values back from the
// tapes, recomputing before's forwarded values (where before computes
// them), sweeping after, then before, carrying the carried values'
// cotangents and summing the captured values' cotangents.
//
// Of a carried value whose contents are never read (a tape, in a loop of a
// gradient's forward function) only the sizes are taped, as in scf.for's
// rule (RegionGradients.h): a gradient through a while loop is
// differentiated again in linear memory.
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
  enum Kind { BeforeArgument, FromAbove, Computed } kind;
  /// The before argument's number.
  unsigned index = 0;
};

SmallVector<Forwarded> classifyForwarded(scf::WhileOp whileOp) {
  SmallVector<Forwarded> forwarded;
  Region &before = whileOp.getBefore();
  for (Value value : whileOp.getConditionOp().getArgs()) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg && arg.getOwner() == &before.front())
      forwarded.push_back({Forwarded::BeforeArgument, arg.getArgNumber()});
    else if (!before.isAncestor(value.getParentRegion()))
      forwarded.push_back({Forwarded::FromAbove});
    else
      forwarded.push_back({Forwarded::Computed});
  }
  return forwarded;
}

/// A tape of `rows` rows shaped like `value` (a carried value).
Value emptyTape(OpBuilder &b, Location loc, Value rows, Value value) {
  RankedTensorType type = tapeType(value.getType());
  SmallVector<Value> sizes = {rows};
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, value, d - 1));
  return tensor::EmptyOp::create(b, loc, type, sizes);
}

/// `tape` copied into the first rows of a tape of `rows` rows.
Value growTape(OpBuilder &b, Location loc, Value rows, Value tape) {
  auto type = cast<RankedTensorType>(tape.getType());
  SmallVector<Value> sizes = {rows};
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, tape, d));
  Value grown = tensor::EmptyOp::create(b, loc, type, sizes);
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
      oldSizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t d = 0; d < type.getRank(); ++d)
    oldSizes.push_back(dimOf(b, loc, tape, d));
  return tensor::InsertSliceOp::create(b, loc, tape, grown, offsets, oldSizes,
                                       strides);
}

/// A value of `type` (a tensor or a scalar) that keeps a loop valid until
/// it is erased, when a body could not be cloned into it.
Value standIn(OpBuilder &b, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    SmallVector<Value> sizes(tensor.getNumDynamicDims(),
                             arith::ConstantIndexOp::create(b, loc, 0));
    return tensor::EmptyOp::create(b, loc, tensor, sizes);
  }
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

/// Which carried values are write-only (only their sizes are taped).
SmallVector<bool> writeOnlyCarries(scf::WhileOp whileOp) {
  SmallVector<bool> writeOnly;
  for (BlockArgument carried : whileOp.getBeforeArguments())
    writeOnly.push_back(isWriteOnly(carried, whileOp));
  return writeOnly;
}

struct WhileGradient
    : DifferentiableOpInterface::ExternalModel<WhileGradient, scf::WhileOp> {
  /// The outer and inner loops, carrying the tapes, a count (and the outer
  /// one a capacity) besides the loop's values; the count and the tapes
  /// are saved for the adjoint.
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
    size_t numArgs = before.getNumArguments();
    size_t numResults = whileOp.getNumResults();
    Type index = builder.getIndexType();
    Type i1 = builder.getI1Type();

    // The body builders cannot return a failure: they record the op that
    // could not be cloned, and the loop is dropped after it is built.
    Operation *notCloned = nullptr;
    auto cloneBody = [&](OpBuilder &b, Block &body, ValueRange args) {
      for (auto [original, arg] : llvm::zip(body.getArguments(), args))
        state.setPrimal(original, arg);
      for (Operation &nested : body.without_terminator())
        if (!notCloned && failed(state.clonePrimal(&nested, b)))
          notCloned = &nested;
    };
    auto primals = [&](ValueRange values) {
      SmallVector<Value> result;
      for (Value value : values)
        result.push_back(notCloned ? Value() : state.primal(value));
      return result;
    };
    // Stand-ins that keep a loop valid when a body could not be cloned
    // (the loop is erased).
    auto fill = [&](OpBuilder &b, SmallVector<Value> &values, TypeRange types) {
      for (auto [value, type] : llvm::zip(values, types))
        if (!value)
          value = standIn(b, loc, type);
    };

    // The tapes start with kInitialTapeRows rows of the initial values'
    // sizes; the positions of the tapes and the count are the same in
    // every region's arguments and terminator, so that they bufferize in
    // place.
    SmallVector<Value> inits;
    for (Value init : whileOp.getInits())
      inits.push_back(state.primal(init));
    Value capacity0 =
        arith::ConstantIndexOp::create(builder, loc, kInitialTapeRows);
    SmallVector<bool> writeOnly = writeOnlyCarries(whileOp);
    SmallVector<Value> outerInits;
    for (auto [init, wo] : llvm::zip(inits, writeOnly))
      outerInits.push_back(emptyTape(builder, loc, capacity0,
                                     tapedValue(builder, loc, init, wo)));
    SmallVector<Type> tapeTypes(ValueRange(outerInits).getTypes());
    outerInits.push_back(arith::ConstantIndexOp::create(builder, loc, 0));
    outerInits.push_back(capacity0);
    llvm::append_range(outerInits, inits);
    // Outer: (tapes, count, capacity, carried) -> (tapes, count, capacity,
    // forwarded).
    SmallVector<Type> outerResultTypes(tapeTypes);
    outerResultTypes.push_back(index);
    outerResultTypes.push_back(index);
    llvm::append_range(outerResultTypes, whileOp.getResultTypes());
    auto outer = scf::WhileOp::create(
        builder, loc, outerResultTypes, outerInits,
        [&](OpBuilder &b, Location, ValueRange args) {
          ValueRange tapes = args.take_front(numArgs);
          Value count = args[numArgs], capacity = args[numArgs + 1];
          ValueRange carried = args.drop_front(numArgs + 2);
          // Inner: (tapes, count, carried) -> (tapes, count, forwarded,
          // flag); stops when the condition fails or the tapes are full.
          // The flag goes last so that a forwarded value keeps its
          // carried value's position (typically): a carried tape (of a
          // gradient through this loop) is then updated in place, not
          // copied on every iteration.
          SmallVector<Value> innerInits(tapes);
          innerInits.push_back(count);
          llvm::append_range(innerInits, carried);
          SmallVector<Type> innerResultTypes(tapeTypes);
          innerResultTypes.push_back(index);
          llvm::append_range(innerResultTypes, whileOp.getResultTypes());
          innerResultTypes.push_back(i1);
          auto inner = scf::WhileOp::create(
              b, loc, innerResultTypes, innerInits,
              [&](OpBuilder &ib, Location, ValueRange innerArgs) {
                ValueRange innerTapes = innerArgs.take_front(numArgs);
                Value n = innerArgs[numArgs];
                ValueRange args = innerArgs.drop_front(numArgs + 1);
                cloneBody(ib, before, args);
                SmallVector<Value> next;
                for (auto [tape, value, wo] :
                     llvm::zip(innerTapes, args, writeOnly))
                  next.push_back(record(ib, loc, tape, n,
                                        tapedValue(ib, loc, value, wo), kWhat));
                next.push_back(n);
                Value flag = notCloned
                                 ? arith::ConstantIntOp::create(ib, loc, 0, 1)
                                 : state.primal(condition.getCondition());
                SmallVector<Value> forwarded = primals(condition.getArgs());
                fill(ib, forwarded, whileOp.getResultTypes());
                llvm::append_range(next, forwarded);
                next.push_back(flag);
                Value room = arith::CmpIOp::create(
                    ib, loc, arith::CmpIPredicate::slt,
                    arith::AddIOp::create(
                        ib, loc, n, arith::ConstantIndexOp::create(ib, loc, 1)),
                    capacity);
                scf::ConditionOp::create(
                    ib, loc, arith::AndIOp::create(ib, loc, flag, room), next);
              },
              [&](OpBuilder &ib, Location, ValueRange innerArgs) {
                Value n = innerArgs[numArgs];
                cloneBody(ib, after,
                          innerArgs.slice(numArgs + 1, numResults));
                SmallVector<Value> next(innerArgs.take_front(numArgs));
                next.push_back(arith::AddIOp::create(
                    ib, loc, n, arith::ConstantIndexOp::create(ib, loc, 1)));
                SmallVector<Value> yielded =
                    primals(after.getTerminator()->getOperands());
                fill(ib, yielded, before.getArgumentTypes());
                llvm::append_range(next, yielded);
                scf::YieldOp::create(ib, loc, next);
              });
          // Out of the inner loop with the condition true: the tapes are
          // full.
          SmallVector<Value> forwarded(inner.getResults().take_front(numArgs));
          forwarded.push_back(inner.getResult(numArgs));
          forwarded.push_back(capacity);
          llvm::append_range(forwarded,
                             inner.getResults().slice(numArgs + 1, numResults));
          scf::ConditionOp::create(b, loc, inner.getResults().back(),
                                   forwarded);
        },
        [&](OpBuilder &b, Location, ValueRange args) {
          // The pending after execution, then tapes twice as long.
          Value count = args[numArgs], capacity = args[numArgs + 1];
          cloneBody(b, after, args.drop_front(numArgs + 2));
          Value doubled = arith::MulIOp::create(
              b, loc, capacity, arith::ConstantIndexOp::create(b, loc, 2));
          SmallVector<Value> next;
          for (Value tape : args.take_front(numArgs))
            next.push_back(growTape(b, loc, doubled, tape));
          next.push_back(arith::AddIOp::create(
              b, loc, count, arith::ConstantIndexOp::create(b, loc, 1)));
          next.push_back(doubled);
          SmallVector<Value> yielded =
              primals(after.getTerminator()->getOperands());
          fill(b, yielded, before.getArgumentTypes());
          llvm::append_range(next, yielded);
          scf::YieldOp::create(b, loc, next);
        });
    if (notCloned) {
      outer->erase();
      InFlightDiagnostic diag = op->emitOpError(
          "cannot be differentiated: its body could not be copied into the "
          "primal loop");
      diag.attachNote(notCloned->getLoc())
          << "could not copy '" << notCloned->getName() << "'";
      return diag;
    }
    for (auto [result, value] : llvm::zip(
             whileOp.getResults(), outer.getResults().drop_front(numArgs + 2)))
      state.setPrimal(result, value);
    // The count of after executions, then the tapes (count + 1 rows).
    SmallVector<Value> saved = {outer.getResult(numArgs)};
    llvm::append_range(saved, outer.getResults().take_front(numArgs));
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
    ValueRange argTapes = saved.drop_front();
    SmallVector<Value> captured = activeCaptures(op, state);

    SmallVector<bool> writeOnly = writeOnlyCarries(whileOp);
    auto beforeArgsAt = [&](OpBuilder &b, Value row) {
      SmallVector<Value> args;
      for (auto [tape, arg, wo] :
           llvm::zip(argTapes, before.getArguments(), writeOnly)) {
        Type type = arg.getType();
        args.push_back(untaped(
            b, loc, replay(b, loc, tape, row, tapedType(type, wo)), type, wo));
      }
      return args;
    };
    // The values before forwards to after: its arguments, values from
    // above, and values it computes, which are computed again here (its
    // sweep below computes them once more, after after's).
    bool recompute = llvm::any_of(forwarded, [](Forwarded where) {
      return where.kind == Forwarded::Computed;
    });
    auto afterArgsAt =
        [&](OpBuilder &b,
            ArrayRef<Value> beforeArgs) -> FailureOr<SmallVector<Value>> {
      if (recompute) {
        for (auto [original, arg] :
             llvm::zip(before.getArguments(), beforeArgs))
          state.setPrimal(original, arg);
        for (Operation &nested : before.without_terminator())
          if (failed(state.clonePrimal(&nested, b)))
            return failure();
      }
      SmallVector<Value> args;
      for (auto [value, where] : llvm::zip(condition.getArgs(), forwarded))
        args.push_back(where.kind == Forwarded::BeforeArgument
                           ? beforeArgs[where.index]
                           : state.primal(value));
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
            auto afterArgs = afterArgsAt(b, beforeArgs);
            if (failed(afterArgs))
              return failure();
            auto afterCts = state.differentiateBlock(after, *afterArgs,
                                                     yieldCts, captured, b);
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
              Value sum = addCotangent(
                  b, l,
                  addCotangent(b, l, iterArgs[floatArgs.size() + j],
                               (*afterCts)[numResults + j]),
                  (*beforeCts)[numArgs + j]);
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

  /// Forward mode needs no tape: ControlFlowTangents.cpp.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitWhileTangent(cast<scf::WhileOp>(op), builder, state);
  }
};

} // namespace

void mlir::trace::registerWhileGradients(MLIRContext *context) {
  scf::WhileOp::attachInterface<WhileGradient>(*context);
}
