// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// trace-autodiff rewrites vmap and gradient ops innermost first. vmap of
// grad: the gradient op is rewritten first, then the batched function
// calls the batched forward and backward functions, the weight unbatched
// in the forward function (no copy per example) and each example's weight
// gradient an outer product in the backward one.

func.func private @loss(%w: tensor<3x2xf32>, %x: tensor<1x3xf32>) -> tensor<f32> {
  %y = trace.matmul %x, %w : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 0, 1>} : tensor<1x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @per_example(%w: tensor<3x2xf32>, %x: tensor<1x3xf32>) -> tensor<3x2xf32> {
  %g = trace.grad @loss(%w, %x) {wrt = array<i64: 0>} : (tensor<3x2xf32>, tensor<1x3xf32>) -> tensor<3x2xf32>
  return %g : tensor<3x2xf32>
}

// CHECK-LABEL: func.func private @__vmap___forward_loss_wrt_0_ub_4(
// CHECK-SAME: %{{.*}}: tensor<3x2xf32>, %{{.*}}: tensor<4x1x3xf32>)
// CHECK: trace.matmul %{{.*}}, %{{.*}} : (tensor<4x1x3xf32>, tensor<3x2xf32>) -> tensor<4x1x2xf32>
// (The cotangent of the sum is the same for every example: unbatched.)
// CHECK-LABEL: func.func private @__vmap___backward_loss_wrt_0_bu_4(
// CHECK: trace.matmul {{.*}} {transpose_a} : (tensor<4x1x3xf32>, tensor<1x2xf32>) -> tensor<4x3x2xf32>
// CHECK-LABEL: func.func private @__vmap_per_example_ub_4(
// CHECK-NOT: trace.broadcast_to
// CHECK: call @__vmap___forward_loss_wrt_0_ub_4(
// CHECK: call @__vmap___backward_loss_wrt_0_bu_4(
// CHECK-LABEL: func.func @grads(
// CHECK: call @__vmap_per_example_ub_4(
func.func @grads(%w: tensor<3x2xf32>, %xs: tensor<4x1x3xf32>) -> tensor<4x3x2xf32> {
  %g = trace.vmap @per_example(%w, %xs) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>} : (tensor<3x2xf32>, tensor<4x1x3xf32>) -> tensor<4x3x2xf32>
  return %g : tensor<4x3x2xf32>
}

// -----

// grad of vmap: the vmap is rewritten first; the gradient op then
// differentiates the function that calls the batched one.

func.func private @f(%x: tensor<3xf32>) -> tensor<f32> {
  %e = trace.exp %x : tensor<3xf32>
  %s = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @total(%xs: tensor<4x3xf32>) -> tensor<f32> {
  %v = trace.vmap @f(%xs) {in_axes = array<i64: 0>, out_axes = array<i64: 0>} : (tensor<4x3xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %v {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func private @__vmap_f_b_4(
// CHECK: trace.reduce_sum {{.*}} {axes = array<i64: 1>} : tensor<4x3xf32> -> tensor<4xf32>
// CHECK-LABEL: func.func @dtotal(
// CHECK-NOT: trace.vmap
// CHECK-NOT: trace.grad
// CHECK: call @__forward_total(
// CHECK: call @__backward_total(
func.func @dtotal(%xs: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %g = trace.grad @total(%xs) {wrt = array<i64: 0>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}

// -----

// Per-example gradients through a loop: the loop's forward function tapes
// into tensors of dynamic length, which get the batch dim in front; the
// backward loop stays one loop over the iterations, reading every
// example's slice of the tapes at once (no loop over the examples).

func.func @loss(%w: tensor<3x3xf64>, %x: tensor<4x3xf64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %h0 = trace.constant dense<0.0> : tensor<3xf64>
  %y = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %h0) -> (tensor<3xf64>) {
    %r = trace.reshape %h : tensor<3xf64> -> tensor<3x1xf64>
    %m = trace.matmul %w, %r : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
    %m2 = trace.reshape %m : tensor<3x1xf64> -> tensor<3xf64>
    %xi = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<4x3xf64> to tensor<3xf64>
    %a = trace.add %m2, %xi : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %t = trace.tanh %a : tensor<3xf64>
    scf.yield %t : tensor<3xf64>
  }
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

func.func private @g(%w: tensor<3x3xf64>, %x: tensor<4x3xf64>) -> tensor<3x3xf64> {
  %g = trace.grad @loss(%w, %x) {wrt = array<i64: 0>} : (tensor<3x3xf64>, tensor<4x3xf64>) -> tensor<3x3xf64>
  return %g : tensor<3x3xf64>
}

func.func @per_example(%w: tensor<3x3xf64>, %xs: tensor<5x4x3xf64>) -> tensor<5x3x3xf64> {
  %g = trace.vmap @g(%w, %xs) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>} : (tensor<3x3xf64>, tensor<5x4x3xf64>) -> tensor<5x3x3xf64>
  return %g : tensor<5x3x3xf64>
}

// CHECK-LABEL: func.func private @__vmap___forward_loss_wrt_0_ub_5
// CHECK-SAME:    -> (tensor<5xf64>, index, tensor<5x?x3xf64>, tensor<5x?x3x1xf64>, tensor<5x4x3xf64>, tensor<3x3xf64>)
// The tapes are allocated for the batch (not broadcast: nothing is in them).
// CHECK:         tensor.empty(%{{.*}}) : tensor<5x?x3xf64>
// CHECK:         scf.for {{.*}} -> (tensor<5x3xf64>, tensor<5x?x3xf64>, tensor<5x?x3x1xf64>)
// CHECK:           tensor.insert_slice {{.*}} : tensor<5x3xf64> into tensor<5x?x3xf64>
// CHECK:           tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [5, 1, 3] [1, 1, 1] : tensor<5x4x3xf64> to tensor<5x3xf64>
// CHECK-LABEL: func.func private @__vmap___backward_loss_wrt_0_ubbbuu_5
// CHECK:         scf.for {{.*}} -> (tensor<5x3xf64>, tensor<5x3x3xf64>)
// CHECK:           tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [5, 1, 3] [1, 1, 1] : tensor<5x?x3xf64> to tensor<5x3xf64>
// CHECK:           trace.matmul {{.*}} : (tensor<3x3xf64>, tensor<5x3x1xf64>) -> tensor<5x3x1xf64>
// CHECK-NOT:     scf.for
// CHECK-LABEL: func.func @per_example
