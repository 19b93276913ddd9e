// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// trace.jvp becomes one call of __jvp_f(args..., tangents of wrt...) ->
// (results..., result tangents...), generated in one sweep: each op cloned,
// then its tangent rule; tangent code that no result needs is erased.

func.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %p = trace.mul %x, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %y = trace.tanh %p : tensor<3xf32>
  // Depends on x, but no result needs it: its tangent code is erased.
  %unused = trace.exp %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// Primal mul and tanh, then the tangents: d(x w) = tx * w; d tanh(p) =
// dp * (1 - y^2) (tanh's reverse rule applied to the tangent). exp's
// tangent is gone; exp's primal too (nothing reads it).
// CHECK-LABEL: func.func private @__jvp_f_wrt_0(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[W:[a-z0-9_]+]]: tensor<3xf32>, %[[T:[a-z0-9_]+]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-DAG: %[[P:[a-z0-9_]+]] = trace.mul %[[X]], %[[W]]
// CHECK-DAG: %[[Y:[a-z0-9_]+]] = trace.tanh %[[P]]
// CHECK-DAG: %[[TP:[a-z0-9_]+]] = trace.mul %[[T]], %[[W]]
// CHECK-DAG: %[[YY:[a-z0-9_]+]] = trace.mul %[[Y]], %[[Y]]
// CHECK-DAG: %[[D:[a-z0-9_]+]] = trace.sub %{{.*}}, %[[YY]]
// CHECK-DAG: %[[TY:[a-z0-9_]+]] = trace.mul %[[TP]], %[[D]]
// CHECK-NOT: trace.exp
// CHECK: return %[[Y]], %[[TY]]

// CHECK-LABEL: func.func @jvp_f(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[W:[a-z0-9_]+]]: tensor<3xf32>, %[[T:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK: %[[R:[a-z0-9_]+]]:2 = call @__jvp_f_wrt_0(%[[X]], %[[W]], %[[T]]) : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @jvp_f(%x: tensor<3xf32>, %w: tensor<3xf32>, %tx: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %y, %ty = trace.jvp @f(%x, %w) tangents(%tx) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %y, %ty : tensor<3xf32>, tensor<3xf32>
}

// A second request with the same wrt reuses the function.
// CHECK-LABEL: func.func @jvp_again(
// CHECK: call @__jvp_f_wrt_0(
// CHECK-NOT: __jvp_f_wrt_0_1
func.func @jvp_again(%x: tensor<3xf32>, %w: tensor<3xf32>, %tx: tensor<3xf32>) -> tensor<3xf32> {
  %y, %ty = trace.jvp @f(%x, %w) tangents(%tx) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %ty : tensor<3xf32>
}

// -----

// Bilinear: both operands' tangents, summed (the product rule). An integer
// result gets no tangent.
func.func @g(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2xi64>) {
  %y = trace.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %i = trace.argmax %y {axis = 1 : i64} : tensor<2x4xf32> -> tensor<2xi64>
  return %y, %i : tensor<2x4xf32>, tensor<2xi64>
}
func.func @jvp_g(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %r:3 = trace.jvp @g(%a, %b) tangents(%a, %b) {wrt = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<3x4xf32>), (tensor<2x3xf32>, tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2xi64>, tensor<2x4xf32>)
  return %r#2 : tensor<2x4xf32>
}
// Every float argument: no suffix.
// CHECK-LABEL: func.func private @__jvp_g(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<2x3xf32>, %[[B:[a-z0-9_]+]]: tensor<3x4xf32>, %[[TA:[a-z0-9_]+]]: tensor<2x3xf32>, %[[TB:[a-z0-9_]+]]: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2xi64>, tensor<2x4xf32>)
// CHECK-DAG: %[[Y:[a-z0-9_]+]] = trace.matmul %[[A]], %[[B]]
// CHECK-DAG: %[[I:[a-z0-9_]+]] = trace.argmax %[[Y]]
// CHECK-DAG: %[[L:[a-z0-9_]+]] = trace.matmul %[[TA]], %[[B]]
// CHECK-DAG: %[[R:[a-z0-9_]+]] = trace.matmul %[[A]], %[[TB]]
// CHECK-DAG: %[[S:[a-z0-9_]+]] = trace.add %[[L]], %[[R]]
// CHECK: return %[[Y]], %[[I]], %[[S]]

