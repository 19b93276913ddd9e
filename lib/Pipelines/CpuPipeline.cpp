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
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "tracec/Target/Cpu/Passes.h"
#include "tracec/Transforms/Bufferization/Passes.h"

using namespace mlir;

void tracec::buildCpuPipeline(OpPassManager &pm) {
  // Contractions: pack, tile, vectorize on tensors (lib/Target/Cpu).
  buildTraceToBuffersPipeline(pm, [](OpPassManager &pm) {
    pm.addPass(trace::createTracePackContractions());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(trace::createTraceTileContractions());
    pm.addPass(trace::createTraceVectorizeContractions());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    // The accumulator tile becomes a vector carried by the k loop.
    pm.addPass(createLoopInvariantSubsetHoistingPass());
  });
  pm.addPass(trace::createTraceLowerContractionVectors());

  // Loops, then LLVM.
  pm.addPass(trace::createTraceContractionLoopOrder());
  // Copies between strided buffers would call the C runner library's
  // memrefCopy; as linalg copies they become loops.
  pm.addPass(trace::createTraceExpandCopies());
  pm.addPass(createConvertLinalgToLoopsPass());
  // Result blocks run one after another here (trace-cpu-tile-contractions
  // made them an scf.forall).
  pm.addPass(createForallToForLoopPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  // Integer powers have no LLVM intrinsic: outline them as loops.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createSCFToControlFlowPass());
  {
    ConvertVectorToLLVMPassOptions vectorOptions;
    vectorOptions.vectorContractLowering =
        vector::VectorContractLowering::OuterProduct;
    vectorOptions.vectorTransposeLowering =
        vector::VectorTransposeLowering::Shuffle1D;
    pm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  }
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  buildHostToLLVMPipeline(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
}
