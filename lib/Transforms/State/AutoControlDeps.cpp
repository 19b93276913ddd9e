//===- AutoControlDeps.cpp - Automatic control dependencies --------------===//
//
// TensorFlow's AutomaticControlDependencies, made explicit in SSA. Stateful
// ops (those yielding a !trace.control token) get `after(...)` tokens so that
// ops on one resource keep program order and ops with unknown effects are
// ordered with everything; the results of functions and of scf regions are
// routed through `trace.identity ... after(...)` so that no stateful op can
// be dropped as dead. What an op reads and writes comes from its declared
// MemoryEffectOpInterface effects; a func.call's (or a gradient op's) from a
// summary of its callee.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/State/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEAUTOCONTROLDEPS
#include "tracec/Transforms/State/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {

enum Access : unsigned { kRead = 1, kWrite = 2 };

/// What an op (or a whole function) does to state: accesses of resource
/// values, or effects it cannot attribute to a resource (`unknown`).
struct Effects {
  bool unknown = false;
  SmallVector<std::pair<Value, unsigned>> accesses;

  bool empty() const { return !unknown && accesses.empty(); }
};

/// A function's effects on its resource arguments, transitively through the
/// functions it calls.
struct Summary {
  bool unknown = false;
  SmallVector<unsigned> argAccess;

  bool operator==(const Summary &other) const {
    return unknown == other.unknown && argAccess == other.argAccess;
  }
};

/// The token a stateful op yields, or null for ops that yield none.
Value getToken(Operation *op) {
  for (Value result : op->getResults())
    if (isa<ControlType>(result.getType()))
      return result;
  return {};
}

/// Whether trace.identity accepts values of this type (Trace_Tensor).
bool canWaitOn(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return false;
  Type element = tensor.getElementType();
  if (element.isF16() || element.isBF16() || element.isF32() || element.isF64())
    return true;
  return element.isInteger(1) || element.isInteger(32) || element.isInteger(64);
}

/// The stateful ops `op` already waits for: the ops whose tokens reach it
/// through `after` operands, transitively (not `op` itself).
void collectAncestry(Operation *op, DenseSet<Operation *> &seen) {
  SmallVector<Operation *> worklist = {op};
  while (!worklist.empty()) {
    Operation *current = worklist.pop_back_val();
    for (Value operand : current->getOperands()) {
      if (!isa<ControlType>(operand.getType()))
        continue;
      Operation *def = operand.getDefiningOp();
      if (def && seen.insert(def).second)
        worklist.push_back(def);
    }
  }
}

/// The stateful ops a value is available only after: its producer (when
/// that is a stateful op) and everything the producer waits for.
DenseSet<Operation *> waitedFor(Value value) {
  DenseSet<Operation *> seen;
  Operation *def = value.getDefiningOp();
  if (!def)
    return seen;
  if (getToken(def))
    seen.insert(def);
  collectAncestry(def, seen);
  return seen;
}

class ControlDeps {
public:
  explicit ControlDeps(ModuleOp module) : module(module) {}

  LogicalResult run();

private:
  /// Per resource class: the last write and the reads since it. A class
  /// without a slot has not been touched since the last unknown op.
  struct Slot {
    Operation *lastWrite = nullptr;
    SmallVector<Operation *> reads;
  };
  struct State {
    llvm::MapVector<Value, Slot> slots;
    Operation *lastUnknown = nullptr;
  };

  void computeAliases();
  void computeSummaries();
  Summary summarize(func::FuncOp func);
  Effects getEffects(Operation *op);
  Value aliasClass(Value resource);

  LogicalResult orderBlock(Block &block, State state);
  SetVector<Operation *> predecessors(const Effects &effects,
                                      const State &state);
  void record(Operation *op, const Effects &effects, State &state);
  SmallVector<Value> missingTokens(ArrayRef<Operation *> required,
                                   const DenseSet<Operation *> &reached);
  void routeOperands(Operation *user, ArrayRef<Operation *> required);

  ModuleOp module;
  SymbolTableCollection symbols;
  /// Resource arguments that may alias: the same resource passed for both
  /// at some call.
  llvm::EquivalenceClasses<Value> aliases;
  DenseMap<Operation *, Summary> summaries;
  /// Program order (a preorder walk of the function), to keep the tokens
  /// added to an op in a deterministic order.
  DenseMap<Operation *, unsigned> position;
};

/// An op that runs a function of the module on some of its operands: a
/// func.call, or a gradient op (which runs its callee's forward code).
struct CallSite {
  /// Null when the symbol names no function.
  func::FuncOp callee;
  ValueRange args;
};

