// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// CHECK-LABEL: func.func @reduce_sum
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> (tensor<3x4xf32>, tensor<2x3xf32>, tensor<1x3x1xf32>, tensor<3xf32>) {
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0>} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  %0 = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  // Negative axes count from the end.
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: -1>} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %1 = trace.reduce_sum %x {axes = array<i64: -1>} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0, -1>, keepdims} : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %2 = trace.reduce_sum %x {axes = array<i64: 0, -1>, keepdims} : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  // The order of the axes does not matter.
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 2, 0>} : tensor<2x3x4xf32> -> tensor<3xf32>
  %3 = trace.reduce_sum %x {axes = array<i64: 2, 0>} : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<2x3xf32>, tensor<1x3x1xf32>, tensor<3xf32>
}

// Reducing every axis gives a scalar (or all ones with keepdims).
// CHECK-LABEL: func.func @reduce_all_axes
func.func @reduce_all_axes(%x: tensor<2x3xi32>, %s: tensor<f32>) -> (tensor<i32>, tensor<1x1xi32>, tensor<f32>) {
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0, 1>} : tensor<2x3xi32> -> tensor<i32>
  %0 = trace.reduce_sum %x {axes = array<i64: 0, 1>} : tensor<2x3xi32> -> tensor<i32>
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: -2, -1>, keepdims} : tensor<2x3xi32> -> tensor<1x1xi32>
  %1 = trace.reduce_sum %x {axes = array<i64: -2, -1>, keepdims} : tensor<2x3xi32> -> tensor<1x1xi32>
  // A scalar has no axes to reduce.
  // CHECK: trace.reduce_max %{{[a-z0-9_]+}} {axes = array<i64>} : tensor<f32> -> tensor<f32>
  %2 = trace.reduce_max %s {axes = array<i64>} : tensor<f32> -> tensor<f32>
  return %0, %1, %2 : tensor<i32>, tensor<1x1xi32>, tensor<f32>
}

// Empty axes keep the shape, with or without keepdims.
// CHECK-LABEL: func.func @reduce_no_axes
func.func @reduce_no_axes(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: trace.reduce_mean %{{[a-z0-9_]+}} {axes = array<i64>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %0 = trace.reduce_mean %x {axes = array<i64>} : tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: trace.reduce_min %{{[a-z0-9_]+}} {axes = array<i64>, keepdims} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = trace.reduce_min %x {axes = array<i64>, keepdims} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @reduce_mean_max_min
func.func @reduce_mean_max_min(%x: tensor<4x1x5xf16>, %i: tensor<6x7xi64>) -> (tensor<4x5xf16>, tensor<1x1x5xf16>, tensor<6xi64>, tensor<7xi64>) {
  // CHECK: trace.reduce_mean %{{[a-z0-9_]+}} {axes = array<i64: 1>} : tensor<4x1x5xf16> -> tensor<4x5xf16>
  %0 = trace.reduce_mean %x {axes = array<i64: 1>} : tensor<4x1x5xf16> -> tensor<4x5xf16>
  // CHECK: trace.reduce_max %{{[a-z0-9_]+}} {axes = array<i64: -3>, keepdims} : tensor<4x1x5xf16> -> tensor<1x1x5xf16>
  %1 = trace.reduce_max %x {axes = array<i64: -3>, keepdims} : tensor<4x1x5xf16> -> tensor<1x1x5xf16>
  // CHECK: trace.reduce_max %{{[a-z0-9_]+}} {axes = array<i64: 1>} : tensor<6x7xi64> -> tensor<6xi64>
  %2 = trace.reduce_max %i {axes = array<i64: 1>} : tensor<6x7xi64> -> tensor<6xi64>
  // CHECK: trace.reduce_min %{{[a-z0-9_]+}} {axes = array<i64: 0>} : tensor<6x7xi64> -> tensor<7xi64>
  %3 = trace.reduce_min %i {axes = array<i64: 0>} : tensor<6x7xi64> -> tensor<7xi64>
  return %0, %1, %2, %3 : tensor<4x5xf16>, tensor<1x1x5xf16>, tensor<6xi64>, tensor<7xi64>
}

// Dynamic dims that are kept stay dynamic; reduced ones become 1 with keepdims.
// CHECK-LABEL: func.func @reduce_dynamic
func.func @reduce_dynamic(%x: tensor<?x3x?xf32>) -> (tensor<?x3xf32>, tensor<1x3x?xf32>) {
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 2>} : tensor<?x3x?xf32> -> tensor<?x3xf32>
  %0 = trace.reduce_sum %x {axes = array<i64: 2>} : tensor<?x3x?xf32> -> tensor<?x3xf32>
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0>, keepdims} : tensor<?x3x?xf32> -> tensor<1x3x?xf32>
  %1 = trace.reduce_sum %x {axes = array<i64: 0>, keepdims} : tensor<?x3x?xf32> -> tensor<1x3x?xf32>
  return %0, %1 : tensor<?x3xf32>, tensor<1x3x?xf32>
}

