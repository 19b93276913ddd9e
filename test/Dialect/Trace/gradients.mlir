// RUN: tracec-opt %s | tracec-opt | FileCheck %s
// RUN: tracec-opt %s --mlir-print-op-generic | tracec-opt | FileCheck %s

// Round-trips of grad, value_and_grad and vjp: symbol references, `wrt`,
// `unconnected` (default zero, not printed) and variables in `wrt`.

func.func @loss(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> tensor<f32> {
  %y = trace.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func @grad
// CHECK-SAME: (%[[W:[a-z0-9_]+]]: tensor<4x3xf32>, %[[X:[a-z0-9_]+]]: tensor<2x4xf32>)
func.func @grad(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // CHECK: %[[G:[a-z0-9_]+]] = trace.grad @loss(%[[W]], %[[X]]) {wrt = array<i64: 0>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  // CHECK: return %[[G]]
  %g = trace.grad @loss(%w, %x) {wrt = array<i64: 0>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}

// Several wrt indices, in any order: one result per index, in that order.
// CHECK-LABEL: func.func @grad_several
func.func @grad_several(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x3xf32>) {
  // CHECK: %{{[a-z0-9_]+}}:2 = trace.grad @loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 1, 0>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x3xf32>)
  %g:2 = trace.grad @loss(%w, %x) {wrt = array<i64: 1, 0>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x3xf32>)
  return %g#0, %g#1 : tensor<2x4xf32>, tensor<4x3xf32>
}

// The `unconnected` modes; zero is the default and is not printed. (none
// parses, and the verifier rejects it: see invalid-gradients.mlir.)
// CHECK-LABEL: func.func @unconnected
func.func @unconnected(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  // CHECK: trace.grad @loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {unconnected = #trace.unconnected<error>, wrt = array<i64: 0>}
  %a = trace.grad @loss(%w, %x) {wrt = array<i64: 0>, unconnected = #trace.unconnected<error>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: trace.grad @loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 0>} :
  %b = trace.grad @loss(%w, %x) {wrt = array<i64: 0>, unconnected = #trace.unconnected<zero>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %a, %b : tensor<4x3xf32>, tensor<4x3xf32>
}

// The callee may come after the op.
// CHECK-LABEL: func.func @value_and_grad
func.func @value_and_grad(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<f64>) {
  // CHECK: %[[V:[a-z0-9_]+]], %[[G:[a-z0-9_]+]] = trace.value_and_grad @loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 0>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> (tensor<f32>, tensor<4x3xf32>)
  %v, %g = trace.value_and_grad @loss(%w, %x) {wrt = array<i64: 0>} : (tensor<4x3xf32>, tensor<2x4xf32>) -> (tensor<f32>, tensor<4x3xf32>)
  // CHECK: trace.value_and_grad @later(%{{[a-z0-9_]+}}) {unconnected = #trace.unconnected<error>, wrt = array<i64: 0>} : (tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)
  %z = trace.constant dense<1.0> : tensor<3xf64>
  %lv, %lg = trace.value_and_grad @later(%z) {wrt = array<i64: 0>, unconnected = #trace.unconnected<error>} : (tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)
  return %v, %g, %lv : tensor<f32>, tensor<4x3xf32>, tensor<f64>
}

func.func @later(%x: tensor<3xf64>) -> tensor<f64> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = trace.tanh %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @vjp
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[DY:[a-z0-9_]+]]: tensor<3xf32>)
func.func @vjp(%x: tensor<3xf32>, %dy: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[R:[a-z0-9_]+]]:2 = trace.vjp @f(%[[X]]) cotangents(%[[DY]]) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  // CHECK: return %[[R]]#0, %[[R]]#1
  %y, %gx = trace.vjp @f(%x) cotangents(%dy) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %y, %gx : tensor<3xf32>, tensor<3xf32>
}

func.func @two(%a: tensor<2xf32>, %b: tensor<f32>) -> (tensor<2xf32>, tensor<f32>) {
  %y = trace.mul %a, %b : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %y, %b : tensor<2xf32>, tensor<f32>
}

// Several results, so several cotangents; gradients follow the results.
// CHECK-LABEL: func.func @vjp_several
func.func @vjp_several(%a: tensor<2xf32>, %b: tensor<f32>) -> tensor<f32> {
  // CHECK: %{{[a-z0-9_]+}}:4 = trace.vjp @two(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) cotangents(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {unconnected = #trace.unconnected<error>, wrt = array<i64: 1, 0>} : (tensor<2xf32>, tensor<f32>), (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<f32>, tensor<f32>, tensor<2xf32>)
  %r:4 = trace.vjp @two(%a, %b) cotangents(%a, %b) {wrt = array<i64: 1, 0>, unconnected = #trace.unconnected<error>} : (tensor<2xf32>, tensor<f32>), (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<f32>, tensor<f32>, tensor<2xf32>)
  return %r#2 : tensor<f32>
}

func.func @no_results(%x: tensor<3xf32>) {
  return
}

// A callee without results: no cotangents, the type list is `()`.
// CHECK-LABEL: func.func @vjp_no_results
func.func @vjp_no_results(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: %[[G:[a-z0-9_]+]] = trace.vjp @no_results(%{{[a-z0-9_]+}}) cotangents() {wrt = array<i64: 0>} : (tensor<3xf32>), () -> (tensor<3xf32>)
  %g = trace.vjp @no_results(%x) cotangents() {wrt = array<i64: 0>} : (tensor<3xf32>), () -> (tensor<3xf32>)
  return %g : tensor<3xf32>
}

func.func @read_loss(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<f32> {
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %p = trace.mul %r, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// With respect to a variable: the gradient has the type of its value.
// CHECK-LABEL: func.func @resources
func.func @resources(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: trace.grad @read_loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 0, 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %g:2 = trace.grad @read_loss(%v, %x) {wrt = array<i64: 0, 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  // CHECK: trace.value_and_grad @read_loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  %l, %h = trace.value_and_grad @read_loss(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  // CHECK: trace.vjp @read_loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) cotangents(%{{[a-z0-9_]+}}) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  %y, %k = trace.vjp @read_loss(%v, %x) cotangents(%l) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return %g#0, %k : tensor<4xf32>, tensor<4xf32>
}

func.func @mixed(%x: tensor<3xbf16>, %n: tensor<3xi32>, %h: tensor<f16>) -> tensor<bf16> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<3xbf16> -> tensor<bf16>
  return %s : tensor<bf16>
}

// Integer arguments are fine as long as they are not in `wrt`; other float
// types have gradients too.
// CHECK-LABEL: func.func @non_wrt_integer
func.func @non_wrt_integer(%x: tensor<3xbf16>, %n: tensor<3xi32>, %h: tensor<f16>) -> (tensor<3xbf16>, tensor<f16>) {
  // CHECK: trace.grad @mixed(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 0, 2>} : (tensor<3xbf16>, tensor<3xi32>, tensor<f16>) -> (tensor<3xbf16>, tensor<f16>)
  %g:2 = trace.grad @mixed(%x, %n, %h) {wrt = array<i64: 0, 2>} : (tensor<3xbf16>, tensor<3xi32>, tensor<f16>) -> (tensor<3xbf16>, tensor<f16>)
  return %g#0, %g#1 : tensor<3xbf16>, tensor<f16>
}

// Ordered (as trace-auto-control-deps leaves them when the callee touches
// state): `after` tokens, and a token after the other results.
// CHECK-LABEL: func.func @ordered
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @ordered(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[C:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[G:[a-z0-9_]+]]:2 = trace.grad @read_loss(%[[V]], %[[X]]) after(%[[C]]) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<4xf32>, !trace.control)
  // (value_and_grad names its results: the token is the last of `grads`.)
  // CHECK-NEXT: %[[L:[a-z0-9_]+]], %[[LG:[a-z0-9_]+]]:2 = trace.value_and_grad @read_loss(%[[V]], %[[X]]) after(%[[C]], %[[G]]#1) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>, !trace.control)
  // CHECK-NEXT: %{{[a-z0-9_]+}}:3 = trace.vjp @read_loss(%[[V]], %[[X]]) cotangents(%[[L]]) after(%[[LG]]#1) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>, !trace.control)
  // CHECK-NEXT: %{{[a-z0-9_]+}} = trace.grad @read_loss(%[[V]], %[[X]]) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %g, %t = trace.grad @read_loss(%v, %x) after(%c) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<4xf32>, !trace.control)
  %l, %h, %u = trace.value_and_grad @read_loss(%v, %x) after(%c, %t) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>, !trace.control)
  %y, %k, %w = trace.vjp @read_loss(%v, %x) cotangents(%l) after(%u) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>, !trace.control)
  %n = trace.grad @read_loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}
