#!/bin/sh
# Times the MLP of issue 12 (784-512-512-10, batch 256: bench/mlp_wide.mlir)
# forward (@loss) and training step (@loss_and_grads) with 1 and 2 threads,
# each with and without the workspace (trace-plan-workspace), interleaved
# in one process (bench/threads_bench.cpp). Prints medians per call and
# ratios; nothing is asserted.
#
#   bench/run_threads.sh [build-dir] [rounds, default 30] [--sizes]
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
if [ "${3:-}" = "--sizes" ]; then
  # Where threads start to pay: elementwise adds of 1K-1M floats, every one
  # split across threads (--min-work 0). Compare 2 threads with 1 per size.
  "$bench" "$root/bench/threads_sizes.mlir" add_1024 add_4096 add_8192 \
    add_16384 add_32768 add_65536 add_262144 add_1048576 \
    --rounds "$((rounds * 20))" --min-work 0
fi