// CHECK-LABEL: func.func @argmax
func.func @argmax(%x: tensor<2x3xf32>, %v: tensor<5xi32>, %d: tensor<?x4xf32>) -> (tensor<2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<i64>, tensor<?xi64>) {
  // CHECK: trace.argmax %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<2x3xf32> -> tensor<2xi64>
  %0 = trace.argmax %x {axis = 1} : tensor<2x3xf32> -> tensor<2xi64>
  // CHECK: trace.argmax %{{[a-z0-9_]+}} {axis = 0 : i64} : tensor<2x3xf32> -> tensor<3xi64>
  %1 = trace.argmax %x {axis = 0} : tensor<2x3xf32> -> tensor<3xi64>
  // CHECK: trace.argmax %{{[a-z0-9_]+}} {axis = -1 : i64} : tensor<2x3xf32> -> tensor<2xi64>
  %2 = trace.argmax %x {axis = -1} : tensor<2x3xf32> -> tensor<2xi64>
  // A vector gives a scalar index; integer operands are fine.
  // CHECK: trace.argmax %{{[a-z0-9_]+}} {axis = 0 : i64} : tensor<5xi32> -> tensor<i64>
  %3 = trace.argmax %v {axis = 0} : tensor<5xi32> -> tensor<i64>
  // CHECK: trace.argmax %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<?x4xf32> -> tensor<?xi64>
  %4 = trace.argmax %d {axis = 1} : tensor<?x4xf32> -> tensor<?xi64>
  return %0, %1, %2, %3, %4 : tensor<2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<i64>, tensor<?xi64>
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x3xf32>, %v: tensor<1xf64>, %d: tensor<?x?xbf16>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xf64>, tensor<?x?xbf16>) {
  // The default axis is -1 and is not printed.
  // CHECK: trace.softmax %{{[a-z0-9_]+}} : tensor<2x3xf32>
  %0 = trace.softmax %x : tensor<2x3xf32>
  // CHECK: trace.softmax %{{[a-z0-9_]+}} {axis = 0 : i64} : tensor<2x3xf32>
  %1 = trace.softmax %x {axis = 0} : tensor<2x3xf32>
  // CHECK: trace.softmax %{{[a-z0-9_]+}} {axis = -2 : i64} : tensor<2x3xf32>
  %2 = trace.softmax %x {axis = -2} : tensor<2x3xf32>
  // CHECK: trace.softmax %{{[a-z0-9_]+}} : tensor<1xf64>
  %3 = trace.softmax %v : tensor<1xf64>
  // CHECK: trace.softmax %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<?x?xbf16>
  %4 = trace.softmax %d {axis = 1} : tensor<?x?xbf16>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xf64>, tensor<?x?xbf16>
}

// CHECK-LABEL: func.func @log_softmax
func.func @log_softmax(%x: tensor<4x10xf32>, %y: tensor<2x3x4xf16>) -> (tensor<4x10xf32>, tensor<2x3x4xf16>) {
  // CHECK: trace.log_softmax %{{[a-z0-9_]+}} : tensor<4x10xf32>
  %0 = trace.log_softmax %x : tensor<4x10xf32>
  // CHECK: trace.log_softmax %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<2x3x4xf16>
  %1 = trace.log_softmax %y {axis = 1} : tensor<2x3x4xf16>
  return %0, %1 : tensor<4x10xf32>, tensor<2x3x4xf16>
}

// A product, over several axes, with keepdims, and of integers.
// CHECK-LABEL: func.func @reduce_prod
func.func @reduce_prod(%x: tensor<2x3x4xf32>, %i: tensor<2x3xi64>) -> (tensor<3xf32>, tensor<2x1xi64>) {
  // CHECK: trace.reduce_prod %{{[a-z0-9_]+}} {axes = array<i64: 0, -1>} : tensor<2x3x4xf32> -> tensor<3xf32>
  %0 = trace.reduce_prod %x {axes = array<i64: 0, -1>} : tensor<2x3x4xf32> -> tensor<3xf32>
  // CHECK: trace.reduce_prod %{{[a-z0-9_]+}} {axes = array<i64: 1>, keepdims} : tensor<2x3xi64> -> tensor<2x1xi64>
  %1 = trace.reduce_prod %i {axes = array<i64: 1>, keepdims} : tensor<2x3xi64> -> tensor<2x1xi64>
  return %0, %1 : tensor<3xf32>, tensor<2x1xi64>
}
