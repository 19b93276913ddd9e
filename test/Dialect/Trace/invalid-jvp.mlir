// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// Every error jvp reports.

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %n: tensor<3xi32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op wrt must name at least one argument}}
  %y, %ty = trace.jvp @f(%x, %n) tangents() {wrt = array<i64>} : (tensor<3xf32>, tensor<3xi32>), () -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %n: tensor<3xi32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op wrt index 2 is out of range: 2 arguments are given}}
  %y, %ty = trace.jvp @f(%x, %n) tangents(%t) {wrt = array<i64: 2>} : (tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %n: tensor<3xi32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op wrt index 0 is repeated}}
  %y, %ty = trace.jvp @f(%x, %n) tangents(%t, %t) {wrt = array<i64: 0, 0>} : (tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %n: tensor<3xi32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op cannot differentiate with respect to argument 1 of type 'tensor<3xi32>': only floating-point tensors have tangents}}
  %y, %ty = trace.jvp @f(%x, %n) tangents(%t) {wrt = array<i64: 1>} : (tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @read(%v: !trace.resource<tensor<3xf32>>) -> tensor<3xf32> {
  %r, %c = trace.var.read %v : !trace.resource<tensor<3xf32>>
  return %r : tensor<3xf32>
}
func.func @g(%v: !trace.resource<tensor<3xf32>>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op cannot differentiate with respect to argument 0 of type '!trace.resource<tensor<3xf32>>': forward mode takes no tangents of variables (pass the value read from the variable instead)}}
  %y, %ty = trace.jvp @read(%v) tangents(%t) {wrt = array<i64: 0>} : (!trace.resource<tensor<3xf32>>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %n: tensor<3xi32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op needs one tangent per wrt argument: 1 wrt arguments, 2 tangents}}
  %y, %ty = trace.jvp @f(%x, %n) tangents(%t, %t) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %n: tensor<3xi32>, %t: tensor<3xf64>) {
  // expected-error @below {{'trace.jvp' op tangent 0 must have the type of argument 0 ('tensor<3xf32>'), got 'tensor<3xf64>'}}
  %y, %ty = trace.jvp @f(%x, %n) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xi32>), (tensor<3xf64>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @g(%x: tensor<3xf32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op callee @nope does not name a func.func in this module}}
  %y, %ty = trace.jvp @nope(%x) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func private @decl(%x: tensor<3xf32>) -> tensor<3xf32>
func.func @g(%x: tensor<3xf32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op callee @decl is a declaration: there is no body to differentiate}}
  %y, %ty = trace.jvp @decl(%x) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op callee @f takes 2 arguments but 1 are given}}
  %y, %ty = trace.jvp @f(%x) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>, %n: tensor<3xi32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op must return the results of @f, then one tangent per floating-point tensor result: expected ('tensor<3xf32>', 'tensor<3xf32>'), got ('tensor<3xf32>')}}
  %y = trace.jvp @f(%x, %n) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>) -> (tensor<3xf32>)
  return
}

// -----

func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %n = trace.cast %x : tensor<3xf32> to tensor<3xi32>
  return %x, %n : tensor<3xf32>, tensor<3xi32>
}
func.func @g(%x: tensor<3xf32>, %t: tensor<3xf32>) {
  // expected-error @below {{'trace.jvp' op must return the results of @f, then one tangent per floating-point tensor result: expected ('tensor<3xf32>', 'tensor<3xi32>', 'tensor<3xf32>'), got ('tensor<3xf32>', 'tensor<3xi32>', 'tensor<3xf32>', 'tensor<3xi32>')}}
  %r:4 = trace.jvp @f(%x) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xi32>)
  return
}

// -----

func.func @g(%x: tensor<3xf32>, %t: tensor<3xf32>) {
  // expected-error @below {{expected 'tangents'}}
  %y, %ty = trace.jvp @f(%x) cotangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}
