//===- AutoControlDeps.cpp - Automatic control dependencies --------------===//
//
// TensorFlow's AutomaticControlDependencies, made explicit in SSA. Stateful
// ops (those yielding a !trace.control token) get `after(...)` tokens so that
// ops on one resource keep program order and ops with unknown effects are
// ordered with everything; the results of functions are routed through
// `trace.identity ... after(...)` so that no stateful op can be dropped as
// dead. scf ops (if, index_switch, execute_region, for, while) whose regions
// touch state become nodes of the token graph themselves: they get a token result (carried from iteration
// to iteration in loops), so the token graph is the order also across
// region boundaries. Likewise calls: a function with state that func.call
// reaches takes a token as its last argument and returns one as its last
// result (public functions, and those a gradient op references, are called
// through a private copy that does, so their signatures stay as written).
// A gradient op whose callee touches state gets a token result and is
// ordered like any stateful op; trace-autodiff then gives the generated
// function its call runs a token (threadControlToken), so that the order
// holds once the gradient op has become that call.
// What an op reads and writes comes from StateEffectAnalysis
// (tracec/Analysis/StateEffects.h); this file is the ordering rewrite.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/State/Passes.h"
#include "tracec/Transforms/State/ControlTokens.h"

#include "tracec/Analysis/StateEffects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceTypeConstraints.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <limits>

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEAUTOCONTROLDEPS
#include "tracec/Transforms/State/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The token a stateful op (or an scf op that carries tokens) yields, or
/// null for ops that yield none.
Value getToken(Operation *op) {
  for (Value result : op->getResults())
    if (isa<ControlType>(result.getType()))
      return result;
  return {};
}

/// Where a function takes its token: the form this pass gives called
/// functions with state is one token argument and a token among the results
/// (the generated forward function of such a function keeps that form).
std::optional<unsigned> tokenArgument(func::FuncOp func) {
  ArrayRef<Type> inputs = func.getArgumentTypes();
  auto isToken = [](Type type) { return isa<ControlType>(type); };
  if (llvm::count_if(inputs, isToken) != 1 ||
      llvm::none_of(func.getResultTypes(), isToken))
    return std::nullopt;
  return llvm::find_if(inputs, isToken) - inputs.begin();
}

bool takesToken(func::FuncOp func) { return tokenArgument(func).has_value(); }

/// The result that stands for everything a function did to state.
unsigned tokenResult(func::FuncOp func) {
  ArrayRef<Type> results = func.getResultTypes();
  return llvm::find_if(results, [](Type type) {
           return isa<ControlType>(type);
         }) - results.begin();
}

/// The region ops whose regions tokens flow through: they become nodes of
/// the token graph (with a token result) when their regions touch state.
bool carriesTokens(Operation *op) {
  return isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp, scf::ForOp,
             scf::WhileOp>(op);
}

/// Whether trace.identity accepts values of this type (Trace_Tensor).
bool canWaitOn(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isTraceElementType(tensor.getElementType());
}

void pushControlOperands(Operation *op, SmallVectorImpl<Value> &worklist) {
  for (Value operand : op->getOperands())
    if (isa<ControlType>(operand.getType()))
      worklist.push_back(operand);
}

/// Pushes the tokens that must be available before `token` is.
void pushParents(Value token, SmallVectorImpl<Value> &worklist) {
  if (auto arg = dyn_cast<BlockArgument>(token)) {
    // A token carried by a loop waits for its initial value (the first
    // iteration does, and every later one waits for the one before). The
    // back edge is not followed: it would make every carried token wait
    // for itself.
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (OpOperand *init = loop.getTiedLoopInit(arg))
        worklist.push_back(init->get());
    } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      if (arg.getOwner() == loop.getBeforeBody())
        worklist.push_back(loop.getInits()[arg.getArgNumber()]);
      else
        worklist.push_back(loop.getConditionOp().getArgs()[arg.getArgNumber()]);
    }
    return;
  }
  Operation *def = token.getDefiningOp();
  pushControlOperands(def, worklist);
  // The token of an scf op is what its regions yield.
  if (!carriesTokens(def))
    return;
  for (Region &region : def->getRegions())
    for (Block &block : region)
      if (!block.empty())
        pushControlOperands(&block.back(), worklist);
}

