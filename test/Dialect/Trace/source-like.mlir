// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// The sources shaped `like` a value (the result has its run-time shape, `?`
// dims included): fill, iota, random_uniform, random_normal.

// CHECK-LABEL: func.func @sources_like
func.func @sources_like(%x: tensor<?x4xf32>, %i: tensor<?x?xi64>, %v: tensor<f32>) -> (tensor<?x4xf32>, tensor<?x4xi32>, tensor<?x?xf64>, tensor<?x4xf32>, tensor<?x?xf16>) {
  // CHECK: trace.fill %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %0 = trace.fill %v like %x : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK: trace.iota like %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<?x4xf32> -> tensor<?x4xi32>
  %1 = trace.iota like %x {axis = 1} : tensor<?x4xf32> -> tensor<?x4xi32>
  // `like` may have any element type.
  // CHECK: trace.iota like %{{[a-z0-9_]+}} : tensor<?x?xi64> -> tensor<?x?xf64>
  %2 = trace.iota like %i : tensor<?x?xi64> -> tensor<?x?xf64>
  // CHECK: %[[U:.*]], %[[T:.*]] = trace.random_uniform like %{{[a-z0-9_]+}} {high = 2.000000e+00 : f64, seed = 1 : i64} : tensor<?x4xf32> -> tensor<?x4xf32>
  %3, %t = trace.random_uniform like %x {seed = 1, high = 2.0} : tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK: trace.random_normal like %{{[a-z0-9_]+}} after(%[[T]]) {seed = 2 : i64} : tensor<?x?xi64> -> tensor<?x?xf16>
  %4, %t2 = trace.random_normal like %i after(%t) {seed = 2} : tensor<?x?xi64> -> tensor<?x?xf16>
  return %0, %1, %2, %3, %4 : tensor<?x4xf32>, tensor<?x4xi32>, tensor<?x?xf64>, tensor<?x4xf32>, tensor<?x?xf16>
}

// The forms without `like` print as before.
// CHECK-LABEL: func.func @sources_static
func.func @sources_static(%v: tensor<f32>) -> (tensor<2xf32>, tensor<3xi32>, tensor<2x2xf32>) {
  // CHECK: trace.fill %{{[a-z0-9_]+}} : tensor<f32> -> tensor<2xf32>
  %0 = trace.fill %v : tensor<f32> -> tensor<2xf32>
  // CHECK: trace.iota : tensor<3xi32>
  %1 = trace.iota : tensor<3xi32>
  // CHECK: trace.random_uniform {seed = 3 : i64} : tensor<2x2xf32>
  %2, %t = trace.random_uniform {seed = 3} : tensor<2x2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi32>, tensor<2x2xf32>
}
