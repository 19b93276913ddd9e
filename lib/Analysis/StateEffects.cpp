//===- StateEffects.cpp - What ops and functions do to variables ----------===//

#include "tracec/Analysis/StateEffects.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

using namespace mlir;
using namespace mlir::trace;

std::optional<CallSite> mlir::trace::asCallSite(SymbolTableCollection &symbols,
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

namespace {

/// The module's functions and the functions each one runs: by func.call
/// and by gradient ops (asCallSite), with a root that reaches every
/// function. mlir::CallGraph sees only CallOpInterface ops, and the
/// gradient ops are not calls in that sense and must not become them: a
/// gradient op's results are not its callee's results (they are
/// gradients), so the interprocedural analyses and transforms that take a
/// CallOpInterface op's results for the callee's returned values (the
/// inliner, dataflow analyses such as SCCP, bufferization across function
/// boundaries) would turn one into wrong code. So the graph is built here,
/// over the same call sites the summaries follow.
struct FunctionGraph {
  struct Node {
    /// Null for the root.
    func::FuncOp func;
    SmallVector<const Node *> callees;
  };

  FunctionGraph(ModuleOp module, SymbolTableCollection &symbols) {
    DenseMap<Operation *, Node *> nodes;
    for (auto func : module.getOps<func::FuncOp>()) {
      storage.push_back(std::make_unique<Node>());
      storage.back()->func = func;
      nodes[func] = storage.back().get();
      root.callees.push_back(storage.back().get());
    }
    for (const std::unique_ptr<Node> &node : storage) {
      llvm::SmallPtrSet<const Node *, 8> seen;
      node->func.walk([&](Operation *op) {
        std::optional<CallSite> site = asCallSite(symbols, op);
        if (!site || !site->callee)
          return;
        // A callee that is not a function of this module (one nested
        // deeper) has no node: the summaries take it as doing nothing.
        if (Node *callee = nodes.lookup(site->callee))
          if (seen.insert(callee).second)
            node->callees.push_back(callee);
      });
    }
  }

  Node root;
  SmallVector<std::unique_ptr<Node>> storage;
};

} // namespace

template <> struct llvm::GraphTraits<const FunctionGraph *> {
  using NodeRef = const FunctionGraph::Node *;
  using ChildIteratorType = SmallVector<NodeRef>::const_iterator;
  static NodeRef getEntryNode(const FunctionGraph *graph) {
    return &graph->root;
  }
  static ChildIteratorType child_begin(NodeRef node) {
    return node->callees.begin();
  }
  static ChildIteratorType child_end(NodeRef node) {
    return node->callees.end();
  }
};

StateEffectAnalysis::StateEffectAnalysis(ModuleOp module,
                                         SymbolTableCollection &symbols)
    : module(module), symbols(symbols) {
  computeAliases();
  computeSummaries();
}

Value StateEffectAnalysis::aliasClass(Value resource) {
  auto arg = dyn_cast<BlockArgument>(resource);
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return {};
  return aliases.getOrInsertLeaderValue(resource);
}

void StateEffectAnalysis::computeAliases() {
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

StateEffects StateEffectAnalysis::getEffects(Operation *op) {
  StateEffects result;
  if (std::optional<CallSite> site = asCallSite(symbols, op)) {
    func::FuncOp callee = site->callee;
    // A body we cannot see may do anything.
    if (!callee || callee.isExternal()) {
      result.unknown = true;
      return result;
    }
    const EffectSummary &summary = summaries[callee];
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
      access = StateEffects::kRead;
    else if (isa<MemoryEffects::Write>(effect.getEffect()))
      access = StateEffects::kWrite;
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

EffectSummary StateEffectAnalysis::summarize(func::FuncOp func) {
  EffectSummary summary;
  summary.argAccess.assign(func.getNumArguments(), 0);
  func.walk([&](Operation *op) {
    StateEffects effects = getEffects(op);
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

void StateEffectAnalysis::computeSummaries() {
  for (auto func : module.getOps<func::FuncOp>())
    summaries[func].argAccess.assign(func.getNumArguments(), 0);
  // Bottom-up over the strongly connected components of the call graph:
  // scc_iterator yields an SCC only after every SCC it reaches, so each
  // function's callees outside its SCC are summarized before it. Inside a
  // recursive SCC, iterate: summaries only grow (effects are only added),
  // so this reaches the least fixed point, the one a global iteration over
  // all functions would reach.
  FunctionGraph graph(module, symbols);
  const FunctionGraph *root = &graph;
  for (auto scc = llvm::scc_begin(root); !scc.isAtEnd(); ++scc) {
    bool recursive = scc.hasCycle();
    bool changed = true;
    while (changed) {
      changed = false;
      for (const FunctionGraph::Node *node : *scc) {
        func::FuncOp func = node->func;
        if (!func || func.isExternal())
          continue;
        EffectSummary summary = summarize(func);
        if (summary == summaries[func])
          continue;
        summaries[func] = std::move(summary);
        changed = recursive;
      }
    }
  }
}

StateEffects StateEffectAnalysis::getRegionEffects(Operation *op) {
  // Merged per resource, so that the op counts once per resource.
  llvm::MapVector<Value, unsigned> accesses;
  StateEffects result;
  op->walk([&](Operation *nested) {
    if (nested == op)
      return;
    StateEffects effects = getEffects(nested);
    result.unknown |= effects.unknown;
    for (auto [resource, access] : effects.accesses)
      accesses[resource] |= access;
  });
  result.accesses.assign(accesses.begin(), accesses.end());
  return result;
}

void StateEffectAnalysis::addCopy(func::FuncOp original, func::FuncOp copy) {
  summaries[copy] = summaries[original];
  // Arguments the original's callers may alias, the copy's callers may.
  for (auto [i, a] : llvm::enumerate(original.getArguments()))
    for (auto [j, b] : llvm::enumerate(original.getArguments()))
      if (i < j && isa<ResourceType>(a.getType()) && aliases.isEquivalent(a, b))
        aliases.unionSets(copy.getArgument(i), copy.getArgument(j));
}
