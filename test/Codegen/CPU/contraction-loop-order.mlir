// RUN: tracec-opt %s --trace-to-linalg --trace-contraction-loop-order -split-input-file | FileCheck %s

// matmul runs (m, k, n): the innermost loop walks a row of the right
// operand and of the result.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = trace.matmul %a, %b : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// batch_matmul runs (b, m, k, n).
// CHECK-LABEL: func.func @batched
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
func.func @batched(%a: tensor<2x4x3xf32>, %b: tensor<2x3x5xf32>) -> tensor<2x4x5xf32> {
  %0 = trace.matmul %a, %b : (tensor<2x4x3xf32>, tensor<2x3x5xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

// Reductions that are not contractions keep their order.
// CHECK-LABEL: func.func @row_sums
// CHECK: linalg.reduce
func.func @row_sums(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<4x3xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
