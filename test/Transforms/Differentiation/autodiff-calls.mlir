// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// grad, value_and_grad and vjp become a call of __forward_f and a call of
// __backward_f; grad and value_and_grad seed the scalar result's cotangent
// with 1.0, vjp passes its cotangents. The wrt list names the functions:
// no suffix when it is every float argument, `_wrt_<i>...` otherwise.
// Plain calls of a differentiated function go to __inference_f.

func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %p = trace.mul %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// The original stays public; __inference_f is its private clone.
// CHECK-LABEL: func.func @f(
// CHECK-LABEL: func.func private @__inference_f(
// CHECK-SAME: -> tensor<f32>
// CHECK-NEXT: trace.mul
// CHECK-NEXT: trace.reduce_sum
// CHECK-NEXT: return

// wrt = [1] of two float arguments: suffixed. d/dy (x * y) reads x.
// CHECK-LABEL: func.func private @__forward_f_wrt_1(
// CHECK-SAME: %[[X1:[a-z0-9_]+]]: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<3xf32>) -> (tensor<f32>,
// CHECK:      return %{{.*}}%[[X1]]
// CHECK-LABEL: func.func private @__backward_f_wrt_1(
// CHECK-SAME: -> tensor<3xf32>

// wrt = [0, 1]: every float argument, no suffix; two gradients.
// CHECK-LABEL: func.func private @__forward_f(
// CHECK-SAME: (tensor<f32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-LABEL: func.func private @__backward_f(
// CHECK-SAME: %{{[a-z0-9_]+}}: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)

func.func @g(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = trace.tanh %x : tensor<3xf32>
  return %t : tensor<3xf32>
}

// vjp of a vector function: tanh' = 1 - y^2 reads the result, saved once as
// a residual after being returned as the result.
// CHECK-LABEL: func.func @g(
// CHECK-LABEL: func.func private @__inference_g(
// CHECK-LABEL: func.func private @__forward_g(
// CHECK-SAME: -> (tensor<3xf32>, tensor<3xf32>)
// CHECK:      %[[T:[a-z0-9_]+]] = trace.tanh
// CHECK-NEXT: return %[[T]], %[[T]] :
// CHECK-LABEL: func.func private @__backward_g(
// CHECK-SAME: %[[RT:[a-z0-9_]+]]: tensor<3xf32>, %[[DT:[a-z0-9_]+]]: tensor<3xf32>) -> tensor<3xf32>

