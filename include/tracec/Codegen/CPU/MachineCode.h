//===- MachineCode.h - Object code of optimized LLVM modules --------------===//
//
// The last step of the CPU target: machine code. The ahead-of-time
// compiler writes one object file (or assembly); the JIT compiles a
// module in partitions side by side, one per core, since code generation
// and LLVM's optimizer are most of a compile and a module of outlined
// kernels splits into independent functions.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TARGET_CPU_MACHINECODE_H
#define TRACEC_TARGET_CPU_MACHINECODE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace tracec {

/// Writes `module` (optimized LLVM IR for `machine`) as an object file or
/// as assembly.
llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            llvm::CodeGenFileType kind,
                            llvm::raw_pwrite_stream &os);

/// Where compileCpuObjects' time went, partitions side by side.
struct ObjectCompileTimes {
  /// Splitting, and LLVM's optimizer until the slowest partition is done.
  double optimizeSeconds = 0;
  /// The rest: code generation.
  double codegenSeconds = 0;
};

/// Optimizes `module` (optimizeCpuModule) and compiles it for `cpu` (as
/// createCpuTargetMachine takes it) into object files that, linked
/// together, define what `module` defines. With `threads` > 1 the module is
/// split into up to that many partitions of whole functions (identical
/// functions merged first, internal symbols made hidden so the partitions
/// link) and each is optimized and compiled on its own thread, in its own
/// LLVMContext; `module` is left with those symbols changed.
llvm::Expected<llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
compileCpuObjects(llvm::Module &module, llvm::StringRef cpu, unsigned optLevel,
                  unsigned threads, ObjectCompileTimes *times = nullptr);

} // namespace tracec

#endif // TRACEC_TARGET_CPU_MACHINECODE_H
