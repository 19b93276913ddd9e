#!/bin/sh
# Times one MLP training step (batch 64, 784-256-10, softmax cross-entropy)
# with tracec (bench/mlp_bench.cpp, C++ runtime + Google Benchmark) and
# PyTorch on the CPU (bench/mlp_torch.py), and prints the forward and
# forward+backward times, each one's backward/forward ratio, and
# tracec/torch. Nothing is asserted.
#
#   bench/run_mlp.sh [build-dir] [torch threads, default 1]
#
# tracec's compiled code runs on one thread; the default compares it with
# single-threaded PyTorch.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
threads=${2:-1}
bench=$build/bin/tracec_bench_mlp
if [ ! -x "$bench" ]; then
  echo "run_mlp.sh: $bench not found: build the tracec_bench_mlp target (needs Google Benchmark)" >&2
  exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$bench" --benchmark_out="$out/tracec.json" --benchmark_out_format=json \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true >&2
/usr/bin/python3 "$root/bench/mlp_torch.py" --threads "$threads" > "$out/torch.json"

/usr/bin/python3 - "$out/tracec.json" "$out/torch.json" <<'PY'
import json, sys

tracec = json.load(open(sys.argv[1]))
torch = json.load(open(sys.argv[2]))
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
median = {}
loss = None
for b in tracec["benchmarks"]:
    if b.get("aggregate_name") == "median":
        name = b["run_name"].split("/")[0]
        median[name] = b["real_time"] * unit[b["time_unit"]]
        loss = b.get("loss", loss)
t_fwd, t_fb = median["BM_Forward"], median["BM_ForwardBackward"]
p_fwd, p_fb = torch["forward_s"], torch["forward_backward_s"]
ms = lambda s: "%9.3f ms" % (s * 1e3)
print("MLP step, batch 64, 784-256-10, f32 (medians; torch %s, %d thread%s)"
      % (torch["torch"], torch["threads"], "" if torch["threads"] == 1 else "s"))
print("                    %12s %12s %10s" % ("tracec", "torch", "tracec/torch"))
print("forward             %12s %12s %10.2f" % (ms(t_fwd), ms(p_fwd), t_fwd / p_fwd))
print("forward+backward    %12s %12s %10.2f" % (ms(t_fb), ms(p_fb), t_fb / p_fb))
print("(fwd+bwd)/fwd       %12.2f %12.2f" % (t_fb / t_fwd, p_fb / p_fwd))
print("backward only (est) %12s %12s %10.2f" % (ms(t_fb - t_fwd), ms(p_fb - p_fwd),
                                             (t_fb - t_fwd) / (p_fb - p_fwd)))
print("bwd/fwd             %12.2f %12.2f" % ((t_fb - t_fwd) / t_fwd, (p_fb - p_fwd) / p_fwd))
print("loss                %12.6f %12.6f  (different random inputs)" % (loss, torch["loss"]))
PY
