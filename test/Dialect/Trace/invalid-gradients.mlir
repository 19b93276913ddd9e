// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// Every error grad, value_and_grad and vjp report.

// grad of a symbol that does not exist
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @nope does not name a func.func in this module}}
  %g = trace.grad @nope(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// grad of a symbol that is not a func.func
memref.global "private" @notfunc : memref<4xf32>
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @notfunc does not name a func.func in this module}}
  %g = trace.grad @notfunc(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// grad of a declaration
func.func private @decl(%w: tensor<4xf32>) -> tensor<f32>
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @decl is a declaration: there is no body to differentiate}}
  %g = trace.grad @decl(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// too few arguments
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @loss takes 2 arguments but 1 are given}}
  %g = trace.grad @loss(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// too many arguments
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @loss takes 2 arguments but 3 are given}}
  %g = trace.grad @loss(%w, %n, %w) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// argument type differs from the callee's
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op argument 1 has type 'tensor<4xf32>' but @loss expects 'tensor<4xi32>'}}
  %g = trace.grad @loss(%w, %w) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// empty wrt
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op wrt must name at least one argument}}
  trace.grad @loss(%w, %n) {wrt = array<i64>} : (tensor<4xf32>, tensor<4xi32>) -> ()
  return
}

// -----

// wrt past the last argument
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op wrt index 2 is out of range: the callee is given 2 arguments}}
  // expected-error @below {{'trace.grad' op failed to infer returned types}}
  %g = trace.grad @loss(%w, %n) {wrt = array<i64: 2>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// negative wrt
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op wrt index -1 is out of range: the callee is given 2 arguments}}
  // expected-error @below {{'trace.grad' op failed to infer returned types}}
  %g = trace.grad @loss(%w, %n) {wrt = array<i64: -1>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// repeated wrt
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op wrt index 0 is repeated}}
  %g:2 = trace.grad @loss(%w, %n) {wrt = array<i64: 0, 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// wrt an integer argument
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op cannot differentiate with respect to argument 1 of type 'tensor<4xi32>': only floating-point tensors (or variables holding them) have gradients}}
  // expected-error @below {{'trace.grad' op failed to infer returned types}}
  %g = trace.grad @loss(%w, %n) {wrt = array<i64: 1>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

// wrt an integer argument, with a float result type
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op cannot differentiate with respect to argument 1 of type 'tensor<4xi32>': only floating-point tensors (or variables holding them) have gradients}}
  // expected-error @below {{'trace.grad' op failed to infer returned types}}
  %g = trace.grad @loss(%w, %n) {wrt = array<i64: 1>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// wrt a variable holding integers
func.func @read_loss(%v: !trace.resource<tensor<4xi32>>, %w: tensor<4xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%v: !trace.resource<tensor<4xi32>>, %w: tensor<4xf32>) {
  // expected-error @below {{'trace.grad' op cannot differentiate with respect to argument 0 of type '!trace.resource<tensor<4xi32>>': only floating-point tensors (or variables holding them) have gradients}}
  // expected-error @below {{'trace.grad' op failed to infer returned types}}
  %g = trace.grad @read_loss(%v, %w) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xi32>>, tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

// wrong gradient type
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{'trace.grad' op failed to infer returned types}}
  %g = trace.grad @loss(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<3xf32>
  return
}

// -----

// a gradient for a variable has the type of its value, not the resource type
func.func @read_loss(%v: !trace.resource<tensor<4xi32>>, %w: tensor<4xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%v: !trace.resource<tensor<4xi32>>, %w: tensor<4xf32>) {
  // expected-error @below {{'trace.grad' op result #0 must be variadic of ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values or a control token: the explicit 'must run after' edge, but got '!trace.resource<tensor<4xf32>>'}}
  %g = trace.grad @read_loss(%v, %w) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xi32>>, tensor<4xf32>) -> !trace.resource<tensor<4xf32>>
  return
}

// -----

