// RUN: tracec-opt %s -split-input-file -verify-diagnostics

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @sizes(%a: tensor<8x3xf32>, %b: tensor<3x4xf32>) -> tensor<8x3xf32> {
  // expected-error @below {{'trace.vmap' op mapped dims differ in size: argument 1 has 4 along dim 1, an earlier argument 8}}
  %r = trace.vmap @f(%a, %b) {in_axes = array<i64: 0, 1>, out_axes = array<i64: 0>} : (tensor<8x3xf32>, tensor<3x4xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @unmapped(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{'trace.vmap' op maps no argument: at least one in_axes entry must name a dim}}
  %r = trace.vmap @f(%a) {in_axes = array<i64: -1>, out_axes = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @axis(%a: tensor<8x3xf32>) -> tensor<8x3xf32> {
  // expected-error @below {{'trace.vmap' op in_axes[0] = 2 is not a dim of argument 0 of type 'tensor<8x3xf32>' (-1: not mapped)}}
  %r = trace.vmap @f(%a) {in_axes = array<i64: 2>, out_axes = array<i64: 0>} : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @example(%a: tensor<8x4xf32>) -> tensor<8x3xf32> {
  // expected-error @below {{'trace.vmap' op argument 0 of type 'tensor<8x4xf32>' mapped along dim 0 gives examples of type 'tensor<4xf32>', but @f takes 'tensor<3xf32>'}}
  %r = trace.vmap @f(%a) {in_axes = array<i64: 0>, out_axes = array<i64: 0>} : (tensor<8x4xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @result(%a: tensor<8x3xf32>) -> tensor<3x8xf32> {
  // expected-error @below {{'trace.vmap' op result 0 must be @f's result 'tensor<3xf32>' with the batch dim at 0: 'tensor<8x3xf32>', not 'tensor<3x8xf32>'}}
  %r = trace.vmap @f(%a) {in_axes = array<i64: 0>, out_axes = array<i64: 0>} : (tensor<8x3xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// -----

// Only tensors are mapped; an index (a loop bound a closure captures) is
// passed to every example.

func.func private @f(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

func.func @caller(%xs: tensor<8x3xf32>, %n: index) -> tensor<8x3xf32> {
  // expected-error @below {{'trace.vmap' op maps argument 1 of type 'index': only tensors can be mapped (in_axes -1)}}
  %r = trace.vmap @f(%xs, %n) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>} : (tensor<8x3xf32>, index) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

func.func private @f(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

func.func @caller(%xs: tensor<8x3xf32>, %n: i32) -> tensor<8x3xf32> {
  // expected-error @below {{'trace.vmap' op argument 1 of type 'i32' is passed to @f, which takes 'index'}}
  %r = trace.vmap @f(%xs, %n) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>} : (tensor<8x3xf32>, i32) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
