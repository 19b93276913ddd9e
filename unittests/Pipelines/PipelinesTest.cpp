//===- PipelinesTest.cpp - The C++ built pipelines and their names --------===//
//
// tracec-opt's --tracec-cpu-pipeline / --tracec-gpu-pipeline are the
// pipelines the JIT and tracec build, and the textual form they print
// (--dump-pass-pipeline, crash reproducers) parses back to the same
// pipeline. Like tracec-opt, this test program registers the passes; the
// libraries do not.
//
//===----------------------------------------------------------------------===//

#include "tracec/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "tracec/Conversion/Passes.h"
#include "tracec/Codegen/CPU/Passes.h"
#include "tracec/Codegen/GPU/Passes.h"
#include "tracec/Transforms/Bufferization/Passes.h"
#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/State/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

std::string text(const OpPassManager &pm) {
  std::string out;
  llvm::raw_string_ostream os(out);
  pm.printAsTextualPipeline(os);
  return out;
}

/// What tracec-opt registers.
class PipelinesTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    registerAllPasses();
    trace::registerTracecConversionPasses();
    trace::registerTracecDifferentiationPasses();
    trace::registerTracecStatePasses();
    trace::registerTracecBufferizationPasses();
    trace::registerTracecCPUCodegenPasses();
    trace::registerTracecGPUCodegenPasses();
    tracec::registerPipelines();
  }

  /// The pipeline `name{options}` names, as tracec-opt parses it.
  static std::string parsed(llvm::StringRef pipeline) {
    std::string errors;
    llvm::raw_string_ostream os(errors);
    FailureOr<OpPassManager> pm =
        parsePassPipeline(("builtin.module(" + pipeline + ")").str(), os);
    EXPECT_TRUE(succeeded(pm)) << errors;
    return succeeded(pm) ? text(*pm) : errors;
  }
};

TEST_F(PipelinesTest, CpuPipelineByNameIsTheBuiltOne) {
  OpPassManager pm(ModuleOp::getOperationName());
  tracec::buildCpuPipeline(pm);
  EXPECT_EQ(parsed("tracec-cpu-pipeline"), text(pm));
}

TEST_F(PipelinesTest, GpuPipelineByNameIsTheBuiltOne) {
  OpPassManager pm(ModuleOp::getOperationName());
  tracec::buildGpuPipeline(pm, tracec::GpuPipelineOptions());
  EXPECT_EQ(parsed("tracec-gpu-pipeline"), text(pm));
}

TEST_F(PipelinesTest, GpuOptionsReachTheirPasses) {
  tracec::GpuPipelineOptions options;
  options.chip = "sm_90";
  options.features = "+ptx80";
  options.threads = 128;
  options.tileSizes = {4, 32};
  options.matmulTile = 8;
  options.reductionThreads = 64;
  options.optLevel = 2;
  OpPassManager pm(ModuleOp::getOperationName());
  tracec::buildGpuPipeline(pm, options);
  std::string built = text(pm);
  EXPECT_EQ(parsed("tracec-gpu-pipeline{chip=sm_90 features=+ptx80 "
                   "threads=128 tile-sizes=4,32 matmul-tile=8 "
                   "reduction-threads=64 O=2}"),
            built);
  for (const char *pass :
       {"trace-gpu-tiled-matmul{tile=8}",
        "trace-gpu-block-reductions{threads=64}",
        "trace-gpu-tile-parallel-loops{threads=128 tile-sizes={4,32}}",
        "trace-nvvm-attach-target{O=2 chip=sm_90 features=+ptx80}"})
    EXPECT_NE(built.find(pass), std::string::npos) << pass << " in " << built;
}

TEST_F(PipelinesTest, PrintedPipelinesParseBack) {
  OpPassManager cpu(ModuleOp::getOperationName());
  tracec::buildCpuPipeline(cpu);
  EXPECT_EQ(text(*parsePassPipeline(text(cpu))), text(cpu));

  tracec::GpuPipelineOptions options;
  options.tileSizes = {8, 32};
  OpPassManager gpu(ModuleOp::getOperationName());
  tracec::buildGpuPipeline(gpu, options);
  EXPECT_EQ(text(*parsePassPipeline(text(gpu))), text(gpu));
}

} // namespace
