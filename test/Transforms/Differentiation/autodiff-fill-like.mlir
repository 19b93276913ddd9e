// RUN: tracec-opt %s --trace-autodiff | FileCheck %s

// fill `like` a `?`-batch value: the scalar's cotangent is the sum of dy
// over every (run-time sized) dim; `like` only gives the shape and gets none.
// Numbers: test/Execution/dynamic-sources.test.
func.func @scaled(%x: tensor<?x4xf32>, %v: tensor<f32>) -> tensor<f32> {
  %f = trace.fill %v like %x : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %p = trace.mul %f, %x : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dscaled(%x: tensor<?x4xf32>, %v: tensor<f32>) -> (tensor<?x4xf32>, tensor<f32>) {
  %g:2 = trace.grad @scaled(%x, %v) {wrt = array<i64: 0, 1>} : (tensor<?x4xf32>, tensor<f32>) -> (tensor<?x4xf32>, tensor<f32>)
  return %g#0, %g#1 : tensor<?x4xf32>, tensor<f32>
}
// CHECK-LABEL: func.func private @__forward_scaled(
// CHECK: trace.fill %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK-LABEL: func.func private @__backward_scaled(
// CHECK: %[[DF:[a-z0-9_]+]] = trace.mul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[DX:[a-z0-9_]+]] = trace.mul
// CHECK: %[[S:[a-z0-9_]+]] = trace.reduce_sum %[[DF]] {axes = array<i64: 0, 1>, keepdims} : tensor<?x4xf32> -> tensor<1x1xf32>
// CHECK: %[[DV:[a-z0-9_]+]] = trace.reshape %[[S]] : tensor<1x1xf32> -> tensor<f32>
// CHECK: return %[[DX]], %[[DV]] : tensor<?x4xf32>, tensor<f32>
