// matmul layouts and the reductions, run by tracec-run and compared with
// NumPy by Inputs/check_matmul_reductions.py.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_matmul_reductions.py %s %t | FileCheck %s

// CHECK-DAG: ok matmul
// CHECK-DAG: ok matmul_ta
// CHECK-DAG: ok matmul_tb
// CHECK-DAG: ok matmul_batched_broadcast
// CHECK-DAG: ok matmul_i64
// CHECK-DAG: ok reduce_sum
// CHECK-DAG: ok reduce_mean_keepdims
// CHECK-DAG: ok reduce_max_negative_axis
// CHECK-DAG: ok reduce_min_all
// CHECK-DAG: ok reduce_sum_i32
// CHECK-DAG: ok reduce_prod_keepdims
// CHECK-DAG: ok reduce_prod_i32
// CHECK-NOT: FAIL
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %0 = trace.matmul %a, %b : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @matmul_ta(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %0 = trace.matmul %a, %b {transpose_a} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @matmul_tb(%a: tensor<3x4xf32>, %b: tensor<2x4xf32>) -> tensor<3x2xf32> {
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @matmul_batched_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %0 = trace.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  return %0 : tensor<2x5x3x2xf32>
}
func.func @matmul_i64(%a: tensor<3x4xi64>, %b: tensor<4x2xi64>) -> tensor<3x2xi64> {
  %0 = trace.matmul %a, %b : (tensor<3x4xi64>, tensor<4x2xi64>) -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 0, 2>} : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @reduce_mean_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %0 = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}
func.func @reduce_max_negative_axis(%x: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  %0 = trace.reduce_max %x {axes = array<i64: -1>} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @reduce_min_all(%x: tensor<2x3x4xf32>) -> tensor<f32> {
  %0 = trace.reduce_min %x {axes = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @reduce_sum_i32(%x: tensor<2x3x4xi32>) -> tensor<2x4xi32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<2x3x4xi32> -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
func.func @reduce_prod_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  %0 = trace.reduce_prod %x {axes = array<i64: 1, 2>, keepdims} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}
func.func @reduce_prod_i32(%x: tensor<2x3x4xi32>) -> tensor<2x4xi32> {
  %0 = trace.reduce_prod %x {axes = array<i64: 1>} : tensor<2x3x4xi32> -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
