//===- random_bench.cpp - random_uniform / random_normal throughput -------===//
//
// Google Benchmark timings of drawing 2^20 f32 numbers with trace.random_*
// through the C++ runtime, into a preallocated output (Function::call).
// bench/run_random.sh runs this next to NumPy (Philox) and PyTorch.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace tracec;

namespace {

constexpr const char *kModule = R"mlir(
func.func @uniform() -> tensor<1048576xf32> {
  %0, %c = trace.random_uniform {seed = 1} : tensor<1048576xf32>
  return %0 : tensor<1048576xf32>
}
func.func @normal() -> tensor<1048576xf32> {
  %0, %c = trace.random_normal {seed = 1} : tensor<1048576xf32>
  return %0 : tensor<1048576xf32>
}
)mlir";

[[noreturn]] void fail(llvm::Error error) {
  llvm::errs() << "tracec_bench_random: " << llvm::toString(std::move(error))
               << "\n";
  std::exit(1);
}

/// The compiled module, made once for every benchmark.
struct Model {
  Compiler compiler;
  std::unique_ptr<Executable> exe;

  Model() {
    auto module = compiler.parseString(kModule, "random_bench.mlir");
    if (!module)
      fail(module.takeError());
    auto compiled = Executable::compile(*module);
    if (!compiled)
      fail(compiled.takeError());
    exe = std::move(*compiled);
  }
};

/// Never destroyed: the JIT's destructor compiles its deinitializer, which
/// at exit would use LLVM state that static destructors already freed.
const Executable &executable() {
  static Model *model = new Model();
  return *model->exe;
}

void drawInto(benchmark::State &state, const char *name) {
  auto f = executable().function(name);
  if (!f)
    fail(f.takeError());
  std::vector<Tensor> outputs = {Tensor::zeros(DType::f32, {1 << 20})};
  for (auto _ : state)
    if (auto error = f->call({}, outputs))
      fail(std::move(error));
  state.SetItemsProcessed(state.iterations() * (1 << 20));
}

void BM_Uniform(benchmark::State &state) { drawInto(state, "uniform"); }
void BM_Normal(benchmark::State &state) { drawInto(state, "normal"); }

} // namespace

BENCHMARK(BM_Uniform)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Normal)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
