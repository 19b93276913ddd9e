//===- CpuPipeline.cpp - trace -> LLVM dialect for the host CPU -----------===//
//
// The correct-and-complete baseline: linalg is lowered to loops. Tiling,
// packing and vectorization slot in between bufferization and the loop
// lowering.
//
//===----------------------------------------------------------------------===//

#include "tracec/Pipelines/Pipelines.h"

#include "TraceToBuffers.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

// clang-format off
static constexpr llvm::StringLiteral kCpuBackHalf =
    // Loops, then LLVM. math-to-libm catches what has no LLVM intrinsic
    // (erf); the libm symbols resolve in the JIT's process or at link time.
    "trace-contraction-loop-order, trace-expand-copies, convert-linalg-to-loops,"
    // Integer powers have no LLVM intrinsic: outline them as loops.
    "convert-math-to-funcs, convert-scf-to-cf,"
    "expand-strided-metadata,"
    "lower-affine, finalize-memref-to-llvm, convert-math-to-llvm,"
    "convert-math-to-libm, convert-arith-to-llvm, convert-func-to-llvm,"
    "convert-cf-to-llvm, convert-ub-to-llvm, reconcile-unrealized-casts";
// clang-format on

StringRef tracec::cpuPipelineText() {
  static const std::string text = ("builtin.module(" +
                                   traceToBuffersPipelineText() + "," +
                                   kCpuBackHalf + ")")
                                      .str();
  return text;
}

LogicalResult tracec::buildCpuPipeline(OpPassManager &pm) {
  return parseModulePipeline(cpuPipelineText(), pm);
}

void tracec::registerPipelines() {
  registerPipelinePasses();
  PassPipelineRegistration<>(
      "tracec-cpu-pipeline",
      "Lower trace functions to the LLVM dialect for the host CPU "
      "(results become caller-owned out-parameters)",
      [](OpPassManager &pm) {
        if (failed(buildCpuPipeline(pm)))
          llvm::report_fatal_error("tracec-cpu-pipeline does not parse");
      });
  registerGpuPipeline();
}
