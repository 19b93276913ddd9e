#!/bin/sh
# Builds test/GPU/device/check (see check.cpp) into DIR, default
# gpu-check/ at the repository root (ignored by git, carried to the device
# machine): tracec compiles checks.mlir and examples/train_mlp.mlir for the
# host CPU and with --cuda-chip (default sm_90), tensor_cores.mlir too
# (its GPU side with --tf32, once for the chip and once for sm_90a, whose
# wgmma kernels only Hopper runs), then one program links them all with
# the runtime shim. Run DIR/check where a GPU and libcuda are.
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
entries="--entry half --entry brain --entry single --entry transposed --entry dense --entry deep"
$tracec "$here/tensor_cores.mlir" --class TensorCoresCpu --namespace checks -o "$out/tensor_cores_cpu.o" \
  --header "$out/tensor_cores_cpu.h" $entries
$tracec "$here/tensor_cores.mlir" --class TensorCoresGpu --namespace checks --cuda-chip "$chip" --tf32 \
  -o "$out/tensor_cores_gpu.o" --header "$out/tensor_cores_gpu.h" $entries
$tracec "$here/tensor_cores.mlir" --class TensorCoresHopper --namespace checks --cuda-chip sm_90a --tf32 \
  -o "$out/tensor_cores_hopper.o" --header "$out/tensor_cores_hopper.h" $entries
for target in cpu gpu; do
  flags=""
  [ $target = gpu ] && flags="--cuda-chip $chip"
  # (Train...: each class prefixes its object's C symbols, which the
  # program links side by side with the checks' Cpu and Gpu.)
  class=Train$(echo $target | sed 's/^./\U&/')
  $tracec "$root/examples/train_mlp.mlir" --class "$class" --namespace train $flags \
    -o "$out/train_$target.o" --header "$out/train_$target.h" --entry sgd_step --entry adam_step
done
# compiler-rt's builtins: the CPU objects' bf16 conversions call
# __truncsfbf2, which Debian 12's libgcc lacks.
/usr/lib/llvm-22/bin/clang++ -std=c++17 -O2 -Wall -Wextra -I"$out" -I"$root/include" "$here/check.cpp" \
  "$out"/checks_cpu.o "$out"/checks_gpu.o "$out"/tensor_cores_cpu.o "$out"/tensor_cores_gpu.o "$out"/tensor_cores_hopper.o \
  "$out"/train_cpu.o "$out"/train_gpu.o \
  "$build/lib/ABI/Cuda/libTracecCudaRuntime.a" -ldl -lm \
  "$(/usr/lib/llvm-22/bin/clang++ -print-libgcc-file-name --rtlib=compiler-rt)" -o "$out/check"
echo "built $out/check"
