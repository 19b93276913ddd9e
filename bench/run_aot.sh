#!/bin/sh
# The ahead-of-time compiler on the MLP training step (bench/mlp.mlir's
# @loss_and_grads: batch 64, 784-256-10, value_and_grad): tracec's compile
# time (best of 3) and the object's size; then bench/aot_bench.cpp, the
# same functions called as AOT C entry points and through the JIT
# (tracec::Function::call): a 4-element entry for the call overhead, the
# MLP step for the compute. Nothing is asserted.
#
#   bench/run_aot.sh [build-dir]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
tracec=$build/bin/tracec
bench=$build/bin/tracec_bench_aot
for tool in "$tracec" "$bench"; do
  if [ ! -x "$tool" ]; then
    echo "run_aot.sh: $tool not found: build the tracec and tracec_bench_aot targets" >&2
    exit 1
  fi
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for i in 1 2 3; do
  /usr/bin/time -f %e -a -o "$out/times" "$tracec" "$root/bench/mlp.mlir" \
    --entry loss_and_grads -o "$out/mlp.o" --header "$out/mlp.h"
done
echo "tracec bench/mlp.mlir --entry loss_and_grads -o mlp.o --header mlp.h"
echo "  compile time (best of 3): $(sort -n "$out/times" | head -1) s"
echo "  object file: $(stat -c %s "$out/mlp.o") bytes; sections:"
size "$out/mlp.o" | sed 's/^/    /'
echo "  undefined symbols: $(nm -u "$out/mlp.o" | awk '{print $2}' | tr '\n' ' ')"
echo

"$bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