std::optional<CallSite> asCallSite(SymbolTableCollection &symbols,
                                   Operation *op) {
  auto lookup = [&](FlatSymbolRefAttr name) {
    return symbols.lookupNearestSymbolFrom<func::FuncOp>(op, name);
  };
  if (auto call = dyn_cast<func::CallOp>(op))
    return CallSite{lookup(call.getCalleeAttr()), call.getOperands()};
  if (auto gradient = dyn_cast<GradientRequestOpInterface>(op))
    return CallSite{lookup(gradient.getCalleeAttr()), gradient.getArgs()};
  return std::nullopt;
}

Value ControlDeps::aliasClass(Value resource) {
  auto arg = dyn_cast<BlockArgument>(resource);
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return {};
  return aliases.getOrInsertLeaderValue(resource);
}

void ControlDeps::computeAliases() {
  for (auto func : module.getOps<func::FuncOp>())
    for (BlockArgument arg : func.getArguments())
      if (isa<ResourceType>(arg.getType()))
        aliases.insert(arg);

  // A call that passes one resource (or two aliasing ones) twice makes the
  // callee's two parameters aliases; that may in turn make the arguments of
  // the calls inside the callee alias, so iterate to a fixed point.
  bool changed = true;
  while (changed) {
    changed = false;
    module.walk([&](Operation *op) {
      std::optional<CallSite> site = asCallSite(symbols, op);
      if (!site || !site->callee || site->callee.isExternal())
        return;
      func::FuncOp callee = site->callee;
      ValueRange operands = site->args;
      for (unsigned i = 0; i < operands.size(); ++i) {
        if (!isa<ResourceType>(operands[i].getType()))
          continue;
        for (unsigned j = i + 1; j < operands.size(); ++j) {
          if (operands[i] != operands[j]) {
            Value a = aliasClass(operands[i]);
            Value b = aliasClass(operands[j]);
            if (!a || a != b)
              continue;
          }
          Value x = callee.getArgument(i);
          Value y = callee.getArgument(j);
          if (aliases.isEquivalent(x, y))
            continue;
          aliases.unionSets(x, y);
          changed = true;
        }
      }
    });
  }
}

Effects ControlDeps::getEffects(Operation *op) {
  Effects result;
  if (std::optional<CallSite> site = asCallSite(symbols, op)) {
    func::FuncOp callee = site->callee;
    // A body we cannot see may do anything.
    if (!callee || callee.isExternal()) {
      result.unknown = true;
      return result;
    }
    const Summary &summary = summaries[callee];
    result.unknown = summary.unknown;
    for (auto [operand, access] : llvm::zip(site->args, summary.argAccess))
      if (access)
        result.accesses.emplace_back(operand, access);
    return result;
  }

  auto memory = dyn_cast<MemoryEffectOpInterface>(op);
  if (!memory) {
    // Region ops with recursive effects are looked into by the caller;
    // other calls have unknown effects; anything else is not state.
    if (isa<CallOpInterface>(op))
      result.unknown = true;
    return result;
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  memory.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    unsigned access = 0;
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      access = kRead;
    else if (isa<MemoryEffects::Write>(effect.getEffect()))
      access = kWrite;
    else
      continue;
    Value value = effect.getValue();
    // An effect on no particular value (print, random) is unknown; effects
    // on values that are not resources (buffers) are not variables.
    if (!value) {
      result.unknown = true;
      continue;
    }
    if (isa<ResourceType>(value.getType()))
      result.accesses.emplace_back(value, access);
  }
  return result;
}

Summary ControlDeps::summarize(func::FuncOp func) {
  Summary summary;
  summary.argAccess.assign(func.getNumArguments(), 0);
  func.walk([&](Operation *op) {
    Effects effects = getEffects(op);
    summary.unknown |= effects.unknown;
    for (auto [resource, access] : effects.accesses) {
      auto arg = dyn_cast<BlockArgument>(resource);
      if (arg && arg.getOwner()->isEntryBlock() &&
          arg.getOwner()->getParentOp() == func)
        summary.argAccess[arg.getArgNumber()] |= access;
      else
        summary.unknown = true;
    }
  });
  return summary;
}

void ControlDeps::computeSummaries() {
  // Monotone (effects are only added), so this reaches a fixed point, also
  // through recursion.
  for (auto func : module.getOps<func::FuncOp>())
    summaries[func].argAccess.assign(func.getNumArguments(), 0);
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      Summary summary = summarize(func);
      if (summary == summaries[func])
        continue;
      summaries[func] = std::move(summary);
      changed = true;
    }
  }
}