// callee returns a non-scalar
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @vec must return one scalar float tensor to be differentiated without cotangents, but returns ('tensor<4xf32>'); use trace.vjp to give cotangents for other results}}
  %g = trace.grad @vec(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// callee returns several results
func.func @two(%w: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s, %s : tensor<f32>, tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @two must return one scalar float tensor to be differentiated without cotangents, but returns ('tensor<f32>', 'tensor<f32>'); use trace.vjp to give cotangents for other results}}
  %g = trace.grad @two(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// callee returns nothing
func.func @none(%w: tensor<4xf32>) {
  return
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @none must return one scalar float tensor to be differentiated without cotangents, but returns (); use trace.vjp to give cotangents for other results}}
  %g = trace.grad @none(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// callee returns an integer scalar
func.func @int_loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<i32> {
  %s = trace.reduce_sum %n {axes = array<i64: 0>} : tensor<4xi32> -> tensor<i32>
  return %s : tensor<i32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op callee @int_loss must return one scalar float tensor to be differentiated without cotangents, but returns ('tensor<i32>'); use trace.vjp to give cotangents for other results}}
  %g = trace.grad @int_loss(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// unconnected must be a #trace.unconnected
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{op attribute 'unconnected' failed to satisfy constraint: gradient of an argument the result does not depend on}}
  %g = trace.grad @loss(%w, %n) {wrt = array<i64: 0>, unconnected = 1 : i32} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// unknown unconnected mode
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{expected ::mlir::trace::Unconnected to be one of: error, zero, none}}
  // expected-error @below {{failed to parse Trace_UnconnectedAttr parameter 'value' which is to be a `::mlir::trace::Unconnected`}}
  %g = trace.grad @loss(%w, %n) {wrt = array<i64: 0>, unconnected = #trace.unconnected<never>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// wrt is required
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.grad' op requires attribute 'wrt'}}
  %g = "trace.grad"(%w, %n) <{callee = @loss, operandSegmentSizes = array<i32: 2, 0>}> : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// value_and_grad: wrong value type
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op value result has type 'tensor<f64>' but @loss returns 'tensor<f32>'}}
  %v, %g = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f64>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: integer value type
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<i32>'}}
  %v, %g = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<i32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: wrong gradient type
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op gradient results must have the types of the wrt arguments ('tensor<4xf32>'), got ('tensor<3xf32>')}}
  %v, %g = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f32>, tensor<3xf32>)
  return
}

// -----

// value_and_grad: missing gradient
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op gradient results must have the types of the wrt arguments ('tensor<4xf32>'), got ()}}
  %v = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f32>)
  return
}

// -----

// value_and_grad: one gradient too many
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op gradient results must have the types of the wrt arguments ('tensor<4xf32>'), got ('tensor<4xf32>', 'tensor<4xf32>')}}
  %v, %g:2 = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: wrt out of range
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op wrt index 5 is out of range: @loss has 2 arguments}}
  %v, %g = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 5>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: repeated wrt
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op wrt index 0 is repeated}}
  %v, %g:2 = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 0, 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: empty wrt
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op wrt must name at least one argument}}
  %v = trace.value_and_grad @loss(%w, %n) {wrt = array<i64>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f32>)
  return
}

// -----

// value_and_grad: wrt an integer argument
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op cannot differentiate with respect to argument 1 of type 'tensor<4xi32>': only floating-point tensors (or variables holding them) have gradients}}
  %v, %g = trace.value_and_grad @loss(%w, %n) {wrt = array<i64: 1>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f32>, tensor<4xi32>)
  return
}

// -----

// value_and_grad: callee returns a non-scalar
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op callee @vec must return one scalar float tensor to be differentiated without cotangents, but returns ('tensor<4xf32>'); use trace.vjp to give cotangents for other results}}
  %v, %g = trace.value_and_grad @vec(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: callee returns several results
func.func @two(%w: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s, %s : tensor<f32>, tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op callee @two must return one scalar float tensor to be differentiated without cotangents, but returns ('tensor<f32>', 'tensor<f32>'); use trace.vjp to give cotangents for other results}}
  %v, %g = trace.value_and_grad @two(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: unknown callee
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op callee @nope does not name a func.func in this module}}
  %v, %g = trace.value_and_grad @nope(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: argument count
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op callee @loss takes 2 arguments but 1 are given}}
  %v, %g = trace.value_and_grad @loss(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: argument type
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op argument 1 has type 'tensor<i32>' but @loss expects 'tensor<4xi32>'}}
  %v, %g = trace.value_and_grad @loss(%w, %c) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<i32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// value_and_grad: declaration
func.func private @decl(%w: tensor<4xf32>) -> tensor<f32>
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.value_and_grad' op callee @decl is a declaration: there is no body to differentiate}}
  %v, %g = trace.value_and_grad @decl(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// vjp: missing cotangent
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op needs one cotangent per result of @vec, of the result's type: expected ('tensor<4xf32>'), got ()}}
  %y, %g = trace.vjp @vec(%w) cotangents() {wrt = array<i64: 0>} : (tensor<4xf32>), () -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: one cotangent too many
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op needs one cotangent per result of @vec, of the result's type: expected ('tensor<4xf32>'), got ('tensor<4xf32>', 'tensor<4xf32>')}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w, %w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: wrong cotangent type
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op needs one cotangent per result of @vec, of the result's type: expected ('tensor<4xf32>'), got ('tensor<f32>')}}
  %y, %g = trace.vjp @vec(%w) cotangents(%s) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: integer cotangent
func.func @int_result(%w: tensor<4xf32>) -> tensor<i32> {
  %c = trace.constant dense<1> : tensor<i32>
  return %c : tensor<i32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op operand #1 must be variadic of ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<i32>'}}
  %y, %g = trace.vjp @int_result(%w) cotangents(%c) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<i32>) -> (tensor<i32>, tensor<4xf32>)
  return
}

