#!/bin/sh
# Times drawing 2^20 f32 random numbers (uniform and normal) with tracec
# (bench/random_bench.cpp) and with NumPy and PyTorch (bench/random_peers.py),
# one thread each, and prints the times and ratios. Nothing is asserted.
#
#   bench/run_random.sh [build-dir]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bench=$build/bin/tracec_bench_random
if [ ! -x "$bench" ]; then
  echo "run_random.sh: $bench not found: build the tracec_bench_random target (needs Google Benchmark)" >&2
  exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$bench" --benchmark_out="$out/tracec.json" --benchmark_out_format=json \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true >&2
/usr/bin/python3 "$root/bench/random_peers.py" > "$out/peers.json"

/usr/bin/python3 - "$out/tracec.json" "$out/peers.json" <<'PY'
import json, sys

tracec = json.load(open(sys.argv[1]))
peers = json.load(open(sys.argv[2]))
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
median = {b["run_name"]: b["real_time"] * unit[b["time_unit"]]
          for b in tracec["benchmarks"] if b.get("aggregate_name") == "median"}
ms = lambda s: "%8.3f ms" % (s * 1e3)
print("2^20 f32 random numbers, one thread (medians; numpy %s, torch %s)"
      % (peers["numpy"], peers["torch"]))
print("          %11s %11s %11s %12s %12s" % ("tracec", "numpy", "torch",
                                            "tracec/numpy", "tracec/torch"))
for name, key in (("uniform", "BM_Uniform"), ("normal", "BM_Normal")):
    t, n, p = median[key], peers["numpy_%s_s" % name], peers["torch_%s_s" % name]
    print("%-9s %11s %11s %11s %12.2f %12.2f" % (name, ms(t), ms(n), ms(p), t / n, t / p))
PY
