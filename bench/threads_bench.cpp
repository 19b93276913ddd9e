//===- threads_bench.cpp - 1 vs 2 threads, workspace vs malloc ------------===//
//
//   tracec_bench_threads model.mlir entry... [--rounds N] [--min-work W]
//
// Compiles each entry six ways (threads 1 and 2; with and without the
// workspace that removes per-call mallocs, and with its bytes shared), calls each on the same random
// inputs into preallocated outputs, interleaving the four so that load
// from other processes hits all alike, and prints the median time per
// call of each and the ratios. Timings, not tests: nothing is asserted.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>

using namespace tracec;

namespace {
struct Config {
  const char *name;
  unsigned threads;
  bool workspace;
  bool shareBytes;
};

constexpr Config kConfigs[] = {{"1 thread, malloc", 1, false, false},
                               {"1 thread, workspace", 1, true, false},
                               {"2 threads, malloc", 2, false, false},
                               {"2 threads, workspace", 2, true, false},
                               {"1 thread, shared bytes", 1, true, true},
                               {"2 threads, shared bytes", 2, true, true}};

Tensor randomTensor(const TensorSpec &spec, std::mt19937 &rng) {
  int64_t n = 1;
  for (int64_t d : spec.shape)
    n *= d;
  if (spec.dtype == DType::i32) {
    std::vector<int32_t> values(n);
    for (int64_t i = 0; i < n; ++i)
      values[i] = static_cast<int32_t>(rng() % 10);
    return llvm::cantFail(Tensor::fromVector<int32_t>(values, spec.shape));
  }
  std::normal_distribution<float> normal(0.0f, 0.05f);
  std::vector<float> values(n);
  for (float &v : values)
    v = normal(rng);
  return llvm::cantFail(Tensor::fromVector<float>(values, spec.shape));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s model.mlir entry... [--rounds N] [--min-work W]\n",
                 argv[0]);
    return 1;
  }
  int rounds = 30;
  int64_t minWork = CompileOptions().parallelMinWork;
  std::vector<std::string> entries;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--min-work") && i + 1 < argc)
      minWork = std::atoll(argv[++i]);
    else
      entries.push_back(argv[i]);
  }
  Compiler compiler;
  auto module = compiler.parseFile(argv[1]);
  if (!module) {
    std::fprintf(stderr, "%s\n", llvm::toString(module.takeError()).c_str());
    return 1;
  }
  std::vector<std::unique_ptr<Executable>> exes;
  for (const Config &config : kConfigs) {
    CompileOptions options;
    options.threads = config.threads;
    options.workspace = config.workspace;
    options.workspaceShareBytes = config.shareBytes;
    options.parallelMinWork = minWork;
    auto exe = Executable::compile(*module, options);
    if (!exe) {
      std::fprintf(stderr, "%s\n", llvm::toString(exe.takeError()).c_str());
      return 1;
    }
    exes.push_back(std::move(*exe));
  }

  std::printf("%-16s %-22s %10s\n", "entry", "configuration", "median ms");
  for (const std::string &entry : entries) {
    std::vector<Function> functions;
    for (auto &exe : exes) {
      auto function = exe->function(entry);
      if (!function) {
        std::fprintf(stderr, "%s\n",
                     llvm::toString(function.takeError()).c_str());
        return 1;
      }
      functions.push_back(*function);
    }
    std::mt19937 rng(1);
    std::vector<Tensor> inputs, outputs;
    for (const TensorSpec &spec : functions[0].signature().inputs)
      inputs.push_back(randomTensor(spec, rng));
    for (const TensorSpec &spec : functions[0].signature().results)
      outputs.push_back(Tensor::zeros(spec.dtype, spec.shape));

    std::vector<std::vector<double>> times(functions.size());
    for (int round = -2; round < rounds; ++round) { // two warm-up rounds
      for (size_t c = 0; c < functions.size(); ++c) {
        auto start = std::chrono::steady_clock::now();
        if (auto error = functions[c].call(inputs, outputs)) {
          std::fprintf(stderr, "%s\n",
                       llvm::toString(std::move(error)).c_str());
          return 1;
        }
        auto end = std::chrono::steady_clock::now();
        if (round >= 0)
          times[c].push_back(
              std::chrono::duration<double, std::milli>(end - start).count());
      }
    }
    std::vector<double> medians;
    for (size_t c = 0; c < functions.size(); ++c) {
      medians.push_back(median(times[c]));
      std::printf("%-16s %-22s %10.3f\n", entry.c_str(), kConfigs[c].name,
                  medians.back());
    }
    std::printf("%-16s 2 threads / 1 thread (workspace): %.2fx faster; "
                "workspace / malloc: %.3fx (1 thread), %.3fx (2 threads)\n",
                entry.c_str(), medians[1] / medians[3],
                medians[0] / medians[1], medians[2] / medians[3]);
  }
  return 0;
}