/// Tokens a search of the token graph need not look behind: every search
/// looks for tokens at or after some program position, and what a token
/// earlier than that waits for is earlier still (see
/// ControlDeps::below). Searching less can only make the pass add a token
/// that was already implied, never miss one.
using Prune = function_ref<bool(Value)>;

/// Adds to `seen` the tokens reachable from `worklist`, transitively.
void collectTokens(SmallVector<Value> worklist, DenseSet<Value> &seen,
                   Prune prune) {
  while (!worklist.empty()) {
    Value token = worklist.pop_back_val();
    if (seen.insert(token).second && !prune(token))
      pushParents(token, worklist);
  }
}

/// Adds to `seen` the tokens that `token` waits for (not itself).
void collectAncestors(Value token, DenseSet<Value> &seen, Prune prune) {
  SmallVector<Value> worklist;
  pushParents(token, worklist);
  collectTokens(std::move(worklist), seen, prune);
}

/// The tokens an op already waits for through its control operands.
DenseSet<Value> reachedBy(Operation *op, Prune prune) {
  SmallVector<Value> worklist;
  pushControlOperands(op, worklist);
  DenseSet<Value> seen;
  collectTokens(std::move(worklist), seen, prune);
  return seen;
}

/// `token` and the tokens it waits for.
DenseSet<Value> reachedFrom(Value token, Prune prune) {
  DenseSet<Value> seen;
  collectTokens({token}, seen, prune);
  return seen;
}

/// The tokens a value is available only after: its producer's token (when
/// that is a stateful op or an scf op carrying tokens) and everything the
/// producer waits for.
DenseSet<Value> waitedFor(Value value, Prune prune) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return {};
  if (Value token = getToken(def))
    return reachedFrom(token, prune);
  DenseSet<Value> seen = reachedBy(def, prune);
  // An identity's value comes after what its operand comes after, too (so a
  // result routed once is not routed again).
  if (auto identity = dyn_cast<IdentityOp>(def))
    for (Value token : waitedFor(identity.getX(), prune))
      seen.insert(token);
  return seen;
}

class ControlDeps {
public:
  explicit ControlDeps(ModuleOp module)
      : module(module), effects(module, symbols) {}

  LogicalResult run();
  /// Orders one function of the module (its token argument, if any, is
  /// where its body starts from).
  LogicalResult order(func::FuncOp func);

private:
  /// Per resource class: the token of the last write and those of the reads
  /// since it. A class without a slot has not been touched since the last
  /// unknown op. Tokens are those of stateful ops, of scf ops carrying
  /// tokens, or the token a loop iteration starts from.
  struct Slot {
    Value lastWrite;
    SmallVector<Value> reads;
  };
  struct State {
    llvm::MapVector<Value, Slot> slots;
    Value lastUnknown;
  };

  LogicalResult threadTokensThroughCalls();

  LogicalResult orderFunction(func::FuncOp func);
  LogicalResult orderBlock(Block &block, State state);
  FailureOr<SmallVector<Value>> orderOps(Block &block, State state);
  FailureOr<Operation *> orderOp(Operation *op, const StateEffects &opEffects,
                                 State &state);
  Operation *orderCall(func::CallOp call, func::FuncOp callee,
                       ArrayRef<Value> preds);
  Operation *withTokenResult(Operation *op);
  FailureOr<Operation *> orderBranches(Operation *op, ArrayRef<Value> preds,
                                 const State &state);
  FailureOr<Operation *> orderFor(scf::ForOp op, ArrayRef<Value> preds);
  FailureOr<Operation *> orderWhile(scf::WhileOp op, ArrayRef<Value> preds);
  void waitAlsoFor(OpOperand &token, ArrayRef<Value> preds);
  void yieldToken(Operation *terminator, unsigned index,
                  ArrayRef<Value> required);
  SetVector<Value> predecessors(const StateEffects &opEffects,
                                const State &state);
  void record(Value token, const StateEffects &opEffects, State &state);
  SmallVector<Value> missingTokens(ArrayRef<Value> required,
                                   const DenseSet<Value> &reached);
  void routeOperands(Operation *user, ArrayRef<Value> required);
  void replaced(Operation *from, Operation *to);
  Value join(OpBuilder &builder, Location loc, ArrayRef<Value> tokens);
  std::pair<unsigned, unsigned> key(Value token);
  std::function<bool(Value)> below(ArrayRef<Value> targets);

