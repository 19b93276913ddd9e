//===- TraceToBuffers.cpp - The front half both pipelines share -----------===//

#include "TraceToBuffers.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "tracec/Conversion/Passes.h"
#include "tracec/Target/Cpu/Passes.h"
#include "tracec/Target/Cuda/Passes.h"
#include "tracec/Transforms/Bufferization/Passes.h"
#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/State/Passes.h"

#include <mutex>

using namespace mlir;

// clang-format off
static constexpr llvm::StringLiteral kTraceToBuffers =
    // Order stateful ops by control tokens before anything may move or
    // drop them (functions without state are left as they are).
    "trace-auto-control-deps,"
    // Differentiate; inline the generated forward/backward functions (and
    // other calls) so values such as a loop's tape never cross a function
    // boundary and fusion sees across calls; clean up; leave the trace
    // dialect.
    "trace-autodiff, inline, canonicalize, cse,"
    // Variables become the caller's buffers, read and written in place.
    "trace-lower-state, trace-to-linalg, canonicalize,"
    "cse,"
    "linalg-fuse-elementwise-ops, trace-readonly-inputs, trace-distinct-results,"
    // Tensors -> buffers; results become caller-owned out-parameters, and
    // every internal allocation gets its deallocation.
    "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
      "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"
    "buffer-deallocation-pipeline";
// clang-format on

StringRef tracec::traceToBuffersPipelineText() { return kTraceToBuffers; }

void tracec::registerPipelinePasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    trace::registerTracecConversionPasses();
    trace::registerTracecDifferentiationPasses();
    trace::registerTracecStatePasses();
    trace::registerTracecBufferizationPasses();
    trace::registerTracecCpuPasses();
    trace::registerTracecCudaPasses();
  });
}

LogicalResult tracec::parseModulePipeline(StringRef text, OpPassManager &pm) {
  registerPipelinePasses();
  // The text starts with the anchor; parse its body into `pm`.
  if (!text.consume_front("builtin.module(") || !text.consume_back(")"))
    return failure();
  return parsePassPipeline(text, pm);
}
