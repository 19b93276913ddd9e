//===- aot_bench.cpp - AOT entry points against the JIT -------------------===//
//
// Google Benchmark timings of the same functions called two ways: through
// the C functions that tracec compiled ahead of time (linked in by
// tracec_add_aot_library) and through the JIT (tracec::Function::call with
// preallocated outputs, which checks every argument's dtype and shape).
//   BM_*Tiny:    bench/aot_tiny.mlir, 4 additions: the call overhead
//   BM_*MlpStep: bench/mlp.mlir's @loss_and_grads (batch 64, 784-256-10)
// bench/run_aot.sh runs this and adds the MLP step's object size and
// compile time.
//
//===----------------------------------------------------------------------===//

#include "bench_mlp_aot.h"
#include "bench_tiny_aot.h"

#include "tracec/Runtime/Executable.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>

using namespace tracec;

namespace {

[[noreturn]] void fail(llvm::Error error) {
  llvm::errs() << "tracec_bench_aot: " << llvm::toString(std::move(error))
               << "\n";
  std::exit(1);
}

/// A JIT-compiled function of `path` with zero inputs and preallocated
/// outputs of its signature.
struct JitFunction {
  Compiler compiler;
  std::unique_ptr<Executable> exe;
  std::unique_ptr<Function> function;
  std::vector<Tensor> inputs, outputs;

  JitFunction(const char *path, llvm::StringRef name) {
    auto module = compiler.parseFile(path);
    if (!module)
      fail(module.takeError());
    auto compiled = Executable::compile(*module);
    if (!compiled)
      fail(compiled.takeError());
    exe = std::move(*compiled);
    auto f = exe->function(name);
    if (!f)
      fail(f.takeError());
    function = std::make_unique<Function>(*f);
    for (const TensorSpec &spec : function->signature().inputs)
      inputs.push_back(Tensor::zeros(spec.dtype, spec.shape));
    for (const TensorSpec &spec : function->signature().results)
      outputs.push_back(Tensor::zeros(spec.dtype, spec.shape));
  }

  void call() {
    if (auto error = function->call(inputs, outputs))
      fail(std::move(error));
  }
};

/// The MLP's inputs as bench/mlp_bench.cpp makes them.
void fillMlpInputs(std::vector<float *> floats, int32_t *labels,
                   int64_t numLabels) {
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> dist(-0.05f, 0.05f);
  const size_t sizes[] = {
      MLPBENCH_LOSS_AND_GRADS_ARG_X_SIZE, MLPBENCH_LOSS_AND_GRADS_ARG_W1_SIZE,
      MLPBENCH_LOSS_AND_GRADS_ARG_B1_SIZE, MLPBENCH_LOSS_AND_GRADS_ARG_W2_SIZE,
      MLPBENCH_LOSS_AND_GRADS_ARG_B2_SIZE};
  for (size_t i = 0; i < floats.size(); ++i)
    for (size_t j = 0; j < sizes[i]; ++j)
      floats[i][j] = dist(gen);
  for (int64_t i = 0; i < numLabels; ++i)
    labels[i] = static_cast<int32_t>((i * 7) % 10);
}

void BM_AotTiny(benchmark::State &state) {
  alignas(64) float x[4] = {1, 2, 3, 4}, y[4];
  for (auto _ : state) {
    benchmark::DoNotOptimize(tinybench_tiny(x, y));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_AotTiny);

void BM_JitTiny(benchmark::State &state) {
  JitFunction tiny(TRACEC_BENCH_TINY_SOURCE, "tiny");
  for (auto _ : state) {
    tiny.call();
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_JitTiny);

void BM_AotMlpStep(benchmark::State &state) {
  aotbench::MlpBench model;
  auto &step = model.loss_and_grads;
  fillMlpInputs({step.arg_x_data(), step.arg_w1_data(), step.arg_b1_data(),
                 step.arg_w2_data(), step.arg_b2_data()},
                step.arg_labels_data(),
                MLPBENCH_LOSS_AND_GRADS_ARG_LABELS_SIZE);
  for (auto _ : state) {
    benchmark::DoNotOptimize(step.Run());
    benchmark::ClobberMemory();
  }
  state.counters["loss"] = *static_cast<float *>(step.result_data(0));
}
BENCHMARK(BM_AotMlpStep)->Unit(benchmark::kMillisecond);

void BM_JitMlpStep(benchmark::State &state) {
  JitFunction step(TRACEC_BENCH_MLP_SOURCE, "loss_and_grads");
  std::vector<float *> floats;
  for (int i : {0, 2, 3, 4, 5})
    floats.push_back(step.inputs[i].data<float>());
  fillMlpInputs(floats, step.inputs[1].data<int32_t>(),
                step.inputs[1].numElements());
  for (auto _ : state) {
    step.call();
    benchmark::ClobberMemory();
  }
  state.counters["loss"] = step.outputs[0].data<float>()[0];
}
BENCHMARK(BM_JitMlpStep)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
