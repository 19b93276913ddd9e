//===- CpuTarget.h - LLVM code generation for the host's CPUs -------------===//
//
// What the JIT and the ahead-of-time compiler share once the CPU pipeline
// has lowered a module to the LLVM dialect: the target machine and LLVM's
// optimizer configured for it.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TARGET_CPU_CPUTARGET_H
#define TRACEC_TARGET_CPU_CPUTARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace tracec {

/// A target machine for the host's triple. `cpu` is "native" (the host CPU
/// and every feature it has, as the JIT uses) or an LLVM CPU name such as
/// "x86-64-v3" or "skylake-avx512"; an unknown name is an error listing
/// none of LLVM's noise. Code is position independent, so an object file
/// may go into a shared library.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createCpuTargetMachine(llvm::StringRef cpu = "native", unsigned optLevel = 3);

/// The LLVM function attribute trace-cpu-outline-kernels puts on each
/// kernel: kVectorKernel for code the CPU pipeline vectorized (tiled,
/// unrolled and register-blocked already), kScalarKernel for the rest.
inline constexpr const char kKernelAttrName[] = "tracec-kernel";
inline constexpr const char kVectorKernel[] = "vector";
inline constexpr const char kScalarKernel[] = "scalar";

/// Marks the functions trace-cpu-dedup-kernels outlines on tensors:
/// trace-cpu-outline-kernels makes a kernel of even one loop nest in them.
inline constexpr llvm::StringLiteral kTensorKernelAttrName =
    "trace.tensor_kernel";

/// LLVM's optimizer for CPU code at `optLevel` (0-3), as the JIT and the
/// ahead-of-time compiler run it. Identical internal functions (kernels)
/// are merged first. Vector kernels get a scalar cleanup
/// pipeline (SROA, CSE, InstCombine, LICM, GVN, CFG simplification): at
/// -O3 LLVM's loop passes re-analyse their hundreds of loops for nothing
/// they would change, which took more than half of a compile. Everything
/// else gets the standard -O`optLevel` pipeline, which vectorizes and
/// unrolls the loops the CPU pipeline left scalar.
llvm::Error optimizeCpuModule(llvm::Module &module,
                              llvm::TargetMachine &machine,
                              unsigned optLevel);

/// Translates `module` (in the LLVM dialect) to LLVM IR for `machine` and
/// optimizes it with optimizeCpuModule, as the JIT does. Each function
/// carries the machine's CPU and features as attributes. Translation
/// errors are reported to the module's context as diagnostics.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                  llvm::TargetMachine &machine, unsigned optLevel = 3);

/// What code generation needs to know of a CPU's vector unit.
struct CpuVectorInfo {
  /// Width of the widest vector registers that float FMAs use (512 with
  /// AVX-512, 256 with AVX/AVX2, 128 with SSE or NEON).
  unsigned vectorBits = 128;
  /// Number of those registers (32 with AVX-512 or on AArch64, else 16).
  unsigned numRegisters = 16;
  /// x86 features that pick a micro-kernel variant (tracec_ukernels.h).
  bool avx2 = false, fma = false;
  /// vdpbf16ps (AVX512_BF16): bf16 pairs multiplied and summed into f32
  /// lanes, twice the f32 FMA's multiply-adds per instruction.
  bool avx512bf16 = false;
};

/// The vector unit of `cpu` ("native": the host's, from its features; else
/// an LLVM CPU name for the host's triple). An unknown name is an error.
/// The contraction tiles and the vectorizer of the other ops are sized by it.
llvm::Expected<CpuVectorInfo> getCpuVectorInfo(llvm::StringRef cpu = "native");

} // namespace tracec

#endif // TRACEC_TARGET_CPU_CPUTARGET_H
