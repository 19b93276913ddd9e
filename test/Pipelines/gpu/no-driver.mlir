// Where libcuda.so.1 cannot be loaded, --target=cuda is one clear error
// line and exit code 1 (TRACEC_CUDA_DRIVER points the shim at a missing
// library, so this runs the same with or without a GPU).
// RUN: env TRACEC_CUDA_DRIVER=%t.missing/libcuda.so.1 not tracec-run %s --entry scale --target=cuda --input x="[1, 2]" 2>&1 | FileCheck %s
// CHECK: error: cannot load the GPU kernels: CUDA driver not found: {{.*}}libcuda.so.1: cannot open shared object file
// CHECK-NOT: Stack dump

// A chip LLVM's NVPTX back end does not know is a diagnostic, not an abort.
// RUN: not tracec-run %s --entry scale --target=cuda --chip=sm_99 --input x="[1, 2]" 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: compilation failed:
// CHIP: error: unsupported GPU chip 'sm_99'
func.func @scale(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = trace.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
