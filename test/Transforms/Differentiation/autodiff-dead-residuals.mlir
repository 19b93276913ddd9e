// RUN: tracec-opt %s --trace-autodiff | FileCheck %s
//
// Regression test: residuals come from the live backward code only. The
// binary rules (mul, div, matmul) also build cotangents for operands that
// are not active (constants, arguments outside wrt); AdjointState::accumulate
// drops them, and the ops computing them must not make their operands
// residuals. Once they did: for d/dy sum(x * y) the forward saved y as well
// as x although d/dy needs only x, and for d/dw of (x @ w) / c it saved w
// (read by d x = dm @ w^T) and the result (read by d c = -(d / c) * result).

func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %p = trace.mul %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func private @__forward_f_wrt_1(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
// CHECK: return %{{[a-z0-9_]+}}, %[[X]] : tensor<f32>, tensor<3xf32>
func.func @df(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @f(%x, %y) {wrt = array<i64: 1>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

func.func @scaled(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<f32> {
  %m = trace.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %s = trace.reduce_sum %m {axes = array<i64: 0, 1>} : tensor<2x2xf32> -> tensor<f32>
  %c = trace.constant dense<4.0> : tensor<f32>
  %d = trace.div %s, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}

// d/dw reads x only: not w (read by d x = dm @ w^T) nor the result (read by
// d c).
// CHECK-LABEL: func.func private @__forward_scaled_wrt_1(
// CHECK-SAME: %[[SX:[a-z0-9_]+]]: tensor<2x3xf32>, %{{[a-z0-9_]+}}: tensor<3x2xf32>) -> (tensor<f32>, tensor<2x3xf32>)
// CHECK: return %{{[a-z0-9_]+}}, %[[SX]] : tensor<f32>, tensor<2x3xf32>
func.func @dscaled(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %g = trace.grad @scaled(%x, %w) {wrt = array<i64: 1>} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %g : tensor<3x2xf32>
}
