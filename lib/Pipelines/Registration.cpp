//===- Registration.cpp - --tracec-cpu-pipeline, --tracec-gpu-pipeline ----===//

#include "tracec/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void tracec::registerPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "tracec-cpu-pipeline",
      "Lower trace functions to the LLVM dialect for the host CPU "
      "(results become caller-owned out-parameters)",
      buildCpuPipeline);
  PassPipelineRegistration<GpuPipelineOptions>(
      "tracec-gpu-pipeline",
      "Lower trace functions to NVVM kernels compiled to PTX and host code "
      "calling the CUDA runtime shim (results become caller-owned "
      "out-parameters)",
      buildGpuPipeline);
}
