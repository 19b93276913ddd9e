//===- Lowering.h - What the JIT and the AOT compiler both run ------------===//
//
// Both compilers lower a module the same way before LLVM: only the entries
// stay public (the pipeline's inliner and DCE drop what no entry uses),
// functions named like C library symbols are renamed
// (LibraryNames.h), and the CPU or GPU pipeline runs. What differs is
// after: the JIT links and loads the code (Runtime/Executable.cpp), the AOT
// compiler adds C entry points and writes an object (AOT/AotCompiler.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_PIPELINES_LOWERING_H
#define TRACEC_PIPELINES_LOWERING_H

#include "tracec/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <optional>

namespace tracec {

/// Which pipeline takes a module to the LLVM dialect: the GPU pipeline
/// when `gpu` is set, else the CPU pipeline.
struct LoweringOptions {
  std::optional<GpuPipelineOptions> gpu;
  CpuPipelineOptions cpu;
};

/// Adds the pipeline `options` choose to `pm`.
void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const LoweringOptions &options);

/// Makes every public function with a body that `isEntry` rejects private,
/// telling `onHidden` of each, so that only the entries and what they call
/// are compiled.
void keepOnlyEntriesPublic(
    mlir::ModuleOp module, llvm::function_ref<bool(mlir::func::FuncOp)> isEntry,
    llvm::function_ref<void(mlir::func::FuncOp)> onHidden = {});

/// A module annotated with the shard dialect becomes, in place, the program
/// of one process (trace-shard-to-collectives), before the entries'
/// signatures are read: a caller passes, and gets, this process's shards.
/// A module without a grid is left alone. Errors go to the context's
/// diagnostics.
mlir::LogicalResult partitionShards(mlir::ModuleOp module);

} // namespace tracec

#endif // TRACEC_PIPELINES_LOWERING_H
