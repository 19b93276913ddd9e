// RUN: tracec-opt %s --tracec-cpu-pipeline | FileCheck %s

// The entry point takes its inputs and then one caller-owned out-parameter
// per result (each a memref descriptor: 2 pointers, offset, sizes, strides),
// returns nothing, and frees every buffer it allocates.
// f32 erf is a polynomial (trace-cpu-math-approximation): no libm call.
// CHECK-NOT: llvm.func @erff
// CHECK-LABEL: llvm.func @compute(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64) {
// CHECK-NOT: trace.
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
// CHECK: llvm.return{{$}}
func.func @compute(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<1x4xf32> {
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %1 = trace.gelu %0 : tensor<2x4xf32>
  %2 = trace.reduce_mean %1 {axes = array<i64: 0>, keepdims} : tensor<2x4xf32> -> tensor<1x4xf32>
  return %2 : tensor<1x4xf32>
}
