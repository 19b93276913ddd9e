//===- StateEffects.h - What ops and functions do to variables --*- C++ -*-===//
//
// The effect analysis behind trace-auto-control-deps: which resources
// (`!trace.resource` values) an op reads and writes, and which effects it
// cannot attribute to one (print, random, a call of a body it cannot see).
// An op's effects come from its declared MemoryEffectOpInterface effects; a
// func.call's (or a gradient op's) from a summary of its callee, computed
// bottom-up over the strongly connected components of the graph of which
// function runs which (callees first; a fixed point only inside a
// recursive component); an scf op's from the ops in its regions. Resource arguments that one call
// passes the same resource for may alias, and count as one.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_ANALYSIS_STATEEFFECTS_H
#define TRACEC_ANALYSIS_STATEEFFECTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <optional>

namespace mlir::trace {

/// What an op (or a whole function) does to state: accesses of resource
/// values, or effects it cannot attribute to a resource (`unknown`).
struct StateEffects {
  enum Access : unsigned { kRead = 1, kWrite = 2 };

  bool unknown = false;
  SmallVector<std::pair<Value, unsigned>> accesses;

  bool empty() const { return !unknown && accesses.empty(); }
};

/// A function's effects on its resource arguments, transitively through the
/// functions it calls.
struct EffectSummary {
  bool unknown = false;
  SmallVector<unsigned> argAccess;

  bool empty() const {
    return !unknown && llvm::all_of(argAccess, [](unsigned a) { return !a; });
  }
  bool operator==(const EffectSummary &other) const {
    return unknown == other.unknown && argAccess == other.argAccess;
  }
};

/// An op that runs a function of the module on some of its operands: a
/// func.call, or a gradient op (which runs its callee's forward code).
struct CallSite {
  /// Null when the symbol names no function.
  func::FuncOp callee;
  ValueRange args;
};

/// `op` as a call site, or nothing where it is neither a func.call nor a
/// gradient op.
std::optional<CallSite> asCallSite(SymbolTableCollection &symbols,
                                   Operation *op);

/// The effects of the ops of a module on its variables. Computes, on
/// construction, which resource arguments may alias and each function's
/// summary; `symbols` is the module's, kept by the caller.
class StateEffectAnalysis {
public:
  StateEffectAnalysis(ModuleOp module, SymbolTableCollection &symbols);

  /// What `op` itself does (for a call or gradient op, what its callee
  /// does to the arguments). Region ops with recursive effects have none
  /// of their own: see getRegionEffects.
  StateEffects getEffects(Operation *op);

  /// What the ops in `op`'s regions do, merged per resource, so that the
  /// op counts once per resource.
  StateEffects getRegionEffects(Operation *op);

  /// What `func` does to its resource arguments.
  const EffectSummary &getSummary(func::FuncOp func) { return summaries[func]; }

  /// The class of resource arguments that `resource` may alias (one of
  /// them stands for the class), or null where it is not an argument of a
  /// function.
  Value aliasClass(Value resource);

  /// Records `copy`, a clone of `original` added to the module: the same
  /// summary, and its arguments alias where the original's do.
  void addCopy(func::FuncOp original, func::FuncOp copy);

private:
  void computeAliases();
  void computeSummaries();
  EffectSummary summarize(func::FuncOp func);

  ModuleOp module;
  SymbolTableCollection &symbols;
  /// Resource arguments that may alias: the same resource passed for both
  /// at some call.
  llvm::EquivalenceClasses<Value> aliases;
  DenseMap<Operation *, EffectSummary> summaries;
};

} // namespace mlir::trace

#endif // TRACEC_ANALYSIS_STATEEFFECTS_H
