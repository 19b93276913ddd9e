// RUN: tracec-opt %s | tracec-opt | FileCheck %s
// RUN: tracec-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// scatter_add: updates have gather's result shape for operand and indices;
// the result is the operand's type. `?` dims anywhere.

// CHECK-LABEL: func.func @scatter_add
func.func @scatter_add(%t: tensor<5x3xf32>, %i: tensor<4xi32>, %u: tensor<4x3xf32>,
                       %p: tensor<2x5x3xf64>, %j: tensor<2x2xi64>, %v: tensor<2x2x2x3xf64>,
                       %d: tensor<?x?xf32>, %k: tensor<?xi32>, %w: tensor<?x?xf32>,
                       %s: tensor<4xf32>, %l: tensor<i32>, %x: tensor<f32>)
    -> (tensor<5x3xf32>, tensor<2x5x3xf64>, tensor<?x?xf32>, tensor<4xf32>, tensor<5x3xf32>) {
  // CHECK: trace.scatter_add %{{.*}}, %{{.*}}, %{{.*}} : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %0 = trace.scatter_add %t, %i, %u : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  // CHECK: trace.scatter_add %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x5x3xf64>, tensor<2x2xi64>, tensor<2x2x2x3xf64>) -> tensor<2x5x3xf64>
  %1 = trace.scatter_add %p, %j, %v {axis = 1} : (tensor<2x5x3xf64>, tensor<2x2xi64>, tensor<2x2x2x3xf64>) -> tensor<2x5x3xf64>
  // CHECK: trace.scatter_add %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = trace.scatter_add %d, %k, %w : (tensor<?x?xf32>, tensor<?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  // A rank-0 index adds one element.
  // CHECK: trace.scatter_add %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<4xf32>, tensor<i32>, tensor<f32>) -> tensor<4xf32>
  %3 = trace.scatter_add %s, %l, %x {axis = -1} : (tensor<4xf32>, tensor<i32>, tensor<f32>) -> tensor<4xf32>
  // Static updates into a `?` operand (the result keeps the operand's type).
  // CHECK: trace.scatter_add %{{.*}}, %{{.*}}, %{{.*}} : (tensor<5x3xf32>, tensor<?xi32>, tensor<?x3xf32>) -> tensor<5x3xf32>
  %w3 = tensor.cast %w : tensor<?x?xf32> to tensor<?x3xf32>
  %4 = trace.scatter_add %t, %k, %w3 : (tensor<5x3xf32>, tensor<?xi32>, tensor<?x3xf32>) -> tensor<5x3xf32>
  return %0, %1, %2, %3, %4 : tensor<5x3xf32>, tensor<2x5x3xf64>, tensor<?x?xf32>, tensor<4xf32>, tensor<5x3xf32>
}

// CHECK-LABEL: func.func @max_pool2d_select
func.func @max_pool2d_select(%x: tensor<1x4x4x3xf32>, %t: tensor<1x4x4x3xf32>, %y: tensor<?x?x?x2xf64>, %s: tensor<?x?x?x2xf64>)
    -> (tensor<1x2x2x3xf32>, tensor<?x?x?x2xf64>) {
  // CHECK: trace.max_pool2d_select %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  // CHECK: trace.max_pool2d_select %{{.*}}, %{{.*}} {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<?x?x?x2xf64>, tensor<?x?x?x2xf64>) -> tensor<?x?x?x2xf64>
  %1 = trace.max_pool2d_select %y, %s {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x2xf64>, tensor<?x?x?x2xf64>) -> tensor<?x?x?x2xf64>
  return %0, %1 : tensor<1x2x2x3xf32>, tensor<?x?x?x2xf64>
}

// Folds: no updates (an empty index list), or zero updates, leave the
// operand as it is.
// FOLD-LABEL: func.func @fold
// FOLD-NOT: trace.scatter_add
// FOLD: return %arg0, %arg0
func.func @fold(%t: tensor<5x3xf32>, %i: tensor<0xi32>, %u: tensor<0x3xf32>, %k: tensor<4xi32>) -> (tensor<5x3xf32>, tensor<5x3xf32>) {
  %0 = trace.scatter_add %t, %i, %u : (tensor<5x3xf32>, tensor<0xi32>, tensor<0x3xf32>) -> tensor<5x3xf32>
  %z = trace.constant dense<0.0> : tensor<4x3xf32>
  %1 = trace.scatter_add %t, %k, %z : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %0, %1 : tensor<5x3xf32>, tensor<5x3xf32>
}

// FOLD-LABEL: func.func @no_fold
// FOLD: trace.scatter_add
func.func @no_fold(%t: tensor<5x3xf32>, %k: tensor<4xi32>) -> tensor<5x3xf32> {
  %z = trace.constant dense<1.0> : tensor<4x3xf32>
  %1 = trace.scatter_add %t, %k, %z : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %1 : tensor<5x3xf32>
}
