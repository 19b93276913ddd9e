//===- WaitPolicy.h - An AOT object's OpenMP workers spin, then sleep -----===//
//
// An object compiled with threads calls libomp, which the program links; it
// does not go through the JIT, which sets the workers' wait policy before
// libomp starts. The object sets it itself, in a constructor: the same
// policy wherever compiled code runs.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_AOT_WAITPOLICY_H
#define TRACEC_LIB_AOT_WAITPOLICY_H

#include "mlir/IR/BuiltinOps.h"

namespace tracec::aot {

/// In `module`, lowered to the LLVM dialect: when its code has parallel
/// regions (omp.parallel), adds a constructor that sets
/// KMP_BLOCKTIME to TRACEC_OPENMP_BLOCKTIME (tracec_openmp.h) unless the
/// environment has KMP_BLOCKTIME or OMP_WAIT_POLICY. libomp reads them
/// when it starts, at the first parallel region, after every constructor.
mlir::LogicalResult setOpenMPWaitPolicy(mlir::ModuleOp module);

} // namespace tracec::aot

#endif // TRACEC_LIB_AOT_WAITPOLICY_H
