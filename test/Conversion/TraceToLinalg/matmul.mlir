// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @plain
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[ACC]] : tensor<2x4xf32>)
func.func @plain(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = trace.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @batched
// CHECK: linalg.batch_matmul ins(%arg0, %arg1 : tensor<5x2x3xi32>, tensor<5x3x4xi32>)
func.func @batched(%a: tensor<5x2x3xi32>, %b: tensor<5x3x4xi32>) -> tensor<5x2x4xi32> {
  %0 = trace.matmul %a, %b : (tensor<5x2x3xi32>, tensor<5x3x4xi32>) -> tensor<5x2x4xi32>
  return %0 : tensor<5x2x4xi32>
}

// -----

// A 2-D rhs broadcast over the batch and a transposed rhs: one generic,
// iteration space (batch, m, n, k), operands read in place.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[RHS_T:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_transposed
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS_T]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @broadcast_transposed(%a: tensor<5x2x3xf32>, %b: tensor<4x3xf32>) -> tensor<5x2x4xf32> {
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<5x2x3xf32>, tensor<4x3xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// Size-1 batch dims broadcast; transpose_a reads lhs as (k, m).
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (0, d1, d4, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d4, d3)>
// CHECK-LABEL: func.func @broadcast_batch_dims
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #{{.*}}]
// CHECK: arith.muli
// CHECK: arith.addi
func.func @broadcast_batch_dims(%a: tensor<1x3x6x2xi64>, %b: tensor<4x1x6x5xi64>) -> tensor<4x3x2x5xi64> {
  %0 = trace.matmul %a, %b {transpose_a} : (tensor<1x3x6x2xi64>, tensor<4x1x6x5xi64>) -> tensor<4x3x2x5xi64>
  return %0 : tensor<4x3x2x5xi64>
}

// -----

// Half-precision products accumulate in f32 and are rounded once.
// CHECK-LABEL: func.func @brain
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[SUM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xbf16>, tensor<3x4xbf16>) outs(%[[ACC]] : tensor<2x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @brain(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xbf16> {
  %0 = trace.matmul %a, %b : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  return %0 : tensor<2x4xbf16>
}

// -----

// CHECK-LABEL: func.func @half_transposed
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @half_transposed(%a: tensor<2x3xf16>, %b: tensor<4x3xf16>) -> tensor<2x4xf16> {
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<2x3xf16>, tensor<4x3xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}
