//===- ControlFlowTangents.cpp - Forward mode through scf.if/for/while ----===//
//
// Forward mode needs no tape: each region op is rebuilt to compute its
// primal and tangent values together. The rebuilt op yields (or carries)
// the primal values, then one tangent per floating-point value that may get
// a nonzero one; its body is the original body swept forward (each op
// cloned, then its tangent rule). A body that touches state runs once, as
// in the original, so state is no obstacle here (unlike the reverse rules,
// which run a body again).
//
// Which values may get a tangent is decided before the op is built (its
// result types depend on it): a value varies when it depends on a value
// with a tangent; for loops, to a fixed point over the carried values.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Forward-mode activity inside the regions of one op: the values that may
/// carry a nonzero tangent, given the values from above that have one and
/// the block arguments assumed to. An op whose operands, or the values its
/// regions read, vary has varying float results. (An over-approximation: a
/// rule may still find a zero tangent, which is then carried as zeros.)
class Variation {
public:
  explicit Variation(TangentState &state) : state(state) {}

  bool isVaried(Value value) {
    return varied.contains(value) || state.tangent(value);
  }
  /// Assumes the flagged ones of the block arguments `args` vary.
  void assume(ValueRange args, ArrayRef<bool> flagged) {
    for (auto [arg, flag] : llvm::zip(args, flagged))
      if (flag)
        varied.insert(arg);
  }

  void propagate(Block &block) {
    for (Operation &op : block) {
      if (!readsAnyOf(&op, [&](Value v) { return isVaried(v); }))
        continue;
      for (Value result : op.getResults())
        if (carriesTangent(result.getType()))
          varied.insert(result);
    }
  }

private:
  TangentState &state;
  DenseSet<Value> varied;
};

/// `values`, then for each flagged index the tangent of that value (zeros
/// where it has none).
FailureOr<SmallVector<Value>> withTangents(OpBuilder &builder, Location loc,
                                           ValueRange primals,
                                           ArrayRef<Value> tangents,
                                           ArrayRef<bool> flagged) {
  SmallVector<Value> all(primals);
  for (auto [primal, given, flag] : llvm::zip(primals, tangents, flagged)) {
    if (!flag)
      continue;
    Value tangent = given;
    if (!tangent) {
      FailureOr<Value> zeros = zerosLike(builder, loc, primal);
      if (failed(zeros))
        return failure();
      tangent = *zeros;
    }
    all.push_back(tangent);
  }
  return all;
}

/// A loop's initial values `inits` as the rebuilt loop takes them: their
/// primal values, then the tangents of the flagged ones.
FailureOr<SmallVector<Value>> initsWithTangents(OpBuilder &builder,
                                                Location loc, ValueRange inits,
                                                ArrayRef<bool> flagged,
                                                TangentState &state) {
  SmallVector<Value> primals, tangents;
  for (Value init : inits) {
    primals.push_back(state.primal(init));
    tangents.push_back(state.tangent(init));
  }
  return withTangents(builder, loc, primals, tangents, flagged);
}

/// The types of `values`, then of the flagged ones again (their tangents).
SmallVector<Type> withTangentTypes(TypeRange types, ArrayRef<bool> flagged) {
  SmallVector<Type> all(types);
  for (auto [type, flag] : llvm::zip(types, flagged))
    if (flag)
      all.push_back(type);
  return all;
}

/// Splits the block arguments or results `values` (primals, then tangents
/// of the flagged ones) into one tangent per primal, null where unflagged.
SmallVector<Value> tangentsOf(ValueRange values, ArrayRef<bool> flagged) {
  SmallVector<Value> tangents;
  ValueRange rest = values.drop_front(flagged.size());
  for (bool flag : flagged) {
    tangents.push_back(flag ? rest.front() : Value());
    if (flag)
      rest = rest.drop_front();
  }
  return tangents;
}

/// Maps the `rebuilt` op's results onto the original `op`'s, or erases it
/// where building its regions failed (`status`).
LogicalResult setResults(Operation *op, Operation *rebuilt,
                         LogicalResult status, ArrayRef<bool> flagged,
                         TangentState &state) {
  if (failed(status)) {
    rebuilt->erase();
    return failure();
  }
  ValueRange results = rebuilt->getResults();
  state.replacePrimal(op, results.take_front(op->getNumResults()));
  for (auto [result, tangent] :
       llvm::zip(op->getResults(), tangentsOf(results, flagged)))
    if (tangent && failed(state.setTangent(result, tangent)))
      return failure();
  return success();
}

/// Emits the original `block` at `b`, then the terminator `Terminator` of
/// its primal values (the first `leading` of which are kept as they are:
/// scf.condition's condition) and the flagged ones' tangents. Reports a
/// failure through `status` (the body builders cannot return one), leaving
/// the block without a terminator: the op is then erased unverified.
template <typename Terminator>
void emitBody(OpBuilder &b, Location loc, Block &block, ValueRange primalArgs,
              ArrayRef<Value> argTangents, ArrayRef<bool> flagged,
              unsigned leading, TangentState &state, LogicalResult &status) {
  FailureOr<BlockTangents> swept =
      state.differentiateBlock(block, primalArgs, argTangents, b);
  if (failed(swept)) {
    status = failure();
    return;
  }
  FailureOr<SmallVector<Value>> values = withTangents(
      b, loc, ValueRange(swept->primals).drop_front(leading),
      ArrayRef<Value>(swept->tangents).drop_front(leading), flagged);
  if (failed(values)) {
    status = failure();
    return;
  }
  if constexpr (std::is_same_v<Terminator, scf::ConditionOp>)
    Terminator::create(b, loc, swept->primals.front(), *values);
  else
    Terminator::create(b, loc, *values);
}

} // namespace

