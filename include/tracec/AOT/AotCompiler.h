//===- AotCompiler.h - Lowering a model to exported C entry points --------===//
//
//   ArgumentNames names;
//   auto module = parseModel(sourceMgr, &context, names);
//   auto entries = collectEntryPoints(*module, {"step"}, "model", names);
//   lowerToCEntryPoints(*module, *entries);        // LLVM dialect
//   auto ir = translateToLLVMIR(*module, llvmContext, *machine);
//   emitHeader(os, *entries, options);
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_AOT_AOTCOMPILER_H
#define TRACEC_AOT_AOTCOMPILER_H

#include "tracec/AOT/EntryPoints.h"

#include "llvm/ADT/StringMap.h"

namespace tracec::aot {

/// Runs the CPU pipeline (autodiff included) on what `entries` need of
/// `module` — other public functions are dropped — and adds one C function
/// per entry (EntryPoint::symbol). Only those are exported: every other
/// function and global gets internal linkage, so several models link into
/// one program. On the CPU, the code's malloc/free go through a cache of
/// freed blocks compiled into the module (lib/AOT/BufferCache.h), so
/// buffers of run-time size are reused across calls. Errors go to the
/// context's diagnostic handler.
///
/// With a `cudaChip` (sm_80, ...), the GPU pipeline runs instead: kernels
/// are embedded in the object as PTX, and the object calls the mgpu* entry
/// points, so the program links TracecCudaRuntime (and libdl); the CUDA
/// driver is loaded when the object's constructor loads the kernels.
///
/// `threads` is CpuPipelineOptions::threads: 1 (the default) keeps the
/// object serial and libc/libm-only; any other count makes large loop
/// nests OpenMP parallel loops, so the program links libomp (-lomp).
/// `targetCpu` (CpuPipelineOptions::targetCpu) sizes the micro-kernels and
/// vectors for the CPU the object is for.
mlir::LogicalResult lowerToCEntryPoints(mlir::ModuleOp module,
                                        llvm::ArrayRef<EntryPoint> entries,
                                        llvm::StringRef cudaChip = {},
                                        unsigned threads = 1,
                                        llvm::StringRef targetCpu = "native");

/// Adds the C functions of `entries` to `module`, already lowered to the
/// LLVM dialect: each checks its buffers for null (and, with dynamic dims,
/// runs the entry's shape function through `<symbol>_shape`, also
/// exported), builds the memref descriptors and calls the lowered entry
/// (named as in `loweredNames` where the lowering renamed it).
mlir::LogicalResult
addCEntryPoints(mlir::ModuleOp module, llvm::ArrayRef<EntryPoint> entries,
                const llvm::StringMap<std::string> &loweredNames = {});

} // namespace tracec::aot

#endif // TRACEC_AOT_AOTCOMPILER_H
