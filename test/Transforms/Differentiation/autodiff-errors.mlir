// RUN: tracec-opt %s --trace-autodiff -split-input-file -verify-diagnostics

// What trace-autodiff reports. Verifier-level errors (a callee returning a
// non-scalar, wrt out of range, wrt an integer argument)
// are covered by test/Dialect/Trace/invalid-gradients.mlir.

// unconnected = error: an argument in wrt that the result does not depend on.
func.func @f(%x: tensor<3xf32>, %unused: tensor<3xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @df(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  // expected-error @below {{'trace.grad' op argument 1 of @f does not influence its results (unconnected = error)}}
  %g:2 = trace.grad @f(%x, %y) {wrt = array<i64: 0, 1>, unconnected = #trace.unconnected<error>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %g#0, %g#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Several unconnected arguments are all named; a stop_gradient disconnects.
func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<f32> {
  %sa = trace.stop_gradient %a : tensor<3xf32>
  %p = trace.mul %sa, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @df(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<f32> {
  // expected-error @below {{'trace.value_and_grad' op arguments 0, 2 of @f do not influence its results (unconnected = error)}}
  %v, %g:3 = trace.value_and_grad @f(%a, %b, %c) {wrt = array<i64: 0, 1, 2>, unconnected = #trace.unconnected<error>} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %v : tensor<f32>
}

// -----

// A variable read inside a region the backward pass would replay.
func.func @read_in_if(%v: !trace.resource<tensor<4xf32>>, %p: i1) -> tensor<f32> {
  // expected-error @below {{'scf.if' op cannot be differentiated: its body touches state (variables, print, random), and the backward pass would run the body again; move the stateful op out of the region}}
  %r = scf.if %p -> tensor<4xf32> {
    // expected-note @below {{stateful op here}}
    %x, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
    scf.yield %x : tensor<4xf32>
  } else {
    %z = trace.constant dense<0.0> : tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  }
  %s = trace.reduce_sum %r {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @df(%v: !trace.resource<tensor<4xf32>>, %p: i1) -> tensor<4xf32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @read_in_if}}
  %g = trace.grad @read_in_if(%v, %p) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, i1) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// scf.while: a body that touches state is reported, as for scf.for (the
// backward pass runs both regions again): a print in the condition region.
func.func @print_in_while(%x: tensor<f32>) -> tensor<f32> {
  %half = trace.constant dense<0.5> : tensor<f32>
  %one = trace.constant dense<1.0> : tensor<f32>
  // expected-error @below {{'scf.while' op cannot be differentiated: its body touches state (variables, print, random), and the backward pass would run the body again; move the stateful op out of the region}}
  %r = scf.while (%v = %x) : (tensor<f32>) -> tensor<f32> {
    // expected-note @below {{stateful op here}}
    %p = trace.print %v {message = "v:"} : tensor<f32>
    %big = trace.gt %v, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b = tensor.extract %big[] : tensor<i1>
    scf.condition(%b) %v : tensor<f32>
  } do {
  ^bb0(%v: tensor<f32>):
    %h = trace.mul %v, %half : (tensor<f32>, tensor<f32>) -> tensor<f32>
    scf.yield %h : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @dprint_in_while(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @print_in_while}}
  %g = trace.grad @print_in_while(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// scf.while: a variable read in the body region, through a called function.
func.func private @scaled(%v: !trace.resource<tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<f32>>
  %y = trace.mul %x, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @read_in_while(%x: tensor<f32>, %v: !trace.resource<tensor<f32>>) -> tensor<f32> {
  %one = trace.constant dense<1.0> : tensor<f32>
  // expected-error @below {{'scf.while' op cannot be differentiated: its body touches state}}
  %r = scf.while (%a = %x) : (tensor<f32>) -> tensor<f32> {
    %big = trace.gt %a, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b = tensor.extract %big[] : tensor<i1>
    scf.condition(%b) %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    // expected-note @below {{stateful op here}}
    %h = func.call @scaled(%v, %a) : (!trace.resource<tensor<f32>>, tensor<f32>) -> tensor<f32>
    scf.yield %h : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @dread_in_while(%x: tensor<f32>, %v: !trace.resource<tensor<f32>>) -> tensor<f32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @read_in_while}}
  %g = trace.grad @read_in_while(%x, %v) {wrt = array<i64: 0>} : (tensor<f32>, !trace.resource<tensor<f32>>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// A cotangent reaches an op with no gradient rule (an upstream arith op on
// tensors; the trace ops have rules).
func.func @f(%x: tensor<3xf32>) -> tensor<f32> {
  // expected-error @below {{cannot differentiate 'arith.mulf': it has no gradient rule}}
  %sq = arith.mulf %x, %x : tensor<3xf32>
  %s = trace.reduce_sum %sq {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @df(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @f}}
  %g = trace.grad @f(%x) {wrt = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// -----

// A recursive function has no static forward/backward split.
func.func @rec(%x: tensor<f32>, %deep: i1) -> tensor<f32> {
  // expected-error @above {{cannot differentiate @rec: it calls itself (recursive functions have no static forward/backward split)}}
  %r = scf.if %deep -> tensor<f32> {
    %f = arith.constant false
    %t = trace.tanh %x : tensor<f32>
    // expected-error @below {{'func.call' op cannot differentiate the call of @rec}}
    %y = func.call @rec(%t, %f) : (tensor<f32>, i1) -> tensor<f32>
    scf.yield %y : tensor<f32>
  } else {
    scf.yield %x : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @drec(%x: tensor<f32>, %deep: i1) -> tensor<f32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @rec}}
  %g = trace.grad @rec(%x, %deep) {wrt = array<i64: 0>} : (tensor<f32>, i1) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// A function that differentiates itself: its gradient op can never be
// rewritten first.
func.func @selfgrad(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'trace.grad' op cannot be rewritten: its callee reaches this op again (a cycle of gradient or vmap ops)}}
  %g = trace.grad @selfgrad(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// A call of a declaration inside the differentiated function.
func.func private @external(%x: tensor<f32>) -> tensor<f32>
// expected-error @above {{cannot differentiate @external: it is a declaration without a body}}
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'func.call' op cannot differentiate the call of @external}}
  %y = func.call @external(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @df(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @f}}
  %g = trace.grad @f(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// Unstructured control flow (several blocks).
func.func @blocks(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @above {{cannot differentiate @blocks: it has several blocks (express control flow with scf ops)}}
  cf.br ^next(%x : tensor<f32>)
^next(%y: tensor<f32>):
  return %y : tensor<f32>
}
func.func @df(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @blocks}}
  %g = trace.grad @blocks(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// The rules that still need a static size report a `?` there: conv2d's
// filter (conv2d_backprop_filter's static filter_shape). (gather's gradient
// needs none: autodiff-dynamic.mlir.)
func.func @conv(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x?xf32>) -> tensor<f32> {
  // expected-error @below {{cannot differentiate 'trace.conv2d' with respect to its filter: its shape 'tensor<3x3x2x?xf32>' is not static}}
  %c = trace.conv2d %x, %w : (tensor<1x5x5x2xf32>, tensor<3x3x2x?xf32>) -> tensor<1x3x3x?xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1, 2, 3>} : tensor<1x3x3x?xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dconv(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x?xf32>) -> tensor<3x3x2x?xf32> {
  // expected-error @below {{'trace.grad' op cannot differentiate @conv}}
  %g = trace.grad @conv(%x, %w) {wrt = array<i64: 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x2x?xf32>) -> tensor<3x3x2x?xf32>
  return %g : tensor<3x3x2x?xf32>
}
