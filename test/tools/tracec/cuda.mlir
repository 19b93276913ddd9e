// tracec --cuda-chip: the object embeds the kernel's PTX and calls the
// runtime shim's mgpu* entry points; a program links it with
// TracecCudaRuntime (static, no CUDA SDK) and libdl. With a driver that
// runs nothing (the fake of the unit tests) the call succeeds; with none
// at all, the program runs to its end and tracec_cuda_take_error() says
// why nothing ran.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry scale --cuda-chip sm_90 -o %t/model.o --header %t/model.h
// RUN: llvm-nm %t/model.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-strings %t/model.o | FileCheck %s --check-prefix=PTX
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t -I%tracec_include -c %S/Inputs/cuda_driver.c -o %t/driver.o
// RUN: clang++ %t/driver.o %t/model.o %tracec_cuda_runtime %sanitize_link -ldl -lm -o %t/program
// RUN: env TRACEC_CUDA_DRIVER=%fake_cuda_driver %t/program | FileCheck %s --check-prefix=FAKE
// RUN: env TRACEC_CUDA_DRIVER=%t/missing/libcuda.so.1 %t/program | FileCheck %s --check-prefix=MISSING

// SYMBOLS: T cuda_scale
// SYMBOLS: U mgpuLaunchKernel
// SYMBOLS: U mgpuMemAlloc
// SYMBOLS: U mgpuModuleLoadJIT
// SYMBOLS: r scale_kernel_binary

// PTX: .target sm_90
// PTX: .visible .entry scale_kernel(
// FAKE: status 0, CUDA error: none
// MISSING: status 0, CUDA error: CUDA driver not found: {{.*}}/missing/libcuda.so.1: cannot open shared object file
func.func @scale(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %y = trace.exp %x : tensor<1024xf32>
  return %y : tensor<1024xf32>
}
