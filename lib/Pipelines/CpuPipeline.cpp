//===- CpuPipeline.cpp - trace -> LLVM dialect for the host CPU -----------===//
//
// The correct-and-complete baseline: linalg is lowered to loops. Tiling,
// packing and vectorization slot in between bufferization and the loop
// lowering.
//
//===----------------------------------------------------------------------===//

#include "tracec/Pipelines/Pipelines.h"

#include "HostToLLVM.h"
#include "TraceToBuffers.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "tracec/Target/Cpu/Passes.h"
#include "tracec/Transforms/Bufferization/Passes.h"

using namespace mlir;

/// linalg -> loops. With threads, the parallel dimensions of linalg ops and
/// scf.forall tiles become scf.parallel; trace-parallel-loops keeps one
/// per loop nest worth a fork/join and makes the rest serial, and
/// convert-scf-to-openmp turns those into omp.parallel/omp.wsloop. Stages
/// that emit their own scf.forall/scf.parallel (tiled contractions) run
/// before this one.
static void addLoopLowering(OpPassManager &pm,
                            const tracec::CpuPipelineOptions &options) {
  if (options.threads == 1) {
    pm.addPass(createConvertLinalgToLoopsPass());
    pm.addPass(createForallToForLoopPass());
    return;
  }
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createForallToParallelLoopPass());
  trace::TraceParallelLoopsOptions parallel;
  parallel.minWork = options.parallelMinWork;
  pm.addPass(trace::createTraceParallelLoops(parallel));
  ConvertSCFToOpenMPPassOptions omp;
  omp.numThreads = options.threads;
  pm.addPass(createConvertSCFToOpenMPPass(omp));
  // It wraps each parallel body in a memref.alloca_scope, which must stay
  // one block; canonicalization inlines those without allocas before the
  // loops inside become blocks.
  pm.addPass(createCanonicalizerPass());
}

void tracec::buildCpuPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options) {
  buildTraceToBuffersPipeline(pm);

  // Loops, then LLVM.
  pm.addPass(trace::createTraceContractionLoopOrder());
  // Copies between strided buffers would call the C runner library's
  // memrefCopy; as linalg copies they become loops.
  pm.addPass(trace::createTraceExpandCopies());
  // Intermediates into one workspace per function, so warm calls
  // allocate nothing. After the stages that create buffers (packing),
  // before the loops.
  if (options.workspace) {
    trace::TracePlanWorkspaceOptions workspace;
    workspace.shareBytes = options.workspaceShareBytes;
    pm.addPass(trace::createTracePlanWorkspace(workspace));
  }
  addLoopLowering(pm, options);
  // Integer powers have no LLVM intrinsic: outline them as loops.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  buildHostToLLVMPipeline(pm);
  if (options.threads != 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
