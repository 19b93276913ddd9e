//===- mlp_bench.cpp - Forward vs. forward+backward of an MLP step --------===//
//
// Google Benchmark timings of bench/mlp.mlir through the C++ runtime:
// BM_Forward calls @loss (the forward pass alone), BM_ForwardBackward calls
// @loss_and_grads (trace.value_and_grad: forward with residuals, then the
// backward function). Both write into preallocated outputs
// (Function::call), so the timings hold no result allocation. The module
// path defaults to the source tree's bench/mlp.mlir; TRACEC_BENCH_MLP
// overrides it. bench/run_mlp.sh runs this next to PyTorch.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>

using namespace tracec;

namespace {

constexpr int64_t kBatch = 64, kIn = 784, kHidden = 256, kClasses = 10;

Tensor uniform(std::vector<int64_t> shape, float scale, unsigned seed) {
  Tensor t = Tensor::zeros(DType::f32, shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-scale, scale);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<float>()[i] = dist(gen);
  return t;
}

/// The compiled module and the inputs, made once for every benchmark.
struct Model {
  Compiler compiler;
  std::unique_ptr<Executable> exe;
  std::vector<Tensor> inputs;

  Model() {
    const char *path = std::getenv("TRACEC_BENCH_MLP");
    auto module = compiler.parseFile(path ? path : TRACEC_BENCH_MLP_SOURCE);
    if (!module)
      fail(module.takeError());
    auto compiled = Executable::compile(*module);
    if (!compiled)
      fail(compiled.takeError());
    exe = std::move(*compiled);
    Tensor labels = Tensor::zeros(DType::i32, {kBatch});
    for (int64_t i = 0; i < kBatch; ++i)
      labels.data<int32_t>()[i] = static_cast<int32_t>((i * 7) % kClasses);
    inputs = {uniform({kBatch, kIn}, 1.0f, 1), labels,
              uniform({kIn, kHidden}, 0.05f, 2), uniform({kHidden}, 0.05f, 3),
              uniform({kHidden, kClasses}, 0.1f, 4),
              uniform({kClasses}, 0.1f, 5)};
  }

  [[noreturn]] static void fail(llvm::Error error) {
    llvm::errs() << "tracec_bench_mlp: " << llvm::toString(std::move(error))
                 << "\n";
    std::exit(1);
  }

  Function function(llvm::StringRef name) {
    auto f = exe->function(name);
    if (!f)
      fail(f.takeError());
    return *f;
  }

  /// Preallocated outputs of `f`.
  static std::vector<Tensor> outputsOf(const Function &f) {
    std::vector<Tensor> outputs;
    for (const TensorSpec &spec : f.signature().results)
      outputs.push_back(Tensor::zeros(spec.dtype, spec.shape));
    return outputs;
  }
};

Model &model() {
  // Never destroyed: destroying a JIT during static destruction at exit
  // runs after LLVM's own statics are gone.
  static Model &m = *new Model;
  return m;
}

void run(benchmark::State &state, llvm::StringRef name) {
  Model &m = model();
  Function f = m.function(name);
  std::vector<Tensor> outputs = Model::outputsOf(f);
  for (auto _ : state) {
    if (llvm::Error error = f.call(m.inputs, outputs))
      Model::fail(std::move(error));
    benchmark::DoNotOptimize(outputs[0].data<float>());
    benchmark::ClobberMemory();
  }
  state.counters["loss"] = outputs[0].elementAsDouble(0);
}

void BM_Forward(benchmark::State &state) { run(state, "loss"); }
void BM_ForwardBackward(benchmark::State &state) {
  run(state, "loss_and_grads");
}

BENCHMARK(BM_Forward)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
BENCHMARK(BM_ForwardBackward)->Unit(benchmark::kMicrosecond)->MinTime(1.0);

} // namespace

BENCHMARK_MAIN();
