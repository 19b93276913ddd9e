//===- Benchmark.h - tracec-run --benchmark -------------------------------===//
//
// Times calls of one compiled function with preallocated outputs and
// reports the minimum, median and maximum time per call, as
// iree-benchmark-module does for IREE modules.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TOOLS_TRACEC_RUN_BENCHMARK_H
#define TRACEC_TOOLS_TRACEC_RUN_BENCHMARK_H

#include "tracec/Runtime/Executable.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

namespace tracec {

struct BenchmarkOptions {
  /// Timed calls; none: as many as fit in `minSeconds` (at least 5).
  std::optional<unsigned> calls;
  /// Untimed calls first, to warm caches and page in the buffers.
  unsigned warmupCalls = 2;
  double minSeconds = 1.0;
};

/// Seconds per timed call, in call order.
llvm::Expected<std::vector<double>>
runBenchmark(const Function &function, llvm::ArrayRef<Tensor> inputs,
             llvm::MutableArrayRef<Tensor> outputs,
             const BenchmarkOptions &options);

/// Prints the report: one line per statistic, "<name> <value> <unit>".
void printBenchmarkReport(llvm::raw_ostream &os, llvm::StringRef entry,
                          llvm::ArrayRef<double> seconds, unsigned warmupCalls,
                          double compileSeconds, llvm::StringRef compileNote);

/// Where the compile time went: "cache hit", or "pipeline 1.2 ms,
/// optimize 3.4 ms, codegen 5.6 ms" and what the cache did.
std::string describeCompile(const CompileStats &stats);

/// "12.345 ms": three decimals in the largest unit (s, ms, us, ns) under
/// which the value is at least 1.
std::string formatDuration(double seconds);

} // namespace tracec

#endif // TRACEC_TOOLS_TRACEC_RUN_BENCHMARK_H