LogicalResult mlir::trace::emitIfTangent(scf::IfOp ifOp, OpBuilder &builder,
                                         TangentState &state) {
  Variation variation(state);
  for (Region &region : ifOp->getRegions())
    if (!region.empty())
      variation.propagate(region.front());
  SmallVector<bool> flagged;
  for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
    bool varies = false;
    for (Region &region : ifOp->getRegions())
      if (!region.empty())
        varies |=
            variation.isVaried(region.front().getTerminator()->getOperand(i));
    flagged.push_back(varies && carriesTangent(result.getType()));
  }
  Location loc = ifOp.getLoc();
  auto rebuilt = scf::IfOp::create(
      builder, loc, withTangentTypes(ifOp.getResultTypes(), flagged),
      state.primal(ifOp.getCondition()), /*withElseRegion=*/true);
  LogicalResult status = success();
  for (auto [original, emitted] :
       llvm::zip(ifOp->getRegions(), rebuilt->getRegions())) {
    OpBuilder b = OpBuilder::atBlockBegin(&emitted.front());
    // An if with results has both regions.
    emitBody<scf::YieldOp>(b, loc, original.front(), {}, {}, flagged, 0, state,
                           status);
  }
  return setResults(ifOp, rebuilt, status, flagged, state);
}

LogicalResult mlir::trace::emitForTangent(scf::ForOp forOp, OpBuilder &builder,
                                          TangentState &state) {
  Block &body = *forOp.getBody();
  Operation *yield = body.getTerminator();
  unsigned numCarried = forOp.getNumResults();
  SmallVector<bool> flagged;
  for (Value init : forOp.getInitArgs())
    flagged.push_back(state.tangent(init) != nullptr);
  // A carried value varies when its initial value does or the body makes
  // it: to a fixed point.
  for (bool changed = true; changed;) {
    changed = false;
    Variation variation(state);
    variation.assume(body.getArguments().drop_front(), flagged);
    variation.propagate(body);
    for (unsigned i = 0; i < numCarried; ++i)
      if (!flagged[i] && carriesTangent(forOp.getResult(i).getType()) &&
          variation.isVaried(yield->getOperand(i)))
        flagged[i] = changed = true;
  }

  Location loc = forOp.getLoc();
  FailureOr<SmallVector<Value>> inits =
      initsWithTangents(builder, loc, forOp.getInitArgs(), flagged, state);
  if (failed(inits))
    return failure();
  LogicalResult status = success();
  auto rebuilt = scf::ForOp::create(
      builder, loc, state.primal(forOp.getLowerBound()),
      state.primal(forOp.getUpperBound()), state.primal(forOp.getStep()),
      *inits, [&](OpBuilder &b, Location l, Value iv, ValueRange args) {
        SmallVector<Value> primalArgs = {iv};
        llvm::append_range(primalArgs, args.take_front(numCarried));
        SmallVector<Value> argTangents = {Value()};
        llvm::append_range(argTangents, tangentsOf(args, flagged));
        emitBody<scf::YieldOp>(b, l, body, primalArgs, argTangents, flagged, 0,
                               state, status);
      });
  return setResults(forOp, rebuilt, status, flagged, state);
}

LogicalResult mlir::trace::emitWhileTangent(scf::WhileOp whileOp,
                                            OpBuilder &builder,
                                            TangentState &state) {
  Block &before = whileOp.getBefore().front();
  Block &after = whileOp.getAfter().front();
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  Operation *yield = after.getTerminator();
  // Tangents carried into `before` (one per init) and passed from `before`
  // to `after` and out as results (one per scf.condition argument).
  SmallVector<bool> carried, passed(whileOp.getNumResults(), false);
  for (Value init : whileOp.getInits())
    carried.push_back(state.tangent(init) != nullptr);
  for (bool changed = true; changed;) {
    changed = false;
    Variation first(state);
    first.assume(before.getArguments(), carried);
    first.propagate(before);
    for (auto [i, value] : llvm::enumerate(condition.getArgs()))
      if (!passed[i] && carriesTangent(value.getType()) &&
          first.isVaried(value))
        passed[i] = changed = true;
    Variation second(state);
    second.assume(after.getArguments(), passed);
    second.propagate(after);
    for (auto [i, value] : llvm::enumerate(yield->getOperands()))
      if (!carried[i] && carriesTangent(value.getType()) &&
          second.isVaried(value))
        carried[i] = changed = true;
  }

  Location loc = whileOp.getLoc();
  FailureOr<SmallVector<Value>> inits =
      initsWithTangents(builder, loc, whileOp.getInits(), carried, state);
  if (failed(inits))
    return failure();
  LogicalResult status = success();
  auto rebuilt = scf::WhileOp::create(
      builder, loc, withTangentTypes(whileOp.getResultTypes(), passed), *inits,
      [&](OpBuilder &b, Location l, ValueRange args) {
        emitBody<scf::ConditionOp>(
            b, l, before, args.take_front(carried.size()),
            tangentsOf(args, carried), passed, /*leading=*/1, state, status);
      },
      [&](OpBuilder &b, Location l, ValueRange args) {
        emitBody<scf::YieldOp>(b, l, after, args.take_front(passed.size()),
                               tangentsOf(args, passed), carried, 0, state,
                               status);
      });
  return setResults(whileOp, rebuilt, status, passed, state);
}
