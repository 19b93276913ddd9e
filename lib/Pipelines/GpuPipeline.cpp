//===- GpuPipeline.cpp - trace -> NVVM kernels (PTX) + host LLVM ----------===//
//
// After the shared front half (trace -> linalg on buffers): matmuls become
// shared-memory tiled kernels, reductions a block-level tree per output
// element, and every other linalg op an scf.parallel (reduction dimensions
// stay sequential loops inside it) tiled into blocks of threads; all turn
// into gpu.launch ops, outlined into gpu.modules, lowered to NVVM and
// compiled to PTX by LLVM's NVPTX back end (no CUDA SDK). The host side
// calls the mgpu* entry points of the runtime shim (lib/ABI/Cuda).
//
// Buffers: see trace-gpu-managed-buffers. All memory the code touches is
// CUDA managed memory; the caller's buffers are copied in and out around
// the function (as far as it reads and writes them), so host code and
// kernels may share any buffer.
//
//===----------------------------------------------------------------------===//

#include "tracec/Pipelines/Pipelines.h"

#include "HostToLLVM.h"
#include "TraceToBuffers.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "tracec/Codegen/GPU/Passes.h"
#include "tracec/Transforms/Bufferization/Passes.h"

using namespace mlir;

/// Whether `chip` ("sm_80", "sm_90a", ...) has the mma.sync shapes of
/// trace-gpu-mma-matmul (sm_80 and newer). An unknown chip is
/// trace-nvvm-attach-target's diagnostic, not this one's.
static bool hasTensorCoreMma(llvm::StringRef chip) {
  unsigned version = 0;
  return chip.consume_front("sm_") &&
         !chip.take_while(llvm::isDigit).getAsInteger(10, version) &&
         version >= 80;
}

void tracec::buildGpuPipeline(OpPassManager &pm,
                              const GpuPipelineOptions &options) {
  buildTraceToBuffersPipeline(pm, [](OpPassManager &onTensors) {
    // Size-1 dims go (layer norm's keepdims statistics: a tensor<Nx1> read
    // at (i, 0) becomes a tensor<N> read at i), so the ops that work along
    // rows share their row dims with no reshape between them
    // (trace-gpu-row-blocks, below).
    onTensors.addPass(createLinalgFoldUnitExtentDimsPass());
    onTensors.addPass(createCanonicalizerPass());
    onTensors.addPass(createCSEPass());
  });

  // Copies between internal buffers become kernels; the copies that stage
  // the caller's buffers, added next, stay host memcpys.
  pm.addPass(trace::createTraceExpandCopies());
  pm.addPass(trace::createTraceGpuManagedBuffers());
  {
    OpPassManager &func = pm.nest<func::FuncOp>();
    // Matmuls on tensor cores where their shapes and types allow (mma.sync
    // needs sm_80), else through shared-memory tiles; chains of ops along
    // rows (softmax) as one kernel, a block per row; other reductions as a
    // tree, a block per output element.
    // (sm_90a adds wgmma: TMA loads and warpgroup products.)
    if (hasTensorCoreMma(options.chip))
      func.addPass(trace::createTraceGpuMmaMatmul(
          {options.tf32, /*wgmma=*/options.chip == "sm_90a"}));
    func.addPass(trace::createTraceGpuTiledMatmul({options.matmulTile}));
    func.addPass(trace::createTraceGpuRowBlocks({options.reductionThreads}));
    func.addPass(
        trace::createTraceGpuBlockReductions({options.reductionThreads}));
    func.addPass(createConvertLinalgToParallelLoopsPass());
    trace::TraceGpuTileParallelLoopsOptions tiling;
    tiling.threads = options.threads;
    tiling.tileSizes.assign(options.tileSizes.begin(), options.tileSizes.end());
    func.addPass(trace::createTraceGpuTileParallelLoops(tiling));
    // Innermost loop dimension -> thread x: neighbouring threads touch
    // neighbouring elements.
    GpuMapParallelLoopsPassOptions mapping;
    mapping.mappingPolicyStr = "innermost-first";
    func.addPass(createGpuMapParallelLoopsPass(mapping));
    func.addPass(createConvertParallelLoopToGpuPass());
    // Grids sized at run time (dynamic dims) stay within CUDA's limits.
    func.addPass(trace::createTraceGpuGridStride());
  }
  // Integer powers become functions, which outlining copies into the
  // kernels' modules.
  pm.addPass(createConvertMathToFuncs());
  // nvgpu ops become NVVM before outlining, so that the tensor maps the
  // host creates for TMA reach the kernels as pointers (as upstream's
  // gpu-lower-to-nvvm-pipeline orders it).
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Launches, copies and frees go on one stream per function, in order,
  // without a synchronization each: a wait only before the host touches
  // memory, and at the end.
  {
    OpPassManager &func = pm.nest<func::FuncOp>();
    func.addPass(createGpuAsyncRegionPass());
    func.addPass(trace::createTraceGpuSyncManagedAllocs());
  }
  trace::TraceNvvmAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(trace::createTraceNvvmAttachTarget(target));

  // What gpu-lower-to-nvvm-pipeline runs, with our target attached.
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  {
    // No libdevice without the CUDA SDK: math functions become arithmetic
    // (f64 ones need libdevice). Locations are stripped after the last
    // diagnostic that names them.
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    kernels.addPass(trace::createTraceGpuExpandMath());
    kernels.addNestedPass<gpu::GPUFuncOp>(
        trace::createTraceGpuAlignWorkgroupBuffers());
    kernels.addPass(createConvertGpuOpsToNVVMOps());
    kernels.addPass(trace::createTraceGpuExternDynamicShared());
    kernels.addPass(trace::createTraceNvvmNativeMath());
    kernels.addPass(createStripDebugInfoPass());
    kernels.addPass(createCanonicalizerPass());
    kernels.addPass(createCSEPass());
    kernels.addPass(createReconcileUnrealizedCastsPass());
  }
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));

  // Host code left over: control flow, loops without a parallel dimension
  // that no kernel took (argmax of a whole tensor).
  buildHostToLLVMPipeline(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
