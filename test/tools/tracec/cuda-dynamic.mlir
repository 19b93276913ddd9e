// tracec --cuda-chip with a `?` batch: one object for every batch size, as
// on the CPU (dynamic.mlir). The header declares the shape function; the
// entry takes the dims, computes its grids from them at run time and
// checks them before any CUDA call.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry add --class Model --cuda-chip sm_90 -o %t/model.o --header %t/model.h
// RUN: FileCheck %s --check-prefix=HEADER < %t/model.h
// RUN: llvm-strings %t/model.o | FileCheck %s --check-prefix=PTX
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t -I%tracec_include -c %S/Inputs/cuda_dynamic_driver.c -o %t/driver.o
// RUN: clang++ %t/driver.o %t/model.o %tracec_cuda_runtime %sanitize_link -ldl -lm -o %t/program
// RUN: env TRACEC_CUDA_DRIVER=%fake_cuda_driver %t/program | FileCheck %s --check-prefix=FAKE

// HEADER: int model_add(const float *x, int64_t x_dim0, const float *y, int64_t y_dim0, float *result0, int64_t result0_dim0);
// HEADER: int model_add_shape(int64_t x_dim0, int64_t y_dim0, int64_t *result0_dim0, char *error, size_t error_size);

// PTX: .target sm_90
// PTX: .visible .entry add_kernel(

// FAKE: batch 7: result rows 7, status 0, CUDA error: none
// FAKE: batch 300: result rows 300, status 0, CUDA error: none
// FAKE: shape status 2: @add: argument 0 (x) dim 0 is 7 but argument 1 (y) dim 0 is 5 ({{.*}}cuda-dynamic.mlir:{{[0-9]+}}:{{[0-9]+}}: 'trace.add': dim 0 of operand 0 and dim 0 of operand 1 differ)
// FAKE: call status 2
func.func @add(%x: tensor<?x256xf32>, %y: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %0 = trace.add %x, %y : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
  %1 = trace.exp %0 : tensor<?x256xf32>
  return %1 : tensor<?x256xf32>
}