// -----

// vjp: callee with an integer result
func.func @int_result(%w: tensor<4xf32>) -> tensor<i32> {
  %c = trace.constant dense<1> : tensor<i32>
  return %c : tensor<i32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op result 0 of @int_result has type 'tensor<i32>', but only floating-point tensor results have cotangents}}
  %y, %g = trace.vjp @int_result(%w) cotangents(%s) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<f32>) -> (tensor<i32>, tensor<4xf32>)
  return
}

// -----

// vjp: wrong type for the callee's result
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op must first return the results of @vec ('tensor<4xf32>'), got ('tensor<3xf32>', 'tensor<4xf32>')}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<3xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: no results at all
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op must first return the results of @vec ('tensor<4xf32>'), got ()}}
  trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>) -> ()
  return
}

// -----

// vjp: wrong gradient type
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op gradient results must have the types of the wrt arguments ('tensor<4xf32>'), got ('tensor<3xf32>')}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<3xf32>)
  return
}

// -----

// vjp: missing gradient
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op gradient results must have the types of the wrt arguments ('tensor<4xf32>'), got ()}}
  %y = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>)
  return
}

// -----

// vjp: one gradient too many
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op gradient results must have the types of the wrt arguments ('tensor<4xf32>'), got ('tensor<4xf32>', 'tensor<4xf32>')}}
  %y, %g:2 = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: wrt out of range
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op wrt index 3 is out of range: @vec has 1 arguments}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 3>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: repeated wrt
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op wrt index 0 is repeated}}
  %y, %g:2 = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0, 0>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: empty wrt
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op wrt must name at least one argument}}
  %y = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>)
  return
}

// -----

// vjp: wrt an integer argument
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op cannot differentiate with respect to argument 1 of type 'tensor<4xi32>': only floating-point tensors (or variables holding them) have gradients}}
  %y, %g = trace.vjp @loss(%w, %n) cotangents(%s) {wrt = array<i64: 1>} : (tensor<4xf32>, tensor<4xi32>), (tensor<f32>) -> (tensor<f32>, tensor<4xi32>)
  return
}

// -----

// vjp: unknown callee
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op callee @nope does not name a func.func in this module}}
  %y, %g = trace.vjp @nope(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: argument count
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op callee @loss takes 2 arguments but 1 are given}}
  %y, %g = trace.vjp @loss(%w) cotangents(%s) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// vjp: argument type
func.func @loss(%w: tensor<4xf32>, %n: tensor<4xi32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op argument 1 has type 'tensor<4xf32>' but @loss expects 'tensor<4xi32>'}}
  %y, %g = trace.vjp @loss(%w, %w) cotangents(%s) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// vjp: declaration
func.func private @decl(%w: tensor<4xf32>) -> tensor<f32>
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.vjp' op callee @decl is a declaration: there is no body to differentiate}}
  %y, %g = trace.vjp @decl(%w) cotangents(%s) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

// vjp: operand and type counts differ
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>, %n: tensor<4xi32>, %s: tensor<f32>, %c: tensor<i32>) {
  // expected-error @below {{custom op 'trace.vjp' number of operands and types do not match: got 1 operands and 2 types}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: the attributes are checked while parsing.
func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>) {
  // expected-error @below {{custom op 'trace.vjp' attribute 'unconnected' failed to satisfy constraint: gradient of an argument the result does not depend on}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w) {wrt = array<i64: 0>, unconnected = 1 : i32} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>) {
  // expected-error @below {{custom op 'trace.vjp' attribute 'wrt' failed to satisfy constraint: i64 dense array attribute}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w) {wrt = [0]} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @vec(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f(%w: tensor<4xf32>) {
  // expected-error @below {{'trace.vjp' op requires attribute 'wrt'}}
  %y, %g = trace.vjp @vec(%w) cotangents(%w) : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: the callee is a symbol reference, not a string.
func.func @f(%w: tensor<4xf32>) {
  // expected-error @below {{custom op 'trace.vjp' invalid kind of attribute specified}}
  %y, %g = trace.vjp "vec"(%w) cotangents(%w) {wrt = array<i64: 0>} : (tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// vjp: the result types are in parentheses, even a single one.
func.func @f(%w: tensor<4xf32>) {
  // expected-error @below {{expected '('}}
  %g = trace.vjp @vec(%w) cotangents() {wrt = array<i64: 0>} : (tensor<4xf32>), () -> tensor<4xf32>
  return
}
