// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// unconnected = none is TensorFlow's UnconnectedGradients.NONE: the gradient
// of an argument the results do not depend on is None. The op's results
// standing for such gradients must be unused; trace-autodiff then rewrites
// the op like any other (the zeros the backward function returns there are
// dead). A use is reported at the use (autodiff-unconnected-none-used.mlir).

func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
// CHECK-LABEL: func.func @grad_unused
// CHECK: call @__forward_f
// CHECK: %[[B:.*]]:2 = call @__backward_f
// CHECK: return %[[B]]#0
func.func @grad_unused(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %g:2 = trace.grad @f(%x, %y) {wrt = array<i64: 0, 1>, unconnected = #trace.unconnected<none>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %g#0 : tensor<3xf32>
}
// CHECK-LABEL: func.func @value_and_grad_unused
// CHECK: call @__backward_f
func.func @value_and_grad_unused(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %v, %g:2 = trace.value_and_grad @f(%x, %y) {wrt = array<i64: 0, 1>, unconnected = #trace.unconnected<none>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>)
  return %v, %g#0 : tensor<f32>, tensor<3xf32>
}

// -----

func.func @id(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// Every argument connected: none changes nothing.
// CHECK-LABEL: func.func @vjp_connected
// CHECK: %[[B:.*]] = call @__backward_id
// CHECK: return %[[B]]
func.func @vjp_connected(%x: tensor<3xf32>, %y: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  %r, %g = trace.vjp @id(%x, %y) cotangents(%c) {wrt = array<i64: 0>, unconnected = #trace.unconnected<none>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %g : tensor<3xf32>
}
// CHECK-LABEL: func.func @vjp_unused
// CHECK: call @__backward_id
func.func @vjp_unused(%x: tensor<3xf32>, %y: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  %r, %g:2 = trace.vjp @id(%x, %y) cotangents(%c) {wrt = array<i64: 0, 1>, unconnected = #trace.unconnected<none>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %g#0 : tensor<3xf32>
}