SetVector<Operation *> ControlDeps::predecessors(const Effects &effects,
                                                 const State &state) {
  SetVector<Operation *> preds;
  auto add = [&](Operation *op) {
    if (op)
      preds.insert(op);
  };
  add(state.lastUnknown);
  if (effects.unknown) {
    for (const auto &[cls, slot] : state.slots) {
      add(slot.lastWrite);
      for (Operation *read : slot.reads)
        add(read);
    }
    return preds;
  }
  for (auto [resource, access] : effects.accesses) {
    auto it = state.slots.find(aliasClass(resource));
    if (it == state.slots.end())
      continue;
    add(it->second.lastWrite);
    if (access & kWrite)
      for (Operation *read : it->second.reads)
        add(read);
  }
  return preds;
}

void ControlDeps::record(Operation *op, const Effects &effects,
                         State &state) {
  if (effects.unknown) {
    state.slots.clear();
    state.lastUnknown = op;
    return;
  }
  for (auto [resource, access] : effects.accesses) {
    Slot &slot = state.slots[aliasClass(resource)];
    if (access & kWrite) {
      slot.lastWrite = op;
      slot.reads.clear();
    } else {
      slot.reads.push_back(op);
    }
  }
}

SmallVector<Value>
ControlDeps::missingTokens(ArrayRef<Operation *> required,
                           const DenseSet<Operation *> &reached) {
  SmallVector<Operation *> missing;
  for (Operation *op : required)
    if (!reached.contains(op))
      missing.push_back(op);
  // Keep only the last ones: drop an op another missing op already waits
  // for.
  DenseSet<Operation *> implied;
  for (Operation *op : missing)
    collectAncestry(op, implied);
  llvm::erase_if(missing, [&](Operation *op) { return implied.contains(op); });
  llvm::sort(missing, [&](Operation *a, Operation *b) {
    return position.lookup(a) < position.lookup(b);
  });
  return llvm::map_to_vector(missing, [](Operation *op) { return getToken(op); });
}

void ControlDeps::routeOperands(Operation *user,
                                ArrayRef<Operation *> required) {
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
    SmallVector<Value> tokens = missingTokens(required, waitedFor(value));
    if (tokens.empty())
      continue;
    Value waited = IdentityOp::create(builder, user->getLoc(), value.getType(),
                                      value, tokens);
    routed[value] = waited;
    operand.set(waited);
  }
}

LogicalResult ControlDeps::orderBlock(Block &block, State state) {
  SmallVector<Operation *> stateful;
  for (Operation &op : block) {
    // Regions see the state at the op; their tokens cannot leave them.
    if (op.getNumRegions() && !op.hasTrait<OpTrait::IsIsolatedFromAbove>()) {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          if (failed(orderBlock(nested, state)))
            return failure();
    }

    Effects effects = getEffects(&op);
    if (effects.empty())
      continue;
    SetVector<Operation *> preds = predecessors(effects, state);
    Value token = getToken(&op);
    if (!token) {
      // A call of a stateful function takes no tokens: its tensor operands
      // wait instead.
      routeOperands(&op, preds.getArrayRef());
      continue;
    }
    if (op.hasTrait<OpTrait::AttrSizedOperandSegments>())
      return op.emitOpError("takes control tokens, but not as its trailing "
                            "operands");
    DenseSet<Operation *> reached;
    collectAncestry(&op, reached);
    SmallVector<Value> tokens = missingTokens(preds.getArrayRef(), reached);
    // By convention the `after(...)` tokens are a stateful op's trailing
    // operands.
    op.insertOperands(op.getNumOperands(), tokens);
    record(&op, effects, state);
    stateful.push_back(&op);
  }

  Operation *terminator = block.empty() ? nullptr : &block.back();
  if (!terminator || !(terminator->hasTrait<OpTrait::ReturnLike>() ||
                       isa<RegionBranchTerminatorOpInterface>(terminator)))
    return success();
  // Everything that ran in this block must run before what leaves it.
  DenseSet<Operation *> implied;
  for (Operation *op : stateful)
    collectAncestry(op, implied);
  SmallVector<Operation *> last;
  for (Operation *op : stateful)
    if (!implied.contains(op))
      last.push_back(op);
  routeOperands(terminator, last);
  return success();
}

LogicalResult ControlDeps::run() {
  computeAliases();
  computeSummaries();
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    position.clear();
    func.walk<WalkOrder::PreOrder>(
        [&](Operation *op) { position[op] = position.size(); });
    for (Block &block : func.getBody())
      if (failed(orderBlock(block, State())))
        return failure();
  }
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