  ModuleOp module;
  SymbolTableCollection symbols;
  /// Declared after `symbols`, which it shares.
  StateEffectAnalysis effects;
  /// Program order (a preorder walk of the function, ops the pass creates
  /// at the op they are inserted before), to keep the tokens added to an op
  /// in a deterministic order and to bound searches of the token graph.
  DenseMap<Operation *, unsigned> position;
};
LogicalResult ControlDeps::threadTokensThroughCalls() {
  // The functions with state that func.calls reach, and what each call
  // calls instead: the function itself, given a token argument and result,
  // or a private copy where the signature must stay (a public function is
  // the host's entry; a gradient op passes its callee no token).
  llvm::MapVector<func::FuncOp, func::FuncOp> targets;
  module.walk([&](func::CallOp call) {
    auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal() || takesToken(callee) ||
        effects.getSummary(callee).empty())
      return;
    targets.insert({callee, callee});
  });
  if (targets.empty())
    return success();

  SymbolTable &table = symbols.getSymbolTable(module);
  for (auto &[callee, target] : targets) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(callee, module);
    bool onlyCalls = uses && llvm::all_of(*uses, [](SymbolTable::SymbolUse use) {
      return isa<func::CallOp>(use.getUser());
    });
    if (!callee.isPrivate() || !onlyCalls) {
      target = callee.clone();
      target.setPrivate();
      target.setName(("__ordered_" + callee.getName()).str());
      table.insert(target, std::next(Block::iterator(callee)));
      effects.addCopy(callee, target);
    }
    Type control = ControlType::get(module.getContext());
    if (failed(target.insertArgument(target.getNumArguments(), control, {},
                                     target.getLoc())) ||
        failed(target.insertResult(target.getNumResults(), control, {})))
      return target.emitOpError("cannot take and return a control token");
  }
  // Calls of a copy call it; their token operand and result are added when
  // the caller is ordered.
  module.walk([&](func::CallOp call) {
    auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    auto it = targets.find(callee);
    if (it != targets.end() && it->second != callee)
      call.setCallee(it->second.getName());
  });
  return success();
}

SetVector<Value> ControlDeps::predecessors(const StateEffects &opEffects,
                                           const State &state) {
  SetVector<Value> preds;
  auto add = [&](Value token) {
    if (token)
      preds.insert(token);
  };
  add(state.lastUnknown);
  if (opEffects.unknown) {
    for (const auto &[cls, slot] : state.slots) {
      add(slot.lastWrite);
      for (Value read : slot.reads)
        add(read);
    }
    return preds;
  }
  for (auto [resource, access] : opEffects.accesses) {
    auto it = state.slots.find(effects.aliasClass(resource));
    if (it == state.slots.end())
      continue;
    add(it->second.lastWrite);
    if (access & StateEffects::kWrite)
      for (Value read : it->second.reads)
        add(read);
  }
  return preds;
}

void ControlDeps::record(Value token, const StateEffects &opEffects,
                         State &state) {
  if (opEffects.unknown) {
    state.slots.clear();
    state.lastUnknown = token;
    return;
  }
  for (auto [resource, access] : opEffects.accesses) {
    Slot &slot = state.slots[effects.aliasClass(resource)];
    if (access & StateEffects::kWrite) {
      slot.lastWrite = token;
      slot.reads.clear();
    } else {
      slot.reads.push_back(token);
    }
  }
}

SmallVector<Value>
ControlDeps::missingTokens(ArrayRef<Value> required,
                           const DenseSet<Value> &reached) {
  SetVector<Value> missing;
  for (Value token : required)
    if (!reached.contains(token))
      missing.insert(token);
  // Keep only the last ones: drop a token another missing one waits for.
  DenseSet<Value> implied;
  auto prune = below(missing.getArrayRef());
  for (Value token : missing)
    collectAncestors(token, implied, prune);
  SmallVector<Value> result = llvm::to_vector(llvm::make_filter_range(
      missing, [&](Value token) { return !implied.contains(token); }));
  llvm::stable_sort(result, [&](Value a, Value b) { return key(a) < key(b); });
  return result;
}

/// Program order; a loop's carried token comes at its loop.
std::pair<unsigned, unsigned> ControlDeps::key(Value token) {
  if (auto arg = dyn_cast<BlockArgument>(token))
    return {position.lookup(arg.getOwner()->getParentOp()),
            arg.getArgNumber()};
  auto result = cast<OpResult>(token);
  return {position.lookup(result.getOwner()), result.getResultNumber()};
}

