// Entries with dynamic dims: one object serves every batch. The C function
// takes each buffer's `?` dims; <entry>_shape checks the arguments' dims and
// computes the results'; the C++ class sets the dims per call.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry affine --entry scale --class Dyn -o %t/model.o --header %t/model.h
// RUN: FileCheck %s --check-prefix=HEADER < %t/model.h
// RUN: nm -g --defined-only %t/model.o | FileCheck %s --check-prefix=EXPORTS
// RUN: nm %t/model.o | FileCheck %s --check-prefix=CACHE
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/dynamic-driver.c %t/model.o -lm -o %t/c-driver
// RUN: %t/c-driver | FileCheck %s --check-prefix=C
// RUN: not %t/c-driver 5 4 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not %t/c-driver -1 -1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: clang++ -std=c++17 -Wall -Wextra -Werror -I%t %S/Inputs/dynamic-driver.cpp %t/model.o -lm -o %t/cpp-driver
// RUN: %t/cpp-driver | FileCheck %s --check-prefix=CPP

// HEADER: #define TRACEC_AOT_BAD_DIMS 2
// HEADER: int dyn_affine(const float *x, int64_t x_dim0, const float *w, const float *scale, int64_t scale_dim0, float *total, float *y, int64_t y_dim0, float *colsum);
// HEADER: int dyn_affine_shape(int64_t x_dim0, int64_t scale_dim0, int64_t *y_dim0, char *error, size_t error_size);
// HEADER: #define DYN_AFFINE_ARG_X_SHAPE {-1, 3}
// HEADER-NEXT: #define DYN_AFFINE_ARG_X_SIZE(x_dim0) ((int64_t)(x_dim0) * 3)
// HEADER-NEXT: #define DYN_AFFINE_ARG_X_BYTES(x_dim0) ((int64_t)(x_dim0) * 3 * 4)
// HEADER: #define DYN_AFFINE_RESULT_COLSUM_SIZE 2
// HEADER: int dyn_scale(const float *x, int64_t x_dim0, int64_t x_dim1, float *result0, int64_t result0_dim0, int64_t result0_dim1);
// HEADER: class Affine {
// HEADER: float *set_arg_x_dims(int64_t x_dim0) {
// HEADER: void set_arg_x_data(const float *data, int64_t x_dim0) {
// HEADER: const int64_t *result_y_dims() const
// HEADER: int Run() {
// HEADER-NEXT: int status = dyn_affine_shape(arg_x_dims_[0], arg_scale_dims_[0], &result_y_dims_[0], error_, sizeof error_);

// Only the C functions are exported (and dyn_target_cpu); the buffers of
// run-time size go through the object's own cache
// (dynamic-buffer-cache.mlir), over libc.
// EXPORTS-COUNT-5: {{^[0-9a-f]+ T dyn_[a-z_]+$}}
// EXPORTS-NOT: {{.}}
// CACHE-DAG: t tracec_aot_alloc
// CACHE-DAG: t tracec_aot_free
// CACHE-DAG: U malloc
// CACHE-DAG: U free

// The C driver checks y, colsum and the variable against values it computes
// itself, at batches 1, 7, 64 and 256, with one object.
// C: batch 1: ok
// C: batch 7: ok
// C: batch 64: ok
// C: batch 256: ok
// C: scale 5x3: ok
// C: shape(7, 6) -> 2: @affine: argument 0 (x) dim 0 is 7 but argument 2 (scale) dim 0 is 6 ({{.*}}dynamic.mlir:[[@LINE+27]]:8: 'trace.mul': dim 0 of operand 0 and dim 0 of operand 1 differ)
// C: affine(7, 6) -> 2, y and the variable untouched: ok
// C: affine(7, 7) with y of 6 rows -> 3, y untouched: ok
// C: shape(-2, -2) -> 2: @affine: argument 0 (x) dim 0 is -2, not a size
// C: null y_dim0 -> 1
// C: null buffer -> 1
// C: short error buffer -> 2: "@affine: a"

// MISMATCH: error 2: @affine: argument 0 (x) dim 0 is 5 but argument 2 (scale) dim 0 is 4
// NEGATIVE: error 2: @affine: argument 0 (x) dim 0 is -1, not a size

// CPP: batch 1: ok
// CPP: batch 7: ok
// CPP: batch 64: ok
// CPP: batch 256: ok
// CPP: caller's buffers, batch 3: ok
// CPP: mismatch -> 2: @affine: argument 0 (x) dim 0 is 4 but argument 2 (scale) dim 0 is 5
// CPP: negative -> 2: @affine: argument 0 (x) dim 0 is -1, not a size
// CPP: unset argument -> 1: @affine: a buffer is null
// CPP: ArgSize(0) 12, ResultSize(0) 8 after batch 1

// y = (x @ w) * scale (broadcast over columns); colsum = sum of y's rows,
// also added to the variable total.
func.func @affine(%x: tensor<?x3xf32>, %w: tensor<3x2xf32>, %scale: tensor<?x1xf32>,
                  %total: !trace.resource<tensor<2xf32>>)
    -> (tensor<?x2xf32> {trace.name = "y"}, tensor<2xf32> {trace.name = "colsum"}) {
  %m = trace.matmul %x, %w : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
  %y = trace.mul %m, %scale : (tensor<?x2xf32>, tensor<?x1xf32>) -> tensor<?x2xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<?x2xf32> -> tensor<2xf32>
  %c = trace.var.assign_add %total, %s : !trace.resource<tensor<2xf32>>
  return %y, %s : tensor<?x2xf32>, tensor<2xf32>
}

// Two dynamic dims of one buffer.
func.func @scale(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %two = trace.constant dense<2.0> : tensor<f32>
  %y = trace.mul %x, %two : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
