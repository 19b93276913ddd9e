// RUN: tracec-opt %s -canonicalize -split-input-file | FileCheck %s

// Reducing over no axes is the identity, with or without keepdims (for
// float sums and means see @float_sum_keeps_sign).
// CHECK-LABEL: func.func @no_axes
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NOT: trace.reduce
// CHECK: return %[[X]], %[[X]], %[[I]], %[[I]] :
func.func @no_axes(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = trace.reduce_max %x {axes = array<i64>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = trace.reduce_min %x {axes = array<i64>, keepdims} : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = trace.reduce_sum %i {axes = array<i64>} : tensor<4xi32> -> tensor<4xi32>
  %3 = trace.reduce_sum %i {axes = array<i64>, keepdims} : tensor<4xi32> -> tensor<4xi32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @scalar_no_axes
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK-NOT: trace.reduce
// CHECK: return %[[X]] : tensor<f32>
func.func @scalar_no_axes(%x: tensor<f32>) -> tensor<f32> {
  %0 = trace.reduce_max %x {axes = array<i64>} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @dynamic_no_axes
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf32>)
// CHECK-NOT: trace.reduce
// CHECK: return %[[X]] : tensor<?x3xf32>
func.func @dynamic_no_axes(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = trace.reduce_max %x {axes = array<i64>} : tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Reducing only size-1 dims and keeping them is also the identity.
// CHECK-LABEL: func.func @size_one_keepdims
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x1xf32>, %[[I:.*]]: tensor<1x3x1xi64>)
// CHECK-NOT: trace.reduce
// CHECK: return %[[I]], %[[I]], %[[X]], %[[X]] :
func.func @size_one_keepdims(%x: tensor<1x3x1xf32>, %i: tensor<1x3x1xi64>) -> (tensor<1x3x1xi64>, tensor<1x3x1xi64>, tensor<1x3x1xf32>, tensor<1x3x1xf32>) {
  %0 = trace.reduce_sum %i {axes = array<i64: 0>, keepdims} : tensor<1x3x1xi64> -> tensor<1x3x1xi64>
  %1 = trace.reduce_sum %i {axes = array<i64: 0, -1>, keepdims} : tensor<1x3x1xi64> -> tensor<1x3x1xi64>
  %2 = trace.reduce_max %x {axes = array<i64: 2>, keepdims} : tensor<1x3x1xf32> -> tensor<1x3x1xf32>
  %3 = trace.reduce_min %x {axes = array<i64: -3>, keepdims} : tensor<1x3x1xf32> -> tensor<1x3x1xf32>
  return %0, %1, %2, %3 : tensor<1x3x1xi64>, tensor<1x3x1xi64>, tensor<1x3x1xf32>, tensor<1x3x1xf32>
}

// -----

// A float sum starts from +0.0, so the sum (and mean) of one -0.0 is +0.0
// (NumPy and PyTorch agree): it is not the operand, and does not fold.
// (reduce_mean is float-only, so it never folds to its operand.)
// test/Execution/signed-zero.mlir runs it.
// CHECK-LABEL: func.func @float_sum_keeps_sign
// CHECK: trace.reduce_sum %{{.*}} {axes = array<i64>} : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK: trace.reduce_mean %{{.*}} {axes = array<i64: 0>, keepdims} : tensor<1x3xf16> -> tensor<1x3xf16>
func.func @float_sum_keeps_sign(%x: tensor<2x3xf32>, %h: tensor<1x3xf16>) -> (tensor<2x3xf32>, tensor<1x3xf16>) {
  %0 = trace.reduce_sum %x {axes = array<i64>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = trace.reduce_mean %h {axes = array<i64: 0>, keepdims} : tensor<1x3xf16> -> tensor<1x3xf16>
  return %0, %1 : tensor<2x3xf32>, tensor<1x3xf16>
}

// -----

// A real reduction must stay, with or without keepdims.
// CHECK-LABEL: func.func @real_reductions_stay
// CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>
// CHECK: trace.reduce_mean %{{[a-z0-9_]+}} {axes = array<i64: 1>, keepdims} : tensor<2x3xf32> -> tensor<2x1xf32>
// CHECK: trace.reduce_max %{{[a-z0-9_]+}} {axes = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<f32>
// CHECK: trace.reduce_min %{{[a-z0-9_]+}} {axes = array<i64: 0>, keepdims} : tensor<2x3xf32> -> tensor<1x3xf32>
func.func @real_reductions_stay(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x1xf32>, tensor<f32>, tensor<1x3xf32>) {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>
  %1 = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<2x3xf32> -> tensor<2x1xf32>
  %2 = trace.reduce_max %x {axes = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<f32>
  %3 = trace.reduce_min %x {axes = array<i64: 0>, keepdims} : tensor<2x3xf32> -> tensor<1x3xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2x1xf32>, tensor<f32>, tensor<1x3xf32>
}

// -----

// Dropping a size-1 dim changes the type: not an identity.
// CHECK-LABEL: func.func @size_one_dropped_stays
// CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0>} : tensor<1x3xf32> -> tensor<3xf32>
func.func @size_one_dropped_stays(%x: tensor<1x3xf32>) -> tensor<3xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<1x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A dynamic dim may be larger than 1: reducing it with keepdims stays.
// CHECK-LABEL: func.func @dynamic_keepdims_stays
// CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0>, keepdims} : tensor<?x3xf32> -> tensor<1x3xf32>
func.func @dynamic_keepdims_stays(%x: tensor<?x3xf32>) -> tensor<1x3xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 0>, keepdims} : tensor<?x3xf32> -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// The product of one element is that element (1 * x, -0.0 included).
// CHECK-LABEL: func.func @prod_identity
// CHECK-SAME: (%[[X:.*]]: tensor<3x1xf32>)
// CHECK-NOT: trace.reduce_prod
// CHECK: return %[[X]], %[[X]] :
func.func @prod_identity(%x: tensor<3x1xf32>) -> (tensor<3x1xf32>, tensor<3x1xf32>) {
  %0 = trace.reduce_prod %x {axes = array<i64>} : tensor<3x1xf32> -> tensor<3x1xf32>
  %1 = trace.reduce_prod %x {axes = array<i64: 1>, keepdims} : tensor<3x1xf32> -> tensor<3x1xf32>
  return %0, %1 : tensor<3x1xf32>, tensor<3x1xf32>
}
