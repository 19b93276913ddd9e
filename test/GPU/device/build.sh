#!/bin/sh
# Builds test/GPU/device/check (see check.cpp) into DIR, default
# gpu-check/ at the repository root (ignored by git, carried to the device
# machine): tracec compiles checks.mlir and examples/train_mlp.mlir for the
# host CPU and with --cuda-chip (default sm_90), then one program links
# both with the runtime shim. Run DIR/check where a GPU and libcuda are.
#
#   test/GPU/device/build.sh [build-dir] [out-dir] [chip]
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build}
out=${2:-$root/gpu-check}
chip=${3:-sm_90}
here=$root/test/GPU/device
mkdir -p "$out"
tracec=$build/bin/tracec
$tracec "$here/checks.mlir" --class Cpu --namespace checks -o "$out/checks_cpu.o" --header "$out/checks_cpu.h" \
  --entry chain --entry reductions --entry norms --entry matmuls --entry convolution --entry shapes --entry draws
$tracec "$here/checks.mlir" --class Gpu --namespace checks --cuda-chip "$chip" -o "$out/checks_gpu.o" --header "$out/checks_gpu.h" \
  --entry chain --entry reductions --entry norms --entry matmuls --entry convolution --entry shapes --entry draws
for target in cpu gpu; do
  flags=""
  [ $target = gpu ] && flags="--cuda-chip $chip"
  # (Train...: each class prefixes its object's C symbols, which the
  # program links side by side with the checks' Cpu and Gpu.)
  class=Train$(echo $target | sed 's/^./\U&/')
  $tracec "$root/examples/train_mlp.mlir" --class "$class" --namespace train $flags \
    -o "$out/train_$target.o" --header "$out/train_$target.h" --entry sgd_step --entry adam_step
done
/usr/lib/llvm-22/bin/clang++ -std=c++17 -O2 -Wall -Wextra -I"$out" -I"$root/include" "$here/check.cpp" \
  "$out"/checks_cpu.o "$out"/checks_gpu.o "$out"/train_cpu.o "$out"/train_gpu.o \
  "$build/lib/ABI/Cuda/libTracecCudaRuntime.a" -ldl -lm -o "$out/check"
echo "built $out/check"
