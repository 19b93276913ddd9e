// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul_2d
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %0 = trace.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @matmul_int
func.func @matmul_int(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>, %c: tensor<5x6xi64>, %d: tensor<6x1xi64>) -> (tensor<2x4xi32>, tensor<5x1xi64>) {
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  %0 = trace.matmul %a, %b : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<5x6xi64>, tensor<6x1xi64>) -> tensor<5x1xi64>
  %1 = trace.matmul %c, %d : (tensor<5x6xi64>, tensor<6x1xi64>) -> tensor<5x1xi64>
  return %0, %1 : tensor<2x4xi32>, tensor<5x1xi64>
}

// Other float types keep their element type.
// CHECK-LABEL: func.func @matmul_f16_bf16_f64
func.func @matmul_f16_bf16_f64(%a: tensor<2x3xf16>, %b: tensor<3x2xf16>, %c: tensor<1x1xbf16>, %d: tensor<2x1x1xf64>) -> (tensor<2x2xf16>, tensor<1x1xbf16>, tensor<2x1x1xf64>) {
  // CHECK: -> tensor<2x2xf16>
  %0 = trace.matmul %a, %b : (tensor<2x3xf16>, tensor<3x2xf16>) -> tensor<2x2xf16>
  // CHECK: (tensor<1x1xbf16>, tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %1 = trace.matmul %c, %c : (tensor<1x1xbf16>, tensor<1x1xbf16>) -> tensor<1x1xbf16>
  // CHECK: (tensor<2x1x1xf64>, tensor<2x1x1xf64>) -> tensor<2x1x1xf64>
  %2 = trace.matmul %d, %d : (tensor<2x1x1xf64>, tensor<2x1x1xf64>) -> tensor<2x1x1xf64>
  return %0, %1, %2 : tensor<2x2xf16>, tensor<1x1xbf16>, tensor<2x1x1xf64>
}

// CHECK-LABEL: func.func @matmul_transpose
func.func @matmul_transpose(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %at: tensor<3x2xf32>, %bb: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {transpose_b} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {transpose_a} : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = trace.matmul %at, %bb {transpose_a} : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {transpose_a, transpose_b} : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %2 = trace.matmul %at, %b {transpose_a, transpose_b} : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @matmul_batched
func.func @matmul_batched(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>, %c: tensor<8x4x3xf32>) -> (tensor<8x2x4xf32>, tensor<8x2x4xf32>) {
  // CHECK: (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  %0 = trace.matmul %a, %b : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  // CHECK: {transpose_b} : (tensor<8x2x3xf32>, tensor<8x4x3xf32>) -> tensor<8x2x4xf32>
  %1 = trace.matmul %a, %c {transpose_b} : (tensor<8x2x3xf32>, tensor<8x4x3xf32>) -> tensor<8x2x4xf32>
  return %0, %1 : tensor<8x2x4xf32>, tensor<8x2x4xf32>
}

// Batch dims broadcast as in NumPy: missing leading dims and size-1 dims.
// CHECK-LABEL: func.func @matmul_broadcast_batch
func.func @matmul_broadcast_batch(%a: tensor<5x1x2x3xi32>, %b: tensor<7x3x4xi32>, %c: tensor<2x3xf32>, %d: tensor<6x3x4xf32>) -> (tensor<5x7x2x4xi32>, tensor<6x2x4xf32>, tensor<6x2x4xf32>) {
  // CHECK: (tensor<5x1x2x3xi32>, tensor<7x3x4xi32>) -> tensor<5x7x2x4xi32>
  %0 = trace.matmul %a, %b : (tensor<5x1x2x3xi32>, tensor<7x3x4xi32>) -> tensor<5x7x2x4xi32>
  // CHECK: (tensor<2x3xf32>, tensor<6x3x4xf32>) -> tensor<6x2x4xf32>
  %1 = trace.matmul %c, %d : (tensor<2x3xf32>, tensor<6x3x4xf32>) -> tensor<6x2x4xf32>
  // CHECK: {transpose_a, transpose_b} : (tensor<6x3x4xf32>, tensor<2x3xf32>) -> tensor<6x4x2xf32>
  %2 = trace.matmul %d, %c {transpose_a, transpose_b} : (tensor<6x3x4xf32>, tensor<2x3xf32>) -> tensor<6x4x2xf32>
  %3 = trace.transpose %2 {perm = array<i64: 0, 2, 1>} : tensor<6x4x2xf32> -> tensor<6x2x4xf32>
  return %0, %1, %3 : tensor<5x7x2x4xi32>, tensor<6x2x4xf32>, tensor<6x2x4xf32>
}

// Dynamic dims: an unknown contraction dim matches anything; an unknown
// batch dim broadcasts against a known one.
// CHECK-LABEL: func.func @matmul_dynamic
func.func @matmul_dynamic(%a: tensor<?x?xf32>, %b: tensor<3x4xf32>, %c: tensor<?x2x3xf32>, %d: tensor<5x3x?xf32>, %e: tensor<1x3x4xf32>) -> (tensor<?x4xf32>, tensor<5x2x?xf32>, tensor<?x2x4xf32>) {
  // CHECK: (tensor<?x?xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  %0 = trace.matmul %a, %b : (tensor<?x?xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  // CHECK: (tensor<?x2x3xf32>, tensor<5x3x?xf32>) -> tensor<5x2x?xf32>
  %1 = trace.matmul %c, %d : (tensor<?x2x3xf32>, tensor<5x3x?xf32>) -> tensor<5x2x?xf32>
  // CHECK: (tensor<?x2x3xf32>, tensor<1x3x4xf32>) -> tensor<?x2x4xf32>
  %2 = trace.matmul %c, %e : (tensor<?x2x3xf32>, tensor<1x3x4xf32>) -> tensor<?x2x4xf32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<5x2x?xf32>, tensor<?x2x4xf32>
}
