//===- HostToLLVM.h - Host code to the LLVM dialect, for both pipelines ---===//

#ifndef TRACEC_LIB_PIPELINES_HOSTTOLLVM_H
#define TRACEC_LIB_PIPELINES_HOSTTOLLVM_H

#include "mlir/Pass/PassManager.h"

namespace tracec {

/// Adds the conversions of host code (math, arith, func, cf, ub) to the
/// LLVM dialect. Math without an LLVM intrinsic (erf) becomes a libm call;
/// the libm symbols resolve in the JIT's process or at link time. The
/// caller reconciles the casts left between converted and unconverted code.
void buildHostToLLVMPipeline(mlir::OpPassManager &pm);

} // namespace tracec

#endif // TRACEC_LIB_PIPELINES_HOSTTOLLVM_H
