// RUN: tracec-opt %s --trace-autodiff -split-input-file -verify-diagnostics

// unconnected = none: a use of a result that stands for the gradient of an
// argument the results do not depend on (None) is an error at the use.

func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grad_used(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  // expected-note @below {{the gradient op whose result 1 it is}}
  %g:2 = trace.grad @f(%x, %y) {wrt = array<i64: 0, 1>, unconnected = #trace.unconnected<none>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  // expected-error @below {{gradient of argument 1 is none (unconnected = none) but is used here}}
  %s = trace.add %g#0, %g#1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// A stop_gradient disconnects; value_and_grad's gradient results come after
// the value.
func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %z = trace.stop_gradient %y : tensor<3xf32>
  %p = trace.mul %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @value_and_grad_used(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  // expected-note @below {{the gradient op whose result 2 it is}}
  %v, %g:2 = trace.value_and_grad @f(%x, %y) {wrt = array<i64: 0, 1>, unconnected = #trace.unconnected<none>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>)
  // expected-error @below {{gradient of argument 1 is none (unconnected = none) but is used here}}
  return %g#1 : tensor<3xf32>
}

// -----

func.func @id(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @vjp_used(%x: tensor<3xf32>, %y: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  // expected-note @below {{the gradient op whose result 1 it is}}
  %r, %g = trace.vjp @id(%x, %y) cotangents(%c) {wrt = array<i64: 1>, unconnected = #trace.unconnected<none>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  // expected-error @below {{gradient of argument 1 is none (unconnected = none) but is used here}}
  return %g : tensor<3xf32>
}
