//===- CpuDispatch.h - One object, code for several x86-64 levels ---------===//
//
// An AOT object runs on CPUs other than the one that built it. By default it
// carries the model twice, for x86-64-v3 (AVX2, FMA) and x86-64-v4
// (AVX-512), and each exported C function picks the best variant the CPU
// has, at its first call, from CPUID — as OpenBLAS and oneDNN pick their
// kernels. A CPU with none of them gets TRACEC_AOT_UNSUPPORTED_CPU from
// every call, not SIGILL.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_AOT_CPUDISPATCH_H
#define TRACEC_AOT_CPUDISPATCH_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tracec::aot {

/// What `--target-cpu` asks for.
struct TargetCpus {
  /// LLVM CPU names, lowest x86-64 level first when `dispatch`.
  std::vector<std::string> cpus;
  /// The object checks the CPU at run time and picks among `cpus` (all
  /// x86-64 levels); else there is one CPU (native, skylake-avx512, ...)
  /// and no check.
  bool dispatch = false;
};

/// The x86-64 levels the default (`portable`) object is built for.
inline constexpr const char kPortableCpus[] = "x86-64-v3,x86-64-v4";

/// Parses `spec`: `portable` (kPortableCpus), a comma-separated list of
/// x86-64 levels (x86-64, x86-64-v2, x86-64-v3, x86-64-v4) to dispatch
/// among, or one LLVM CPU name. Errors say what was wrong with `spec`.
llvm::Expected<TargetCpus> parseTargetCpus(llvm::StringRef spec);

/// The environment variable that caps the level an object picks (as
/// oneDNN's ONEDNN_MAX_CPU_ISA): x86-64, x86-64-v2, x86-64-v3, x86-64-v4.
inline constexpr const char kMaxCpuVariable[] = "TRACEC_MAX_CPU";

/// Links `variants` — the same C entry points compiled once per CPU of
/// `cpus`, in that order — into one module. Each exported function of the
/// variants becomes internal, renamed after its CPU, and an exported
/// function of its own name calls the variant for the highest level the
/// CPU has (capped by kMaxCpuVariable), or returns
/// TRACEC_AOT_UNSUPPORTED_CPU. `<prefix>_target_cpu()` names the variant
/// (NULL for none). Without `cpus.dispatch` there is one variant and no
/// check; `<prefix>_target_cpu()` returns its CPU name.
llvm::Expected<std::unique_ptr<llvm::Module>>
linkCpuVariants(std::vector<std::unique_ptr<llvm::Module>> variants,
                const TargetCpus &cpus, llvm::StringRef prefix);

} // namespace tracec::aot

#endif // TRACEC_AOT_CPUDISPATCH_H
