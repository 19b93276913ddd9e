//===- AotCompiler.h - Lowering a model to exported C entry points --------===//
//
//   ArgumentNames names;
//   auto module = parseModel(sourceMgr, &context, names);
//   auto entries = collectEntryPoints(*module, {"step"}, "model", names);
//   auto code = compileObjectCode(*module, *entries, cpus, "model",
//                                 llvmContext);   // lowered, LLVM IR
//   emitMachineCode(*code->module, *code->machine, ...);
//   emitHeader(os, *entries, options);
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_AOT_AOTCOMPILER_H
#define TRACEC_AOT_AOTCOMPILER_H

#include "tracec/AOT/CpuDispatch.h"
#include "tracec/AOT/EntryPoints.h"

#include "llvm/Target/TargetMachine.h"

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
/// With a `cuda` chip (sm_80, ...), the GPU pipeline runs instead: kernels
/// are embedded in the object as PTX, and the object calls the mgpu* entry
/// points, so the program links TracecCudaRuntime (and libdl); the CUDA
/// driver is loaded when the object's constructor loads the kernels.
///
/// `threads` is CpuPipelineOptions::threads: 1 (the default) keeps the
/// object serial and libc/libm-only; any other count makes large loop
/// nests OpenMP parallel loops, so the program links libomp (-lomp).
/// `targetCpu` (CpuPipelineOptions::targetCpu) sizes the micro-kernels and
/// vectors for the CPU the object is for.
/// The GPU an object is for.
struct CudaTarget {
  /// sm_80, sm_90, ...; empty: the object is CPU code.
  std::string chip;
  /// f32 matmuls on tensor cores in TF32 (GpuPipelineOptions::tf32).
  bool tf32 = false;
};

mlir::LogicalResult lowerToCEntryPoints(mlir::ModuleOp module,
                                        llvm::ArrayRef<EntryPoint> entries,
                                        const CudaTarget &cuda = {},
                                        unsigned threads = 1,
                                        llvm::StringRef targetCpu = "native");

/// An object's code in LLVM IR, and the target machine that writes it.
struct ObjectCode {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> module;
};

/// Lowers what `entries` need of `module` (lowerToCEntryPoints) once per
/// CPU of `cpus`, translates each to LLVM IR optimized for its CPU and
/// links them into one module that picks among them at run time
/// (linkCpuVariants, `prefix` naming its `<prefix>_target_cpu`). GPU host
/// code is compiled once, for the first CPU. `lowered` sees each module in
/// the LLVM dialect with its CPU (the tool's --emit=mlir). Errors go to the
/// context's diagnostic handler.
mlir::FailureOr<ObjectCode> compileObjectCode(
    mlir::ModuleOp module, llvm::ArrayRef<EntryPoint> entries,
    const TargetCpus &cpus, llvm::StringRef prefix,
    llvm::LLVMContext &llvmContext, const CudaTarget &cuda = {},
    unsigned threads = 1,
    llvm::function_ref<void(mlir::ModuleOp, llvm::StringRef)> lowered = {});

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
