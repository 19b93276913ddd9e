//===- Pipelines.h - The named tracec pass pipelines ----------------------===//

#ifndef TRACEC_PIPELINES_PIPELINES_H
#define TRACEC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace tracec {

/// trace (on tensors) -> LLVM dialect for the host CPU. Entry points use
/// destination passing: every result becomes a caller-owned out-parameter
/// appended after the arguments, and every buffer the code allocates
/// internally is freed before it returns.
llvm::LogicalResult buildCpuPipeline(mlir::OpPassManager &pm);

/// The textual form of the CPU pipeline (what --tracec-cpu-pipeline runs).
llvm::StringRef cpuPipelineText();

/// Registers the upstream passes, tracec's passes and --tracec-cpu-pipeline
/// with the pass registry (for tracec-opt).
void registerPipelines();

} // namespace tracec

#endif // TRACEC_PIPELINES_PIPELINES_H