/// Searching for `targets`, a token before all of them need not be looked
/// behind: what it waits for comes before it. (An scf op's token waits for
/// ops in its regions, which come after it, but those wait in turn only
/// for tokens before the scf op or inside it, and the targets, taken from
/// the state, the block or enclosing blocks, are never inside it.)
std::function<bool(Value)> ControlDeps::below(ArrayRef<Value> targets) {
  unsigned floor = std::numeric_limits<unsigned>::max();
  for (Value token : targets)
    floor = std::min(floor, key(token).first);
  return [this, floor](Value token) { return key(token).first < floor; };
}

/// One token standing for all of `tokens`.
Value ControlDeps::join(OpBuilder &builder, Location loc,
                        ArrayRef<Value> tokens) {
  if (tokens.size() == 1)
    return tokens.front();
  auto group = GroupOp::create(
      builder, loc, ControlType::get(builder.getContext()), tokens);
  position[group] = position.lookup(group->getNextNode());
  return group;
}

void ControlDeps::routeOperands(Operation *user, ArrayRef<Value> required) {
  if (required.empty())
    return;
  OpBuilder builder(user);
  DenseMap<Value, Value> routed;
  for (OpOperand &operand : user->getOpOperands()) {
    Value value = operand.get();
    if (!canWaitOn(value.getType()))
      continue;
    if (Value done = routed.lookup(value)) {
      operand.set(done);
      continue;
    }
    SmallVector<Value> tokens =
        missingTokens(required, waitedFor(value, below(required)));
    if (tokens.empty())
      continue;
    Value waited = IdentityOp::create(builder, user->getLoc(), value.getType(),
                                      value, tokens);
    routed[value] = waited;
    operand.set(waited);
  }
}

void ControlDeps::replaced(Operation *from, Operation *to) {
  position[to] = position.lookup(from);
}

/// Makes the token passed as `token` (a loop's initial token, a call's
/// token argument) wait for `preds` too.
void ControlDeps::waitAlsoFor(OpOperand &token, ArrayRef<Value> preds) {
  // The token there may itself be implied by the new ones.
  SmallVector<Value> required = {token.get()};
  llvm::append_range(required, preds);
  SmallVector<Value> tokens = missingTokens(required, {});
  if (tokens.size() == 1 && tokens.front() == token.get())
    return;
  OpBuilder builder(token.getOwner());
  token.set(join(builder, token.getOwner()->getLoc(), tokens));
}

/// Sets operand `index` of a region's terminator (appending it when the
/// terminator has no such operand yet) to a token that waits for
/// `required`; a token already there is kept and joined with what it
/// misses.
void ControlDeps::yieldToken(Operation *terminator, unsigned index,
                             ArrayRef<Value> required) {
  SmallVector<Value> tokens;
  DenseSet<Value> reached;
  bool exists = index < terminator->getNumOperands();
  if (exists) {
    Value token = terminator->getOperand(index);
    tokens.push_back(token);
    reached = reachedFrom(token, below(required));
  }
  llvm::append_range(tokens, missingTokens(required, reached));
  if (exists && tokens.size() == 1)
    return;
  OpBuilder builder(terminator);
  Value token = join(builder, terminator->getLoc(), tokens);
  if (exists)
    terminator->setOperand(index, token);
  else
    terminator->insertOperands(index, token);
}

/// scf.if, scf.index_switch, scf.execute_region: one of the regions runs
/// (the only one, for execute_region) and yields the op's results.
FailureOr<Operation *> ControlDeps::orderBranches(Operation *op,
                                                  ArrayRef<Value> preds,
                                                  const State &state) {
  Value existing = getToken(op);
  if (!existing) {
    op = withTokenResult(op);
    // An if without else gets an else (yielding the tokens the if waits
    // for).
    if (auto ifOp = dyn_cast<scf::IfOp>(op);
        ifOp && ifOp.getElseRegion().empty()) {
      OpBuilder builder(op);
      builder.createBlock(&ifOp.getElseRegion());
      auto yield = scf::YieldOp::create(builder, op->getLoc());
      position[yield] = position.lookup(op);
    }
    existing = getToken(op);
  }
  unsigned index = cast<OpResult>(existing).getResultNumber();
  for (Region &region : op->getRegions()) {
    for (Block &block : region) {
      // A region starts from the state at the op: its ops wait for outer
      // tokens directly. (Blocks of one region are not ordered among
      // themselves, as in a function of several blocks.)
      FailureOr<SmallVector<Value>> last = orderOps(block, state);
      if (failed(last))
        return failure();
      Operation *terminator = block.getTerminator();
      if (!isa<scf::YieldOp>(terminator))
        continue;
      // Whichever region runs, the token stands for everything the op
      // waits for as a whole, not only for what this region touched.
      SmallVector<Value> required(preds);
      llvm::append_range(required, *last);
      yieldToken(terminator, index, required);
    }
  }
  return op;
}