// CHECK-LABEL: func.func @use_grad(
// CHECK-SAME: %[[A0:[a-z0-9_]+]]: tensor<3xf32>, %[[A1:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK:      %[[F:[a-z0-9_]+]]:3 = call @__forward_f(%[[A0]], %[[A1]])
// CHECK-NEXT: %[[ONE:[a-z0-9_]+]] = trace.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[B:[a-z0-9_]+]]:2 = call @__backward_f(%[[F]]#1, %[[F]]#2, %[[ONE]])
// CHECK-NEXT: return %[[B]]#0, %[[B]]#1
func.func @use_grad(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %gx, %gy = trace.grad @f(%x, %y) {wrt = array<i64: 0, 1>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %gx, %gy : tensor<3xf32>, tensor<3xf32>
}

// value_and_grad: the value is the forward function's first result.
// CHECK-LABEL: func.func @use_value_and_grad(
// Only x is saved: d/dy of x * y reads x alone.
// CHECK:      %[[F:[a-z0-9_]+]]:2 = call @__forward_f_wrt_1(
// CHECK-NEXT: %[[ONE:[a-z0-9_]+]] = trace.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[B:[a-z0-9_]+]] = call @__backward_f_wrt_1(%[[F]]#1, %[[ONE]])
// CHECK-NEXT: return %[[F]]#0, %[[B]]
func.func @use_value_and_grad(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %v, %gy = trace.value_and_grad @f(%x, %y) {wrt = array<i64: 1>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
  return %v, %gy : tensor<f32>, tensor<3xf32>
}

// vjp: the given cotangent is passed after the residuals; no seed constant.
// CHECK-LABEL: func.func @use_vjp(
// CHECK-SAME: %[[VX:[a-z0-9_]+]]: tensor<3xf32>, %[[VDY:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK-NEXT: %[[F:[a-z0-9_]+]]:2 = call @__forward_g(%[[VX]])
// CHECK-NEXT: %[[B:[a-z0-9_]+]] = call @__backward_g(%[[F]]#1, %[[VDY]])
// CHECK-NEXT: return %[[F]]#0, %[[B]]
func.func @use_vjp(%x: tensor<3xf32>, %dy: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %y, %gx = trace.vjp @g(%x) cotangents(%dy) {wrt = array<i64: 0>} : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %y, %gx : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @plain(
// CHECK-NEXT: call @__inference_f(
// CHECK-NEXT: call @__inference_g(
// CHECK-NOT: trace.grad
// CHECK-NOT: trace.value_and_grad
// CHECK-NOT: trace.vjp
func.func @plain(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %s = func.call @f(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  %t = func.call @g(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %s, %t : tensor<f32>, tensor<3xf32>
}

// -----

// A function that is only called (not differentiated) keeps its plain calls.
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT: call @helper(
// CHECK-NOT: __inference
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %e = trace.exp %x : tensor<2xf32>
  return %e : tensor<2xf32>
}
func.func @untouched(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = func.call @helper(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// func.call inside the differentiated function: the forward function calls
// the callee's forward function (keeping its residuals), the backward
// function calls the callee's backward function, in reverse order. @sq has
// two call sites but is differentiated once.

func.func private @sq(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = trace.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func private @sq(
// CHECK-LABEL: func.func private @__forward_sq(
// CHECK-SAME: %[[SX:[a-z0-9_]+]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK:      return %{{[a-z0-9_]+}}, %[[SX]] :
// CHECK-LABEL: func.func private @__backward_sq(
// CHECK-SAME: %[[RSX:[a-z0-9_]+]]: tensor<3xf32>, %[[DSQ:[a-z0-9_]+]]: tensor<3xf32>) -> tensor<3xf32>
// x * x: both operands' cotangents, summed (fan-in).
// CHECK:      %[[P0:[a-z0-9_]+]] = trace.mul %[[DSQ]], %[[RSX]]
// CHECK-NEXT: %[[P1:[a-z0-9_]+]] = trace.mul %[[DSQ]], %[[RSX]]
// CHECK-NEXT: %[[SUM:[a-z0-9_]+]] = trace.add %[[P0]], %[[P1]]
// CHECK-NEXT: return %[[SUM]]
// CHECK-NOT: @__forward_sq_1
// CHECK-NOT: @__backward_sq_1

// CHECK-LABEL: func.func private @__forward_two_calls(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK:      %[[C1:[a-z0-9_]+]]:2 = call @__forward_sq(%[[X]])
// CHECK-NEXT: %[[E:[a-z0-9_]+]] = trace.exp %[[C1]]#0
// CHECK-NEXT: %[[C2:[a-z0-9_]+]]:2 = call @__forward_sq(%[[E]])
// CHECK-NEXT: %[[S:[a-z0-9_]+]] = trace.reduce_sum %[[C2]]#0
// The callees' residuals are passed on; exp' = exp reads the exp result.
// CHECK-NEXT: return %[[S]], %[[C2]]#1, %[[E]], %[[C1]]#1 :

// CHECK-LABEL: func.func private @__backward_two_calls(
// CHECK-SAME: %[[R2:[a-z0-9_]+]]: tensor<3xf32>, %[[RE:[a-z0-9_]+]]: tensor<3xf32>, %[[R1:[a-z0-9_]+]]: tensor<3xf32>, %[[DS:[a-z0-9_]+]]: tensor<f32>) -> tensor<3xf32>
// CHECK:      %[[DB:[a-z0-9_]+]] = trace.broadcast_to
// CHECK-NEXT: %[[DE:[a-z0-9_]+]] = call @__backward_sq(%[[R2]], %[[DB]])
// CHECK-NEXT: %[[DA:[a-z0-9_]+]] = trace.mul %[[DE]], %[[RE]]
// CHECK-NEXT: %[[DX:[a-z0-9_]+]] = call @__backward_sq(%[[R1]], %[[DA]])
// CHECK-NEXT: return %[[DX]]
func.func @two_calls(%x: tensor<3xf32>) -> tensor<f32> {
  %a = func.call @sq(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %e = trace.exp %a : tensor<3xf32>
  %b = func.call @sq(%e) : (tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %b {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func @dtwo(
// CHECK:      call @__forward_two_calls(
// CHECK:      call @__backward_two_calls(
func.func @dtwo(%x: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @two_calls(%x) {wrt = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// -----

// grad of grad: @ddf's gradient op reaches @df, which holds a gradient op
// itself; @df's op is rewritten first, so @df is plain calls of
// __forward_f/__backward_f when @ddf's op differentiates it, and
// __forward_df calls the forward functions of those generated functions.

func.func @f(%x: tensor<f32>) -> tensor<f32> {
  %t = trace.tanh %x : tensor<f32>
  return %t : tensor<f32>
}
func.func @df(%x: tensor<f32>) -> tensor<f32> {
  %g = trace.grad @f(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}
func.func @ddf(%x: tensor<f32>) -> tensor<f32> {
  %g = trace.grad @df(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// CHECK-LABEL: func.func private @__forward_f(
// CHECK-LABEL: func.func private @__forward___forward_f(
// CHECK-LABEL: func.func private @__backward___forward_f(
// CHECK-LABEL: func.func private @__backward_f(
// CHECK-LABEL: func.func private @__forward___backward_f(
// CHECK-LABEL: func.func private @__backward___backward_f(
// @df after the inner rewrite:
// CHECK-LABEL: func.func @df(
// CHECK-SAME: %[[DX:[a-z0-9_]+]]: tensor<f32>)
// CHECK-NEXT: %[[F:[a-z0-9_]+]]:2 = call @__forward_f(%[[DX]])
// CHECK-NEXT: %[[ONE:[a-z0-9_]+]] = trace.constant dense<1.000000e+00>
// CHECK-NEXT: %[[B:[a-z0-9_]+]] = call @__backward_f(%[[F]]#1, %[[ONE]])
// CHECK-NEXT: return %[[B]]
// CHECK-LABEL: func.func private @__inference_df(
// The outer forward function runs the inner generated functions' forwards.
// CHECK-LABEL: func.func private @__forward_df(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<f32>)
// CHECK-NEXT: %[[FF:[a-z0-9_]+]]:3 = call @__forward___forward_f(%[[X]])
// CHECK-NEXT: %[[SEED:[a-z0-9_]+]] = trace.constant dense<1.000000e+00>
// CHECK-NEXT: %[[FB:[a-z0-9_]+]]:4 = call @__forward___backward_f(%[[FF]]#1, %[[SEED]])
// CHECK-NEXT: return %[[FB]]#0,
// ... and the outer backward function their backwards, in reverse order.
// CHECK-LABEL: func.func private @__backward_df(
// CHECK:      %[[BB:[a-z0-9_]+]]:2 = call @__backward___backward_f(
// The unused first result of __forward_f gets a zero cotangent.
// CHECK-NEXT: %[[ZERO:[a-z0-9_]+]] = trace.constant dense<0.000000e+00>
// CHECK-NEXT: %[[BF:[a-z0-9_]+]] = call @__backward___forward_f(%{{[a-z0-9_]+}}, %[[ZERO]], %[[BB]]#0)
// CHECK-NEXT: return %[[BF]]
// CHECK-LABEL: func.func @ddf(
// CHECK-NEXT: call @__forward_df(
// CHECK-NEXT: trace.constant dense<1.000000e+00>
// CHECK-NEXT: call @__backward_df(
// CHECK-NOT: trace.grad

// -----

// An op without a gradient rule that no cotangent reaches is cloned into the
// forward function as it is (here an upstream arith op on tensors of the
// non-differentiated %c); its result is saved because d x = d p * sq reads it.
func.func @f(%x: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<f32> {
  %sq = arith.mulf %c, %c : tensor<3xf32>
  %p = trace.mul %x, %sq : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
// CHECK-LABEL: func.func private @__forward_f_wrt_0(
// CHECK-SAME: %{{[a-z0-9_]+}}: tensor<3xf32>, %[[C:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK:      %[[SQ:[a-z0-9_]+]] = arith.mulf %[[C]], %[[C]] : tensor<3xf32>
// CHECK:      return %{{[a-z0-9_]+}}, %[[SQ]] : tensor<f32>, tensor<3xf32>
// CHECK-LABEL: func.func private @__backward_f_wrt_0(
// CHECK-SAME: %[[RSQ:[a-z0-9_]+]]: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<f32>) -> tensor<3xf32>
// CHECK-NOT:  arith.mulf
// CHECK:      %[[DX:[a-z0-9_]+]] = trace.mul %{{[a-z0-9_]+}}, %[[RSQ]]
// CHECK:      return %[[DX]]
func.func @df(%x: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @f(%x, %c) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}
