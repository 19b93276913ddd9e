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
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "tracec/Target/Cpu/Passes.h"
#include "tracec/Transforms/Bufferization/Passes.h"

using namespace mlir;

void tracec::buildCpuPipeline(OpPassManager &pm) {
  buildTraceToBuffersPipeline(pm);

  // Loops, then LLVM.
  pm.addPass(trace::createTraceContractionLoopOrder());
  // Copies between strided buffers would call the C runner library's
  // memrefCopy; as linalg copies they become loops.
  pm.addPass(trace::createTraceExpandCopies());
  pm.addPass(createConvertLinalgToLoopsPass());
  // Integer powers have no LLVM intrinsic: outline them as loops.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  buildHostToLLVMPipeline(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
}
