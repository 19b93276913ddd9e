//===- Batcher.h - Batched functions for trace.vmap -----------------------===//

#ifndef TRACEC_TRANSFORMS_DIFFERENTIATION_BATCHER_H
#define TRACEC_TRANSFORMS_DIFFERENTIATION_BATCHER_H

#include "tracec/Dialect/Trace/IR/BatchState.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::trace {

/// Rewrites trace.vmap ops into calls of batched functions, generated once
/// per callee, batched arguments and batch size (`__vmap_f_<b|u per
/// argument>_<size>`) from the ops' batching rules (BatchableOpInterface).
/// Used by trace-vmap and by trace-autodiff, which rewrites a vmap once its
/// callee holds no gradient op (so vmap(grad(f)) batches the generated
/// forward and backward functions: per-example gradients without a copy of
/// the unbatched arguments per example).
class Batcher {
public:
  /// New functions go into `symbols`, the module's table.
  explicit Batcher(SymbolTable &symbols) : symbols(symbols) {}

  /// Replaces `vmap` by a call of its callee's batched function, with
  /// transposes for in_axes and out_axes that are not 0.
  LogicalResult rewrite(VmapOp vmap);
  /// Rewrites the trace.vmap ops of `f` (once per function).
  LogicalResult rewriteVmapsIn(func::FuncOp f);
  /// The batched function of `callee`: its arguments batched (a leading
  /// dim of `size`) where `batchedArgs` says; its results batched where
  /// they vary across the batch, or all with `batchAllResults`.
  FailureOr<BatchedFunction> batched(Location loc, StringRef callee,
                                     ArrayRef<bool> batchedArgs, int64_t size,
                                     bool batchAllResults);

private:
  FailureOr<BatchedFunction> generate(func::FuncOp f,
                                      ArrayRef<bool> batchedArgs, int64_t size,
                                      bool batchAllResults);

  SymbolTable &symbols;
  DenseSet<Operation *> rewritten;
  llvm::StringMap<BatchedFunction> generated;
};

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_DIFFERENTIATION_BATCHER_H
