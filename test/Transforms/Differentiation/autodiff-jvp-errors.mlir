// RUN: tracec-opt %s --trace-autodiff -split-input-file -verify-diagnostics

// What forward mode reports, at the op that cannot be differentiated.

// An op with no DifferentiableOpInterface at all.
func.func @ext(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = arith.constant dense<1.0> : tensor<3xf32>
  // expected-error @below {{'arith.addf' op has no tangent rule: forward-mode differentiation (trace.jvp) cannot go through it}}
  %y = arith.addf %x, %c : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{'trace.jvp' op cannot differentiate @ext in forward mode}}
  %y, %t = trace.jvp @ext(%x) tangents(%x) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %t : tensor<3xf32>
}

// -----

// A custom gradient defines reverse mode only (as JAX's custom_vjp).
// expected-error @below {{cannot differentiate @custom in forward mode: it has a custom gradient (trace.custom_vjp), which defines its reverse mode only}}
func.func @custom(%x: tensor<3xf32>) -> tensor<3xf32> attributes {trace.custom_vjp = {fwd = @custom_fwd, bwd = @custom_bwd}} {
  return %x : tensor<3xf32>
}
func.func @custom_fwd(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @custom_bwd(%dy: tensor<3xf32>) -> tensor<3xf32> {
  return %dy : tensor<3xf32>
}
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{'trace.jvp' op cannot differentiate @custom in forward mode}}
  %y, %t = trace.jvp @custom(%x) tangents(%x) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %t : tensor<3xf32>
}

// -----

// expected-error @below {{cannot differentiate @rec in forward mode: it calls itself (recursive functions are not supported)}}
func.func @rec(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{'func.call' op cannot differentiate the call of @rec in forward mode}}
  %y = func.call @rec(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{'trace.jvp' op cannot differentiate @rec in forward mode}}
  %y, %t = trace.jvp @rec(%x) tangents(%x) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %t : tensor<3xf32>
}
