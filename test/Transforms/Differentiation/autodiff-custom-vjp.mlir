// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// trace.custom_vjp: the pass calls the user's forward and backward
// functions instead of sweeping the body of @log1pexp (whose automatic
// gradient exp(x) / (1 + exp(x)) overflows at large x). Plain calls run
// @log1pexp itself (its __inference_ clone).

func.func @log1pexp(%x: tensor<3xf32>) -> tensor<3xf32>
    attributes {trace.custom_vjp = {fwd = @log1pexp_fwd, bwd = @log1pexp_bwd}} {
  %e = trace.exp %x : tensor<3xf32>
  %l = trace.log1p %e : tensor<3xf32>
  return %l : tensor<3xf32>
}
func.func private @log1pexp_fwd(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %e = trace.exp %x : tensor<3xf32>
  %l = trace.log1p %e : tensor<3xf32>
  return %l, %x : tensor<3xf32>, tensor<3xf32>
}
func.func private @log1pexp_bwd(%x: tensor<3xf32>, %dy: tensor<3xf32>) -> tensor<3xf32> {
  %s = trace.sigmoid %x : tensor<3xf32>
  %g = trace.mul %dy, %s : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}
func.func @vjp(%x: tensor<3xf32>, %dy: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %gx = trace.vjp @log1pexp(%x) cotangents(%dy) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %plain = func.call @log1pexp(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y, %gx, %plain : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// No generated forward/backward function: the custom ones are used.
// CHECK-NOT: @__forward_log1pexp
// CHECK-NOT: @__backward_log1pexp
// CHECK-LABEL: func.func @vjp(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[DY:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK:      %[[F:[a-z0-9_]+]]:2 = call @log1pexp_fwd(%[[X]])
// CHECK-NEXT: %[[G:[a-z0-9_]+]] = call @log1pexp_bwd(%[[F]]#1, %[[DY]])
// CHECK-NEXT: %[[P:[a-z0-9_]+]] = call @__inference_log1pexp(%[[X]])
// CHECK-NEXT: return %[[F]]#0, %[[G]], %[[P]]

// -----

// wrt selects among bwd's cotangents (one per float argument; the i64
// argument has none): a wrapper returns the selected one.

func.func @scale(%x: tensor<2xf32>, %n: tensor<i64>, %w: tensor<2xf32>) -> tensor<2xf32>
    attributes {trace.custom_vjp = {fwd = @scale_fwd, bwd = @scale_bwd}} {
  %y = trace.mul %x, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func private @scale_fwd(%x: tensor<2xf32>, %n: tensor<i64>, %w: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %y = trace.mul %x, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y, %x, %w : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
func.func private @scale_bwd(%x: tensor<2xf32>, %w: tensor<2xf32>, %dy: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %dx = trace.mul %dy, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %dw = trace.mul %dy, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %dx, %dw : tensor<2xf32>, tensor<2xf32>
}
func.func @dw(%x: tensor<2xf32>, %n: tensor<i64>, %w: tensor<2xf32>, %dy: tensor<2xf32>) -> tensor<2xf32> {
  %y, %gw = trace.vjp @scale(%x, %n, %w) cotangents(%dy) {wrt = array<i64: 2>} : (tensor<2xf32>, tensor<i64>, tensor<2xf32>), (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %gw : tensor<2xf32>
}

// CHECK-LABEL: func.func private @__backward_scale_wrt_2(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<2xf32>, %[[B:[a-z0-9_]+]]: tensor<2xf32>, %[[C:[a-z0-9_]+]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[ALL:[a-z0-9_]+]]:2 = call @scale_bwd(%[[A]], %[[B]], %[[C]])
// CHECK-NEXT: return %[[ALL]]#1
// CHECK-LABEL: func.func @dw(
// CHECK:      %[[F:[a-z0-9_]+]]:3 = call @scale_fwd(
// CHECK-NEXT: call @__backward_scale_wrt_2(%[[F]]#1, %[[F]]#2,

// -----

// Through calls and inside a loop: the call's rule differentiates the
// callee, which for @clip is its custom functions (an identity whose
// backward clips the cotangent to [-1, 1]). The forward loop tapes the
// carried values and calls @clip; the backward loop replays the body from
// the tape, calling @clip_fwd, then @clip_bwd for the cotangent.

func.func @clip(%x: tensor<3xf32>) -> tensor<3xf32>
    attributes {trace.custom_vjp = {fwd = @clip_fwd, bwd = @clip_bwd}} {
  return %x : tensor<3xf32>
}
func.func private @clip_fwd(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func private @clip_bwd(%dy: tensor<3xf32>) -> tensor<3xf32> {
  %lo = trace.constant dense<-1.0> : tensor<f32>
  %hi = trace.constant dense<1.0> : tensor<f32>
  %a = trace.max %dy, %lo : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %b = trace.min %a, %hi : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %b : tensor<3xf32>
}
func.func @loop(%x: tensor<3xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<3xf32>) {
    %sq = trace.mul %acc, %acc : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %c = func.call @clip(%sq) : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %c : tensor<3xf32>
  }
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dloop(%x: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @loop(%x) {wrt = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// CHECK-NOT: @__forward_clip
// CHECK-LABEL: func.func private @__backward_loop(
// CHECK:      scf.for
// CHECK:        %[[SQ:[a-z0-9_]+]] = trace.mul
// CHECK-NEXT:   func.call @clip_fwd(%[[SQ]])
// CHECK-NEXT:   %[[DSQ:[a-z0-9_]+]] = func.call @clip_bwd(
// CHECK-NEXT:   trace.mul %[[DSQ]],

// -----

// Grad of grad: the gradient of @df (which calls @cube_fwd and @cube_bwd
// once its trace.grad is rewritten) sweeps the bodies of @cube_fwd and
// @cube_bwd as ordinary code.

func.func @cube(%x: tensor<f32>) -> tensor<f32>
    attributes {trace.custom_vjp = {fwd = @cube_fwd, bwd = @cube_bwd}} {
  %x2 = trace.mul %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %x3 = trace.mul %x2, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %x3 : tensor<f32>
}
func.func private @cube_fwd(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %x2 = trace.mul %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %x3 = trace.mul %x2, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %x3, %x : tensor<f32>, tensor<f32>
}
func.func private @cube_bwd(%x: tensor<f32>, %dy: tensor<f32>) -> tensor<f32> {
  %three = trace.constant dense<3.0> : tensor<f32>
  %x2 = trace.mul %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %d = trace.mul %three, %x2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %g = trace.mul %dy, %d : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}
func.func @df(%x: tensor<f32>) -> tensor<f32> {
  %g = trace.grad @cube(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}
func.func @ddf(%x: tensor<f32>) -> tensor<f32> {
  %g = trace.grad @df(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// CHECK-LABEL: func.func @df(
// CHECK:      %[[F:[a-z0-9_]+]]:2 = call @cube_fwd(
// CHECK:      call @cube_bwd(%[[F]]#1,
// CHECK-LABEL: func.func private @__forward_df(
// CHECK:      call @__forward_cube_fwd(
// CHECK:      call @__forward_cube_bwd(
// CHECK-LABEL: func.func private @__backward_df(
// CHECK:      call @__backward_cube_bwd(
// CHECK:      call @__backward_cube_fwd(
// CHECK-LABEL: func.func @ddf(
// CHECK:      call @__forward_df(
// CHECK:      call @__backward_df(
