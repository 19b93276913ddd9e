//===- Benchmark.cpp - tracec-run --benchmark -----------------------------===//

#include "Benchmark.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>

using namespace tracec;

/// Without a count, a function of a few nanoseconds stops here.
static constexpr size_t kMaxCalls = 1000000;

llvm::Expected<std::vector<double>>
tracec::runBenchmark(const Function &function, llvm::ArrayRef<Tensor> inputs,
                     llvm::MutableArrayRef<Tensor> outputs,
                     const BenchmarkOptions &options) {
  using Clock = std::chrono::steady_clock;
  for (unsigned i = 0; i < options.warmupCalls; ++i)
    if (auto error = function.call(inputs, outputs))
      return std::move(error);
  std::vector<double> seconds;
  double total = 0;
  while (options.calls ? seconds.size() < *options.calls
                       : seconds.size() < 5 || (total < options.minSeconds &&
                                                seconds.size() < kMaxCalls)) {
    auto start = Clock::now();
    if (auto error = function.call(inputs, outputs))
      return std::move(error);
    double elapsed =
        std::chrono::duration<double>(Clock::now() - start).count();
    seconds.push_back(elapsed);
    total += elapsed;
  }
  return seconds;
}

std::string tracec::formatDuration(double seconds) {
  static const struct {
    const char *name;
    double scale;
  } units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
  for (const auto &unit : units)
    if (seconds * unit.scale >= 1 || unit.scale == 1e9)
      return llvm::formatv("{0:f3} {1}", seconds * unit.scale, unit.name).str();
  return "";
}

void tracec::printBenchmarkReport(llvm::raw_ostream &os, llvm::StringRef entry,
                                  llvm::ArrayRef<double> seconds,
                                  unsigned warmupCalls, double compileSeconds,
                                  llvm::StringRef compileNote) {
  std::vector<double> sorted(seconds.begin(), seconds.end());
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  double median =
      n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  os << "benchmark @" << entry << ": " << n << " calls after " << warmupCalls
     << " warm-up call" << (warmupCalls == 1 ? "" : "s")
     << ", outputs preallocated\n";
  os << "  compile  " << formatDuration(compileSeconds);
  if (!compileNote.empty())
    os << " (" << compileNote << ")";
  os << "\n";
  os << "  min      " << formatDuration(sorted.front()) << "\n";
  os << "  median   " << formatDuration(median) << "\n";
  os << "  max      " << formatDuration(sorted.back()) << "\n";
}

std::string tracec::describeCompile(const CompileStats &stats) {
  if (stats.cacheHit)
    return "cache hit";
  std::string text = "pipeline " + formatDuration(stats.pipelineSeconds) +
                     ", optimize " + formatDuration(stats.optimizeSeconds) +
                     ", codegen " + formatDuration(stats.codegenSeconds);
  if (stats.cacheEntryRejected)
    text += "; corrupt cache entry replaced";
  else if (stats.cacheStored)
    text += "; cached";
  return text;
}
