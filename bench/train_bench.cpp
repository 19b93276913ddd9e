//===- train_bench.cpp - One training step that updates variables --------===//
//
// Google Benchmark timings of examples/train_mlp.mlir's @sgd_step and
// @adam_step (2-32-32-3 relu MLP, batch 64): loss, gradients with respect
// to the weight variables, and the in-place update, per call. The outputs
// are preallocated (Function::call). bench/run_train.sh runs this next to
// PyTorch training the same model.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"
#include "tracec/Tensor/Variable.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <random>

using namespace tracec;

namespace {

constexpr int64_t kBatch = 64, kFeatures = 2, kHidden = 32, kClasses = 3;
const std::vector<std::vector<int64_t>> kShapes = {
    {kFeatures, kHidden}, {kHidden}, {kHidden, kHidden},
    {kHidden},            {kHidden, kClasses}, {kClasses}};

Tensor uniform(std::vector<int64_t> shape, float scale, std::mt19937 &gen) {
  Tensor t = Tensor::zeros(DType::f32, shape);
  std::uniform_real_distribution<float> dist(-scale, scale);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<float>()[i] = dist(gen);
  return t;
}

[[noreturn]] void fail(llvm::Error error) {
  llvm::errs() << "tracec_bench_train: " << llvm::toString(std::move(error))
               << "\n";
  std::exit(1);
}

template <typename T> T check(llvm::Expected<T> value) {
  if (!value)
    fail(value.takeError());
  return std::move(*value);
}

struct Model {
  Compiler compiler;
  std::unique_ptr<Executable> exe;
  Model() {
    auto module = check(compiler.parseFile(TRACEC_BENCH_TRAIN_SOURCE));
    exe = check(Executable::compile(module));
  }
};

Model &model() {
  // Never destroyed: destroying a JIT during static destruction at exit
  // runs after LLVM's own statics are gone.
  static Model &instance = *new Model;
  return instance;
}

/// Calls `<optimizer>_step` on one batch; the variables keep training.
void runStep(benchmark::State &state, const std::string &optimizer) {
  Function step = check(model().exe->function(optimizer + "_step"));
  std::mt19937 gen(0);
  std::vector<std::unique_ptr<Variable>> variables;
  for (const auto &shape : kShapes)
    variables.push_back(std::make_unique<Variable>(uniform(shape, 0.3f, gen)));
  if (optimizer == "adam") {
    for (int moment = 0; moment < 2; ++moment)
      for (const auto &shape : kShapes)
        variables.push_back(
            std::make_unique<Variable>(Tensor::zeros(DType::f32, shape)));
    variables.push_back(std::make_unique<Variable>(Tensor::scalar<float>(0)));
  }
  Tensor labels = Tensor::zeros(DType::i32, {kBatch});
  for (int64_t i = 0; i < kBatch; ++i)
    labels.data<int32_t>()[i] = int32_t(i % kClasses);
  std::vector<Tensor> inputs = {uniform({kBatch, kFeatures}, 1.0f, gen), labels,
                                Tensor::scalar<float>(1e-3f)};
  for (auto &v : variables)
    inputs.push_back(v->buffer());
  std::vector<Tensor> outputs = {Tensor::scalar<float>(0)};
  for (auto _ : state)
    if (llvm::Error error = step.call(inputs, outputs))
      fail(std::move(error));
  state.counters["loss"] = outputs[0].toVector<float>()[0];
}

void BM_SgdStep(benchmark::State &state) { runStep(state, "sgd"); }
void BM_AdamStep(benchmark::State &state) { runStep(state, "adam"); }

} // namespace

BENCHMARK(BM_SgdStep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AdamStep)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
