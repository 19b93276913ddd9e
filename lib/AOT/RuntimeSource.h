//===- RuntimeSource.h - Runtime code an AOT object carries as source -----===//
//
// The AOT object's own runtime pieces (the buffer cache, the wait-policy
// constructor) are LLVM dialect source merged into the lowered module.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_AOT_RUNTIMESOURCE_H
#define TRACEC_LIB_AOT_RUNTIMESOURCE_H

#include "mlir/IR/BuiltinOps.h"

namespace tracec::aot {

/// Parses `source` (LLVM dialect) and moves its ops to the end of
/// `module`. A name both define may only be a C library function that both
/// declare (the module keeps its declaration); any other clash is an error
/// saying that `what` defines the name. `beforeMerge` runs once the source
/// is checked, before its ops move in (to rename the module's own uses of
/// a name the source wraps).
mlir::LogicalResult
mergeRuntimeSource(mlir::ModuleOp module, llvm::StringRef source,
                   llvm::StringRef what,
                   llvm::function_ref<mlir::LogicalResult()> beforeMerge = {});

} // namespace tracec::aot

#endif // TRACEC_LIB_AOT_RUNTIMESOURCE_H
