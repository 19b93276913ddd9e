//===- TraceToBuffers.cpp - The front half both pipelines share -----------===//

#include "TraceToBuffers.h"

#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "tracec/Conversion/Passes.h"
#include "tracec/Transforms/Bufferization/Passes.h"
#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/State/Passes.h"

using namespace mlir;

void tracec::buildTraceToBuffersPipeline(
    OpPassManager &pm, llvm::function_ref<void(OpPassManager &)> onTensors,
    llvm::function_ref<void(OpPassManager &)> onBuffers,
    llvm::function_ref<void(OpPassManager &)> onTrace,
    bool overlapCollectives) {
  // A module annotated with the shard dialect becomes each process's
  // program on trace collectives (a module without a grid is left alone).
  pm.addPass(trace::createTraceShardToCollectives());
  // Order stateful ops by control tokens before anything may move or drop
  // them (functions without state are left as they are).
  pm.addPass(trace::createTraceAutoControlDeps());
  // Differentiate and batch (trace.vmap, innermost first with the
  // gradient ops) (an ordered gradient op becomes a call that takes and
  // yields its tokens); inline the generated forward/backward functions
  // (and other calls) so values such as a loop's tape never cross a
  // function boundary and fusion sees across calls; clean up; leave the
  // trace dialect.
  pm.addPass(trace::createTraceAutoDiff());
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Gradient all-reduces move up into the backward pass, to overlap it.
  if (overlapCollectives)
    pm.addNestedPass<func::FuncOp>(trace::createTraceScheduleCollectives());
  // Variables become the caller's buffers, read and written in place.
  trace::TraceLowerStateOptions state;
  state.overlapCollectives = overlapCollectives;
  pm.addPass(trace::createTraceLowerState(state));
  if (onTrace)
    onTrace(pm);
  pm.addPass(trace::createTraceToLinalg());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Dynamic dims: the caller's shape functions, which run the size checks.
  pm.addPass(trace::createTraceShapeFunctions());
  pm.addPass(trace::createTraceFuseElementwise());
  // (Before results are made distinct: a target's CSE may merge two.)
  if (onTensors)
    onTensors(pm);
  pm.addPass(trace::createTraceReadOnlyInputs());
  pm.addPass(trace::createTraceDistinctResults());
  // (CSE shares one tensor.empty between kernels: quadratic to analyze.)
  pm.addPass(trace::createTraceEmptyTensorPerUse());

  // Tensors -> buffers; results become caller-owned out-parameters, and
  // every internal allocation gets its deallocation.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  if (onBuffers)
    onBuffers(pm);
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  // A `?` result is computed in the caller-sized out-param too (the caller
  // sized it with the shape function), not in a buffer copied into it.
  outParams.hoistDynamicAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // Upstream's buffer-deallocation-pipeline, with the one dealloc at the
  // end of a body split per allocation before it is simplified.
  pm.addPass(memref::createExpandReallocPass(
      memref::ExpandReallocPassOptions{/*emitDeallocs=*/false}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(trace::createTraceSplitDeallocs());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}