FailureOr<Operation *> ControlDeps::orderFor(scf::ForOp op,
                                             ArrayRef<Value> preds) {
  auto isToken = [](BlockArgument arg) {
    return isa<ControlType>(arg.getType());
  };
  auto args = op.getRegionIterArgs();
  auto found = llvm::find_if(args, isToken);
  if (found == args.end()) {
    // Carry one more value, the token: iteration i+1 starts from the token
    // iteration i yields.
    OpBuilder builder(op);
    Value init = join(builder, op.getLoc(), missingTokens(preds, {}));
    IRRewriter rewriter(op.getContext());
    rewriter.setInsertionPoint(op);
    unsigned pos = position.lookup(op);
    FailureOr<LoopLikeOpInterface> newOp = op.replaceWithAdditionalYields(
        rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> newArgs) {
          return SmallVector<Value>(newArgs.begin(), newArgs.end());
        });
    if (failed(newOp))
      return op.emitOpError("cannot carry a control token");
    op = cast<scf::ForOp>(newOp->getOperation());
    position[op] = pos;
    // yieldToken below sets what the iteration yields.
    op.getBody()->getTerminator()->eraseOperands(op.getNumRegionIterArgs() - 1);
    found = std::prev(op.getRegionIterArgs().end());
  } else {
    waitAlsoFor(*op.getTiedLoopInit(*found), preds);
  }
  BlockArgument carried = *found;
  unsigned index = carried.getArgNumber() - op.getNumInductionVars();

  State state;
  state.lastUnknown = carried;
  FailureOr<SmallVector<Value>> last = orderOps(*op.getBody(), state);
  if (failed(last))
    return failure();
  SmallVector<Value> required = {carried};
  llvm::append_range(required, *last);
  yieldToken(op.getBody()->getTerminator(), index, required);
  return op.getOperation();
}

FailureOr<Operation *> ControlDeps::orderWhile(scf::WhileOp op,
                                               ArrayRef<Value> preds) {
  auto isToken = [](Value value) { return isa<ControlType>(value.getType()); };
  auto beforeArgs = op.getBeforeArguments();
  auto beforeFound = llvm::find_if(beforeArgs, isToken);
  Value result = getToken(op);
  if (beforeFound == beforeArgs.end() || !result) {
    // Carry one more value, the token, through both regions and out.
    MLIRContext *context = op.getContext();
    Type control = ControlType::get(context);
    OpBuilder builder(op);
    SmallVector<Value> inits(op.getInits());
    inits.push_back(join(builder, op.getLoc(), missingTokens(preds, {})));
    SmallVector<Type> types(op.getResultTypes());
    types.push_back(control);
    auto newOp = scf::WhileOp::create(builder, op.getLoc(), types, inits);
    newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    newOp.getBefore().takeBody(op.getBefore());
    newOp.getAfter().takeBody(op.getAfter());
    newOp.getBeforeBody()->addArgument(control, op.getLoc());
    newOp.getAfterBody()->addArgument(control, op.getLoc());
    op.replaceAllUsesWith(newOp.getResults().drop_back());
    replaced(op, newOp);
    op.erase();
    op = newOp;
    beforeFound = std::prev(op.getBeforeArguments().end());
    result = op.getResults().back();
  } else {
    waitAlsoFor(*op.getTiedLoopInit(cast<BlockArgument>(*beforeFound)), preds);
  }
  auto beforeArg = cast<BlockArgument>(*beforeFound);
  unsigned resultIndex = cast<OpResult>(result).getResultNumber();
  BlockArgument afterArg = op.getAfterBody()->getArgument(resultIndex);

  // The condition passes the token to the body and out of the loop; the
  // body passes it to the next iteration's condition.
  State before;
  before.lastUnknown = beforeArg;
  FailureOr<SmallVector<Value>> last = orderOps(*op.getBeforeBody(), before);
  if (failed(last))
    return failure();
  SmallVector<Value> required = {beforeArg};
  llvm::append_range(required, *last);
  yieldToken(op.getConditionOp(), /*index=*/1 + resultIndex, required);

  State after;
  after.lastUnknown = afterArg;
  last = orderOps(*op.getAfterBody(), after);
  if (failed(last))
    return failure();
  required = {afterArg};
  llvm::append_range(required, *last);
  yieldToken(op.getAfterBody()->getTerminator(), beforeArg.getArgNumber(),
             required);
  return op.getOperation();
}