// -----

// Calls: the callee's __jvp, with respect to the operands that have
// tangents, generated once for both calls.
func.func private @layer(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %m = trace.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.sin %m : tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @two_layers(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %a = func.call @layer(%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @layer(%a, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @jvp_calls(%x: tensor<4xf32>, %w: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %y, %ty = trace.jvp @two_layers(%x, %w) tangents(%t) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %ty : tensor<4xf32>
}
// CHECK-LABEL: func.func private @__jvp_layer_wrt_0(
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-LABEL: func.func private @__jvp_two_layers_wrt_0(
// CHECK: %[[A:[a-z0-9_]+]]:2 = call @__jvp_layer_wrt_0(
// CHECK: %[[B:[a-z0-9_]+]]:2 = call @__jvp_layer_wrt_0(%[[A]]#0, %{{[a-z0-9_]+}}, %[[A]]#1)
// CHECK-NOT: call @layer
// CHECK: return %[[B]]#0, %[[B]]#1

// -----

// scf.for carries the primal and the tangent together (no tape); the step
// counter carries none.
func.func @loop(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %k = trace.constant dense<0.0> : tensor<f32>
  %y, %n = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x, %m = %k) -> (tensor<3xf32>, tensor<f32>) {
    %s = trace.sin %h : tensor<3xf32>
    %one = trace.constant dense<1.0> : tensor<f32>
    %m1 = trace.add %m, %one : (tensor<f32>, tensor<f32>) -> tensor<f32>
    scf.yield %s, %m1 : tensor<3xf32>, tensor<f32>
  }
  return %y : tensor<3xf32>
}
func.func @jvp_loop(%x: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<3xf32> {
  %y, %ty = trace.jvp @loop(%x) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %ty : tensor<3xf32>
}
// CHECK-LABEL: func.func private @__jvp_loop(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[T:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK: %[[L:[a-z0-9_]+]]:3 = scf.for %{{.*}} iter_args(%[[H:[a-z0-9_]+]] = %[[X]], %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[TH:[a-z0-9_]+]] = %[[T]]) -> (tensor<3xf32>, tensor<f32>, tensor<3xf32>)
// CHECK-DAG: %[[S:[a-z0-9_]+]] = trace.sin %[[H]]
// CHECK-DAG: %[[C:[a-z0-9_]+]] = trace.cos %[[H]]
// CHECK-DAG: %[[TS:[a-z0-9_]+]] = trace.mul %[[TH]], %[[C]]
// CHECK: scf.yield %[[S]], %{{[a-z0-9_]+}}, %[[TS]]
// CHECK: return %[[L]]#0, %[[L]]#2

// -----

// Forward-over-reverse: the jvp of a gradient (a Hessian-vector product).
// The grad op is rewritten first; __jvp_df then calls the __jvp of the
// forward and backward functions.
func.func @loss(%w: tensor<3xf32>) -> tensor<f32> {
  %e = trace.exp %w : tensor<3xf32>
  %s = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @df(%w: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @loss(%w) {wrt = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}
func.func @hvp(%w: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  %g, %hv = trace.jvp @df(%w) tangents(%v) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %hv : tensor<3xf32>
}
// CHECK-LABEL: func.func private @__jvp___forward_loss(
// CHECK-LABEL: func.func private @__jvp___backward_loss_wrt_0(
// CHECK-LABEL: func.func private @__jvp_df(
// CHECK: %[[F:[a-z0-9_]+]]:4 = call @__jvp___forward_loss(
// CHECK: call @__jvp___backward_loss_wrt_0(%[[F]]#1, %{{[a-z0-9_]+}}, %[[F]]#3)
// CHECK-LABEL: func.func @hvp(
// CHECK: call @__jvp_df(

// -----

// Reverse-over-forward: the gradient of a function holding a jvp.
func.func @h(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = trace.sin %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @directional(%x: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<f32> {
  %y, %t = trace.jvp @h(%x) tangents(%v) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %s = trace.reduce_sum %t {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grad_directional(%x: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @directional(%x, %v) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}
// CHECK-LABEL: func.func private @__forward_directional_wrt_0(
// CHECK: call @__forward___jvp_h(
// CHECK-LABEL: func.func private @__backward_directional_wrt_0(
// CHECK: call @__backward___jvp_h(

// -----

// Sources: a random tensor shaped `like` a value with a tangent has a zero
// tangent (it runs once, as a clone); a float cast carries the tangent at
// the result's precision.
func.func @noisy(%x: tensor<?x3xf64>) -> tensor<?x3xf32> {
  %u, %c = trace.random_uniform like %x {seed = 7 : i64} : tensor<?x3xf64> -> tensor<?x3xf64>
  %p = trace.mul %x, %u : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  %y = trace.cast %p : tensor<?x3xf64> to tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
func.func @jvp_noisy(%x: tensor<?x3xf64>, %t: tensor<?x3xf64>) -> tensor<?x3xf32> {
  %y, %ty = trace.jvp @noisy(%x) tangents(%t) {wrt = array<i64: 0>} : (tensor<?x3xf64>), (tensor<?x3xf64>) -> (tensor<?x3xf32>, tensor<?x3xf32>)
  return %ty : tensor<?x3xf32>
}
// CHECK-LABEL: func.func private @__jvp_noisy(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x3xf64>, %[[T:[a-z0-9_]+]]: tensor<?x3xf64>)
// CHECK: %[[U:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.random_uniform like %[[X]]
// CHECK-NOT: trace.random_uniform
// CHECK-DAG: %[[P:[a-z0-9_]+]] = trace.mul %[[X]], %[[U]]
// CHECK-DAG: %[[TP:[a-z0-9_]+]] = trace.mul %[[T]], %[[U]]
// CHECK-DAG: %[[Y:[a-z0-9_]+]] = trace.cast %[[P]] : tensor<?x3xf64> to tensor<?x3xf32>
// CHECK-DAG: %[[TY:[a-z0-9_]+]] = trace.cast %[[TP]] : tensor<?x3xf64> to tensor<?x3xf32>
// CHECK: return %[[Y]], %[[TY]]

// -----

// A callee result that no tangent reaches comes back from its __jvp as a
// zero constant; the caller keeps it a symbolic zero (no tangent), so the
// product rule below has one term, not a second one times zero.
func.func private @inner(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %m = trace.mul %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %m, %y : tensor<3xf32>, tensor<3xf32>
}
func.func @outer(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %a:2 = func.call @inner(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %p = trace.mul %a#0, %a#1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %p : tensor<3xf32>
}
func.func @jvp_outer(%x: tensor<3xf32>, %y: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<3xf32> {
  %r, %tr = trace.jvp @outer(%x, %y) tangents(%t) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %tr : tensor<3xf32>
}

// CHECK-LABEL: func.func private @__jvp_inner_wrt_0(
// CHECK: %[[Z:[a-z0-9_]+]] = trace.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %[[Z]]
// CHECK-LABEL: func.func private @__jvp_outer_wrt_0(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[Y:[a-z0-9_]+]]: tensor<3xf32>, %[[T:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK: %[[C:[a-z0-9_]+]]:4 = call @__jvp_inner_wrt_0(%[[X]], %[[Y]], %[[T]])
// CHECK: %[[P:[a-z0-9_]+]] = trace.mul %[[C]]#0, %[[C]]#1
// CHECK: %[[TP:[a-z0-9_]+]] = trace.mul %[[C]]#2, %[[C]]#1
// CHECK-NOT: trace.add
// CHECK: return %[[P]], %[[TP]]
