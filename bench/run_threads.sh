#!/bin/sh
# Times the MLP of issue 12 (784-512-512-10, batch 256: bench/mlp_wide.mlir)
# forward (@loss) and training step (@loss_and_grads) with 1 and 2 threads,
# each with and without the workspace (trace-plan-workspace), interleaved
# in one process (bench/threads_bench.cpp). Prints medians per call and
# ratios; nothing is asserted.
#
#   bench/run_threads.sh [build-dir] [rounds, default 30]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
rounds=${2:-30}
bench=$build/bin/tracec_bench_threads
if [ ! -x "$bench" ]; then
  echo "run_threads.sh: $bench not found: build the tracec_bench_threads target" >&2
  exit 1
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
"$bench" "$root/bench/mlp_wide.mlir" loss loss_and_grads --rounds "$rounds"
