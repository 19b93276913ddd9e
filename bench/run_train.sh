#!/bin/sh
# Times one training step of examples/train_mlp.mlir (2-32-32-3 relu MLP,
# batch 64: loss, gradients with respect to the weight variables, in-place
# SGD or Adam update) with tracec (bench/train_bench.cpp) and PyTorch
# (bench/train_torch.py, torch.optim), and prints both and tracec/torch.
# Nothing is asserted.
#
#   bench/run_train.sh [build-dir] [torch threads, default 1]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
threads=${2:-1}
bench=$build/bin/tracec_bench_train
if [ ! -x "$bench" ]; then
  echo "run_train.sh: $bench not found: build the tracec_bench_train target (needs Google Benchmark)" >&2
  exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$bench" --benchmark_out="$out/tracec.json" --benchmark_out_format=json \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true >&2
/usr/bin/python3 "$root/bench/train_torch.py" --threads "$threads" > "$out/torch.json"

/usr/bin/python3 - "$out/tracec.json" "$out/torch.json" <<'PY'
import json, sys

tracec = json.load(open(sys.argv[1]))
torch = json.load(open(sys.argv[2]))
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
median = {}
for b in tracec["benchmarks"]:
    if b.get("aggregate_name") == "median":
        median[b["run_name"]] = b["real_time"] * unit[b["time_unit"]]
us = lambda s: "%9.1f us" % (s * 1e6)
print("training step, 2-32-32-3 relu MLP, batch 64, f32 (medians; torch %s, %d thread%s)"
      % (torch["torch"], torch["threads"], "" if torch["threads"] == 1 else "s"))
print("            %12s %12s %12s" % ("tracec", "torch", "tracec/torch"))
for name, key in (("SGD step", "sgd"), ("Adam step", "adam")):
    t = median["BM_%sStep" % key.capitalize()]
    p = torch[key + "_step_s"]
    print("%-11s %12s %12s %12.2f" % (name, us(t), us(p), t / p))
PY
