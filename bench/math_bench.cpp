//===- math_bench.cpp - Time one entry of a module with preallocated outputs -===//
//
//   tracec_bench_math model.mlir entry in0.npy [in1.npy ...] --out DIR
//       [--repeat N] [--min-time S]
//
// Compiles `entry` with the JIT (CPU, one thread), calls it into outputs
// allocated once (Function::call), so a timing holds no allocation of
// results, and prints one JSON line: {"median_s", "min_s", "max_s",
// "calls"}, the time per call over N batches of calls lasting at least S
// seconds each. The last results are written to DIR/result<i>.npy for the
// caller to check against its peers (bench/math_peers.py).
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using namespace tracec;

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "tracec_bench_math: " << message << "\n";
  std::exit(1);
}

void check(llvm::Error error) {
  if (error)
    fail(llvm::toString(std::move(error)));
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> positional;
  std::string outDir;
  int repeat = 7;
  double minTime = 0.2;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--out" || arg == "--repeat" || arg == "--min-time") &&
        i + 1 >= argc)
      fail(arg + " needs a value");
    if (arg == "--out")
      outDir = argv[++i];
    else if (arg == "--repeat")
      repeat = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--min-time")
      minTime = std::atof(argv[++i]);
    else
      positional.push_back(arg);
  }
  if (positional.size() < 2)
    fail("usage: tracec_bench_math model.mlir entry in.npy... [--out DIR] "
         "[--repeat N] [--min-time S]");

  Compiler compiler;
  auto module = compiler.parseFile(positional[0]);
  if (!module)
    fail(llvm::toString(module.takeError()));
  auto exe = Executable::compile(*module);
  if (!exe)
    fail(llvm::toString(exe.takeError()));
  auto function = (*exe)->function(positional[1]);
  if (!function)
    fail(llvm::toString(function.takeError()));

  std::vector<Tensor> inputs;
  for (size_t i = 2; i < positional.size(); ++i) {
    auto tensor = Tensor::loadNpy(positional[i]);
    if (!tensor)
      fail(llvm::toString(tensor.takeError()));
    inputs.push_back(std::move(*tensor));
  }
  std::vector<Tensor> outputs;
  for (const TensorSpec &spec : function->signature().results)
    outputs.push_back(Tensor::zeros(spec.dtype, spec.shape));

  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < 3; ++i) // warm-up: pages, caches
    check(function->call(inputs, outputs));
  std::vector<double> perCall;
  long calls = 0;
  for (int r = 0; r < repeat; ++r) {
    long n = 0;
    auto start = Clock::now();
    double elapsed = 0;
    do {
      check(function->call(inputs, outputs));
      ++n;
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < minTime);
    perCall.push_back(elapsed / n);
    calls += n;
  }
  std::sort(perCall.begin(), perCall.end());
  llvm::outs() << "{\"median_s\": " << perCall[perCall.size() / 2]
               << ", \"min_s\": " << perCall.front()
               << ", \"max_s\": " << perCall.back() << ", \"calls\": " << calls
               << "}\n";

  if (!outDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
      fail("cannot create " + outDir + ": " + ec.message());
    for (size_t i = 0; i < outputs.size(); ++i) {
      llvm::SmallString<128> path(outDir);
      llvm::sys::path::append(path, "result" + std::to_string(i) + ".npy");
      check(outputs[i].saveNpy(path));
    }
  }
  return 0;
}