/// The same op with one more result, the token (its regions moved over):
/// an scf op whose regions touch state, or a gradient op whose callee does.
Operation *ControlDeps::withTokenResult(Operation *op) {
  OpBuilder builder(op);
  OperationState copy(op->getLoc(), op->getName());
  copy.addOperands(op->getOperands());
  copy.propertiesAttr = op->getPropertiesAsAttribute();
  copy.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
  copy.addTypes(op->getResultTypes());
  copy.addTypes(ControlType::get(op->getContext()));
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    copy.addRegion();
  Operation *newOp = builder.create(copy);
  for (auto [from, to] : llvm::zip(op->getRegions(), newOp->getRegions()))
    to.takeBody(from);
  op->replaceAllUsesWith(newOp->getResults().drop_back());
  replaced(op, newOp);
  op->erase();
  return newOp;
}

/// A call of a function that takes a token gets one (or, already having one,
/// makes it wait for `preds` too) and returns one.
Operation *ControlDeps::orderCall(func::CallOp call, func::FuncOp callee,
                                  ArrayRef<Value> preds) {
  unsigned index = *tokenArgument(callee);
  if (call.getNumOperands() == callee.getNumArguments()) {
    waitAlsoFor(call->getOpOperand(index), preds);
    return call;
  }
  OpBuilder builder(call);
  SmallVector<Value> operands(call.getOperands());
  operands.insert(operands.begin() + index,
                  join(builder, call.getLoc(),
                       missingTokens(preds, reachedBy(call, below(preds)))));
  auto newCall = func::CallOp::create(builder, call.getLoc(), callee, operands);
  newCall->setDiscardableAttrs(call->getDiscardableAttrDictionary());
  unsigned result = tokenResult(callee);
  for (auto [i, value] : llvm::enumerate(call.getResults()))
    value.replaceAllUsesWith(newCall.getResult(i < result ? i : i + 1));
  replaced(call, newCall);
  call.erase();
  return newCall;
}

FailureOr<Operation *> ControlDeps::orderOp(Operation *op,
                                            const StateEffects &opEffects,
                                            State &state) {
  SetVector<Value> preds = predecessors(opEffects, state);
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (callee && takesToken(callee))
      op = orderCall(call, callee, preds.getArrayRef());
  } else if (isa<GradientRequestOpInterface>(op) && !getToken(op)) {
    // A gradient op runs its callee: it yields a token once ordered.
    op = withTokenResult(op);
  }
  Value token = getToken(op);
  if (!token) {
    // A call of a body we cannot see takes no tokens: its tensor operands
    // wait instead.
    routeOperands(op, preds.getArrayRef());
    return op;
  }
  if (!isa<func::CallOp>(op)) {
    SmallVector<Value> tokens = missingTokens(
        preds.getArrayRef(), reachedBy(op, below(preds.getArrayRef())));
    // By convention the `after(...)` tokens are a stateful op's trailing
    // operands: with operand segments (random's optional `like`), the last
    // segment.
    if (op->hasTrait<OpTrait::AttrSizedOperandSegments>()) {
      std::optional<Attribute> attr = op->getInherentAttr("operandSegmentSizes");
      auto sizes = attr ? dyn_cast_or_null<DenseI32ArrayAttr>(*attr) : nullptr;
      if (!sizes || sizes.empty())
        return op->emitOpError("takes control tokens, but not as its "
                               "trailing operands");
      SmallVector<int32_t> grown(sizes.asArrayRef());
      grown.back() += tokens.size();
      op->setInherentAttr(
          StringAttr::get(op->getContext(), "operandSegmentSizes"),
          DenseI32ArrayAttr::get(op->getContext(), grown));
    }
    op->insertOperands(op->getNumOperands(), tokens);
  }
  record(token, opEffects, state);
  return op;
}

