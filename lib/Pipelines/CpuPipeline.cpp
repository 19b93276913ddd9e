//===- CpuPipeline.cpp - trace -> LLVM dialect for the host CPU -----------===//
//
// Contractions are packed, tiled and vectorized into FMA micro-kernels;
// elementwise ops and reductions are tiled and vectorized on tensors, their
// math functions become polynomials; what is left of linalg (gathers,
// integer contractions) is lowered to loops.
//
//===----------------------------------------------------------------------===//

#include "tracec/Pipelines/Pipelines.h"

#include "TraceToBuffers.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "tracec/Codegen/CPU/Passes.h"
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
  // one block; those without allocas are inlined before the loops inside
  // become blocks (canonicalization alone keeps the ones with calls).
  pm.addPass(trace::createTraceCpuInlineAllocaScopes());
  pm.addPass(createCanonicalizerPass());
  if (options.adaptiveParallel)
    pm.addPass(trace::createTraceAdaptiveParallel());
}

void tracec::buildCpuPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options) {
  buildTraceToBuffersPipeline(
      pm,
      [&](OpPassManager &onTensors) {
        // Contractions: pack, tile, vectorize (lib/Codegen/CPU).
        trace::TracePackContractionsOptions pack;
        pack.cpu = options.targetCpu;
        onTensors.addPass(trace::createTracePackContractions(pack));
        onTensors.addPass(createCanonicalizerPass());
        // Chains a graph repeats become one function each, before the
        // work that grows with their copies.
        if (options.dedupKernels)
          onTensors.addPass(trace::createTraceDedupKernels());
        trace::TraceTileContractionsOptions tile;
        tile.cpu = options.targetCpu;
        tile.ukernels = options.ukernels;
        tile.ukernelRelayouts = options.ukernelRelayouts;
        onTensors.addPass(trace::createTraceTileContractions(tile));
        onTensors.addPass(trace::createTraceVectorizeContractions());
        onTensors.addPass(createCanonicalizerPass());
        onTensors.addPass(createCSEPass());
        // The accumulator tile becomes a vector carried by the k loop.
        onTensors.addPass(createLoopInvariantSubsetHoistingPass());
        // Everything else: rows, then vectors.
        onTensors.addNestedPass<func::FuncOp>(trace::createTraceCpuFuseRows());
        trace::TraceCpuVectorizeOptions vectorize;
        vectorize.targetCpu = options.targetCpu;
        onTensors.addNestedPass<func::FuncOp>(
            trace::createTraceCpuVectorize(vectorize));
      },
      // On buffers, while no deallocation ops are in the way: the
      // micro-kernels become FMAs first, before the generic vector lowering
      // reshapes their contractions; then the other vectors are lowered.
      // The vectorized loops carry their buffers as loop results; folded
      // away, the buffers a function returns can become out-parameters. A
      // row's intermediates are allocated once, outside the row loop.
      [&](OpPassManager &onBuffers) {
        trace::TraceLowerContractionVectorsOptions lower;
        lower.cpu = options.targetCpu;
        onBuffers.addPass(trace::createTraceLowerContractionVectors(lower));
        onBuffers.addPass(createCanonicalizerPass());
        onBuffers.addNestedPass<func::FuncOp>(
            trace::createTraceCpuLowerVectors());
        // A row written in place is copied onto itself once its two
        // subviews are one.
        onBuffers.addPass(createCSEPass());
        onBuffers.addPass(createCanonicalizerPass());
        onBuffers.addNestedPass<func::FuncOp>(
            bufferization::createBufferLoopHoistingPass());
      },
      // Filter gradients of convolutions as register tiles of their own,
      // not trace-to-linalg's per-tap matmuls.
      [&](OpPassManager &onTrace) {
        trace::TraceCpuDirectFilterGradientsOptions filterGradients;
        filterGradients.cpu = options.targetCpu;
        onTrace.addPass(
            trace::createTraceCpuDirectFilterGradients(filterGradients));
      },
      options.overlapCollectives);

  // Loops, then LLVM.
  pm.addPass(trace::createTraceContractionLoopOrder());
  // Copies between strided buffers would call the C runner library's
  // memrefCopy; as linalg copies they become loops. Contiguous ones stay
  // memref.copy: a memcpy.
  trace::TraceExpandCopiesOptions copies;
  copies.memcpy = true;
  pm.addPass(trace::createTraceExpandCopies(copies));
  // Intermediates into one workspace per function, so warm calls
  // allocate nothing. After the stages that create buffers (packing),
  // before the loops.
  if (options.workspace) {
    trace::TracePlanWorkspaceOptions workspace;
    workspace.shareBytes = options.workspaceShareBytes;
    // Threads split buffers of different sizes at different bytes: shared,
    // their lines would pass between the cores every call.
    workspace.shareEqualSizesOnly = options.threads != 1;
    pm.addPass(trace::createTracePlanWorkspace(workspace));
  }
  // Micro-kernel calls, once deallocations and the workspace are placed: a
  // call takes its buffers as pointers, which neither sees as uses.
  if (options.ukernels || options.ukernelRelayouts) {
    trace::TraceLowerToUkernelsOptions ukernels;
    ukernels.cpu = options.targetCpu;
    // Copies only where contractions go to the kernels too: a copy called
    // whole is serial.
    ukernels.copies = options.ukernels;
    pm.addPass(trace::createTraceLowerToUkernels(ukernels));
  }
  pm.addNestedPass<func::FuncOp>(trace::createTraceCpuMathApproximation());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  addLoopLowering(pm, options);
  if (options.outlineKernels)
    pm.addPass(trace::createTraceOutlineKernels());
  // After outlining, so a kernel's stack buffers are its own, where LLVM
  // can keep them in registers.
  pm.addPass(trace::createTraceStackLoopBuffers());
  // Integer powers have no LLVM intrinsic: outline them as loops.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // libm calls on vectors are made lane by lane with vector ops, which must
  // exist before the vector dialect goes.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  vectorToLLVM.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle1D;
  // Lane accumulators are summed in a tree, not in lane order.
  vectorToLLVM.reassociateFPReductions = true;
  // bf16 micro-kernel steps are x86vector.avx512.dot (vdpbf16ps).
  vectorToLLVM.x86Vector = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // Everything else (memref, arith, func, cf, ub, index, OpenMP) in one
  // conversion, through the dialects' ConvertToLLVMPatternInterface
  // (registered by mlir::registerAllExtensions, as the Compiler does): one
  // walk of the module instead of one per dialect (about 3x less time).
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
