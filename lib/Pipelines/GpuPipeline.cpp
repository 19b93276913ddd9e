//===- GpuPipeline.cpp - trace -> NVVM kernels (PTX) + host LLVM ----------===//
//
// After the shared front half (trace -> linalg on buffers): matmuls become
// shared-memory tiled kernels, reductions a block-level tree per output
// element, and every other linalg op an scf.parallel (reduction dimensions
// stay sequential loops inside it) tiled into blocks of threads; all turn
// into gpu.launch ops, outlined into gpu.modules, lowered to NVVM and
// compiled to PTX by LLVM's NVPTX back end (no CUDA SDK). The host side
// calls the mgpu* entry points of the runtime shim (lib/Runtime/Cuda).
//
// Buffers: see trace-gpu-managed-buffers. All memory the code touches is
// CUDA managed memory; the caller's buffers are copied in and out around
// the function (as far as it reads and writes them), so host code and
// kernels may share any buffer.
//
//===----------------------------------------------------------------------===//

#include "tracec/Pipelines/Pipelines.h"

#include "TraceToBuffers.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

std::string tracec::gpuPipelineText(const GpuPipelineOptions &options) {
  std::string tileSizes;
  for (int64_t size : options.tileSizes)
    tileSizes += (tileSizes.empty() ? "" : ",") + std::to_string(size);
  // clang-format off
  std::string backHalf = llvm::formatv(
      // Copies between internal buffers become kernels; the copies that
      // stage the caller's buffers, added next, stay host memcpys.
      "trace-expand-copies, trace-gpu-managed-buffers,"
      // Matmuls through shared-memory tiles; reductions as a tree, a
      // block per output element.
      "func.func(trace-gpu-tiled-matmul{{tile={6}},"
      "  trace-gpu-block-reductions{{threads={5}},"
      "  convert-linalg-to-parallel-loops,"
      "  trace-gpu-tile-parallel-loops{{threads={0} tile-sizes={1}},"
      // Innermost loop dimension -> thread x: neighbouring threads touch
      // neighbouring elements.
      "  gpu-map-parallel-loops{{mapping-policy=innermost-first},"
      "  convert-parallel-loops-to-gpu),"
      // Integer powers become functions, which outlining copies into the
      // kernels' modules.
      "convert-math-to-funcs, gpu-kernel-outlining,"
      "trace-nvvm-attach-target{{chip={2} features={3} O={4}},"
      // What gpu-lower-to-nvvm-pipeline runs, with our target attached.
      "convert-nvgpu-to-nvvm, convert-vector-to-scf, convert-scf-to-cf,"
      "convert-nvvm-to-llvm, convert-func-to-llvm, expand-strided-metadata,"
      "lower-affine, convert-arith-to-llvm,"
      "convert-index-to-llvm, canonicalize, cse,"
      // No libdevice without the CUDA SDK: math functions become arithmetic
      // (f64 ones need libdevice). Locations are stripped after the last
      // diagnostic that names them.
      "gpu.module(trace-gpu-expand-math, convert-gpu-to-nvvm,"
      "  trace-nvvm-native-math, strip-debuginfo, canonicalize, cse,"
      "  reconcile-unrealized-casts),"
      "gpu-to-llvm, gpu-module-to-binary{{format=isa},"
      // Host code left over: control flow, loops without a parallel
      // dimension that no kernel took (argmax of a whole tensor).
      "convert-math-to-llvm, convert-math-to-libm, convert-arith-to-llvm,"
      "convert-func-to-llvm, convert-cf-to-llvm, convert-ub-to-llvm,"
      "canonicalize, cse, reconcile-unrealized-casts",
      options.threads.getValue(), tileSizes, options.chip.getValue(),
      options.features.getValue(), options.optLevel.getValue(),
      options.reductionThreads.getValue(), options.matmulTile.getValue());
  // clang-format on
  return ("builtin.module(" + traceToBuffersPipelineText() + "," + backHalf +
          ")")
      .str();
}

LogicalResult tracec::buildGpuPipeline(OpPassManager &pm,
                                       const GpuPipelineOptions &options) {
  return parseModulePipeline(gpuPipelineText(options), pm);
}

void tracec::registerGpuPipeline() {
  registerPipelinePasses();
  PassPipelineRegistration<GpuPipelineOptions>(
      "tracec-gpu-pipeline",
      "Lower trace functions to NVVM kernels compiled to PTX and host code "
      "calling the CUDA runtime shim (results become caller-owned "
      "out-parameters)",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        if (failed(buildGpuPipeline(pm, options)))
          llvm::report_fatal_error("tracec-gpu-pipeline does not parse");
      });
}
