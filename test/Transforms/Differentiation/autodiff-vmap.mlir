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