FailureOr<SmallVector<Value>> ControlDeps::orderOps(Block &block,
                                                    State state) {
  SmallVector<Value> tokens;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (carriesTokens(&op)) {
      // The scf op becomes one node of the token graph: it touches what its
      // regions touch, waits for what that requires, and what follows waits
      // for its token.
      StateEffects regionEffects = effects.getRegionEffects(&op);
      if (regionEffects.empty())
        continue;
      SmallVector<Value> preds =
          predecessors(regionEffects, state).takeVector();
      FailureOr<Operation *> node = failure();
      if (auto forOp = dyn_cast<scf::ForOp>(op))
        node = orderFor(forOp, preds);
      else if (auto whileOp = dyn_cast<scf::WhileOp>(op))
        node = orderWhile(whileOp, preds);
      else
        node = orderBranches(&op, preds, state);
      if (failed(node))
        return failure();
      Value token = getToken(*node);
      record(token, regionEffects, state);
      tokens.push_back(token);
      continue;
    }

    // Other region ops: their regions see the state at the op, and tokens
    // do not leave them.
    if (op.getNumRegions() && !op.hasTrait<OpTrait::IsIsolatedFromAbove>())
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          if (failed(orderBlock(nested, state)))
            return failure();

    StateEffects opEffects = effects.getEffects(&op);
    if (opEffects.empty())
      continue;
    FailureOr<Operation *> node = orderOp(&op, opEffects, state);
    if (failed(node))
      return failure();
    if (Value token = getToken(*node))
      tokens.push_back(token);
  }

  // The last ones: those no other op of the block waits for.
  DenseSet<Value> implied;
  auto prune = below(tokens);
  for (Value token : tokens)
    collectAncestors(token, implied, prune);
  return llvm::to_vector(llvm::make_filter_range(
      tokens, [&](Value token) { return !implied.contains(token); }));
}

LogicalResult ControlDeps::orderBlock(Block &block, State state) {
  FailureOr<SmallVector<Value>> last = orderOps(block, state);
  if (failed(last))
    return failure();
  Operation *terminator = block.empty() ? nullptr : &block.back();
  if (!terminator || !(terminator->hasTrait<OpTrait::ReturnLike>() ||
                       isa<RegionBranchTerminatorOpInterface>(terminator)))
    return success();
  // Everything that ran in this block must run before what leaves it.
  routeOperands(terminator, *last);
  return success();
}

LogicalResult ControlDeps::orderFunction(func::FuncOp func) {
  if (!takesToken(func)) {
    for (Block &block : func.getBody())
      if (failed(orderBlock(block, State())))
        return failure();
    return success();
  }
  // The body starts from the token the caller passes, and returns one that
  // stands for all of it: the call is one node of the caller's token graph.
  BlockArgument entry = func.getArgument(*tokenArgument(func));
  for (Block &block : func.getBody()) {
    State state;
    state.lastUnknown = entry;
    FailureOr<SmallVector<Value>> last = orderOps(block, state);
    if (failed(last))
      return failure();
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    SmallVector<Value> required = {entry};
    llvm::append_range(required, *last);
    yieldToken(ret, tokenResult(func), required);
    // The results wait as in any function, so that they still do once the
    // call is inlined.
    routeOperands(ret, *last);
  }
  return success();
}

LogicalResult ControlDeps::order(func::FuncOp func) {
  position.clear();
  func.walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position[op] = position.size(); });
  return orderFunction(func);
}

LogicalResult ControlDeps::run() {
  if (failed(threadTokensThroughCalls()))
    return failure();
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && failed(order(func)))
      return failure();
  return success();
}

struct AutoControlDepsPass
    : mlir::trace::impl::TraceAutoControlDepsBase<AutoControlDepsPass> {
  void runOnOperation() override {
    if (failed(ControlDeps(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::trace::threadControlToken(func::FuncOp func) {
  Type control = ControlType::get(func.getContext());
  if (failed(func.insertArgument(func.getNumArguments(), control, {},
                                 func.getLoc())) ||
      failed(func.insertResult(func.getNumResults(), control, {})))
    return func.emitOpError("cannot take and return a control token");
  // The function now takes a token: its body is ordered from it, and what
  // returns it waits for all of the body.
  return ControlDeps(func->getParentOfType<ModuleOp>()).order(func);
}
