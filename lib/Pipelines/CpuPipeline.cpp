//===- CpuPipeline.cpp - trace -> LLVM dialect for the host CPU -----------===//
//
// The correct-and-complete baseline: linalg is lowered to loops. Tiling,
// packing and vectorization slot in between bufferization and the loop
// lowering.
//
//===----------------------------------------------------------------------===//

#include "tracec/Pipelines/Pipelines.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "tracec/Conversion/Passes.h"
#include "tracec/Transforms/Passes.h"

#include <mutex>

using namespace mlir;

namespace {
// clang-format off
constexpr llvm::StringLiteral kCpuPipeline =
    "builtin.module("
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
    "buffer-deallocation-pipeline,"
    // Loops, then LLVM. math-to-libm catches what has no LLVM intrinsic
    // (erf); the libm symbols resolve in the JIT's process or at link time.
    "trace-contraction-loop-order, trace-expand-copies, convert-linalg-to-loops,"
    // Integer powers have no LLVM intrinsic: outline them as loops.
    "convert-math-to-funcs, convert-scf-to-cf,"
    "expand-strided-metadata,"
    "lower-affine, finalize-memref-to-llvm, convert-math-to-llvm,"
    "convert-math-to-libm, convert-arith-to-llvm, convert-func-to-llvm,"
    "convert-cf-to-llvm, convert-ub-to-llvm, reconcile-unrealized-casts)";
// clang-format on
} // namespace

StringRef tracec::cpuPipelineText() { return kCpuPipeline; }

/// The pipeline is parsed from text, so every pass it names must be in the
/// registry, also in programs (the JIT) that did not register them.
static void registerPipelinePasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    trace::registerTracecConversionPasses();
    trace::registerTracecTransformsPasses();
  });
}

LogicalResult tracec::buildCpuPipeline(OpPassManager &pm) {
  registerPipelinePasses();
  // The text starts with the anchor; parse its body into `pm`.
  StringRef text = kCpuPipeline;
  text.consume_front("builtin.module(");
  text.consume_back(")");
  return parsePassPipeline(text, pm);
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
}
