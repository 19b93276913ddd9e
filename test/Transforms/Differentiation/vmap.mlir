// RUN: tracec-opt %s --trace-vmap -split-input-file | FileCheck %s

// trace.vmap becomes a call of __vmap_<f>_<b|u per argument>_<size>, its
// ops batched by their rules with the batch dim leading: elementwise ops
// broadcast (a batched operand of lower rank gets unit dims after the
// batch dim), matmul's batch dims broadcast, reductions shift their axes,
// and ops on unbatched values only are cloned as they are.

func.func private @f(%x: tensor<3xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %m = trace.reshape %x : tensor<3xf32> -> tensor<3x1xf32>
  %y = trace.matmul %w, %m : (tensor<4x3xf32>, tensor<3x1xf32>) -> tensor<4x1xf32>
  %r = trace.reshape %y : tensor<4x1xf32> -> tensor<4xf32>
  %bb = trace.exp %b : tensor<4xf32>
  %s = trace.add %r, %bb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = trace.reduce_sum %s {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s, %t : tensor<4xf32>, tensor<f32>
}

// CHECK-LABEL: func.func private @__vmap_f_buu_8(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<8x3xf32>, %[[W:[a-z0-9_]+]]: tensor<4x3xf32>, %[[B:[a-z0-9_]+]]: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<8xf32>)
// CHECK: %[[M:.*]] = trace.reshape %[[X]] : tensor<8x3xf32> -> tensor<8x3x1xf32>
// CHECK: %[[Y:.*]] = trace.matmul %[[W]], %[[M]] : (tensor<4x3xf32>, tensor<8x3x1xf32>) -> tensor<8x4x1xf32>
// CHECK: %[[R:.*]] = trace.reshape %[[Y]] : tensor<8x4x1xf32> -> tensor<8x4xf32>
// CHECK: %[[BB:.*]] = trace.exp %[[B]] : tensor<4xf32>
// CHECK: %[[S:.*]] = trace.add %[[R]], %[[BB]] : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
// CHECK: %[[T:.*]] = trace.reduce_sum %[[S]] {axes = array<i64: 1>} : tensor<8x4xf32> -> tensor<8xf32>
// CHECK: return %[[S]], %[[T]]

// in_axes 1 and out_axes 1: transposes around the call.
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[XS:[a-z0-9_]+]]: tensor<3x8xf32>
// CHECK: %[[XT:.*]] = trace.transpose %[[XS]] {perm = array<i64: 1, 0>} : tensor<3x8xf32> -> tensor<8x3xf32>
// CHECK: %[[C:.*]]:2 = call @__vmap_f_buu_8(%[[XT]], %{{.*}}, %{{.*}})
// CHECK: %[[ST:.*]] = trace.transpose %[[C]]#0 {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK: return %[[ST]], %[[C]]#1
func.func @caller(%xs: tensor<3x8xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
  %s, %t = trace.vmap @f(%xs, %w, %b) {in_axes = array<i64: 1, -1, -1>, out_axes = array<i64: 1, 0>} : (tensor<3x8xf32>, tensor<4x3xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<8xf32>)
  return %s, %t : tensor<4x8xf32>, tensor<8xf32>
}

// -----

// Per-example gradients: vmap of grad is a vjp of the batched loss seeded
// with ones, its differentiated argument batched even where the caller
// passes it unbatched (broadcast to the batch).

func.func private @loss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<f32> {
  %p = trace.mul %w, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @per_example(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @loss(%w, %x) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// CHECK-LABEL: func.func private @__vmap_loss_bb_5_all(
// CHECK-SAME: tensor<5x3xf32>, %{{.*}}: tensor<5x3xf32>) -> tensor<5xf32>
// CHECK: trace.mul {{.*}} : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK: trace.reduce_sum {{.*}} {axes = array<i64: 1>} : tensor<5x3xf32> -> tensor<5xf32>

// CHECK-LABEL: func.func private @__vmap_per_example_ub_5(
// CHECK-SAME: %[[W:[a-z0-9_]+]]: tensor<3xf32>, %[[X:[a-z0-9_]+]]: tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK: %[[WB:.*]] = trace.broadcast_to %[[W]] : tensor<3xf32> -> tensor<5x3xf32>
// CHECK: %[[ONES:.*]] = trace.constant dense<1.000000e+00> : tensor<5xf32>
// CHECK: %[[V:.*]]:2 = trace.vjp @__vmap_loss_bb_5_all(%[[WB]], %[[X]]) cotangents(%[[ONES]]) {wrt = array<i64: 0>}
// CHECK: return %[[V]]#1 : tensor<5x3xf32>

func.func @grads(%w: tensor<3xf32>, %xs: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %g = trace.vmap @per_example(%w, %xs) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>} : (tensor<3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %g : tensor<5x3xf32>
}

// -----

// vmap nests: the inner op is rewritten first, then batched as a call.

func.func private @dot(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %p = trace.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @row(%a: tensor<4xf32>, %bs: tensor<3x4xf32>) -> tensor<3xf32> {
  %r = trace.vmap @dot(%a, %bs) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>} : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// CHECK-LABEL: func.func private @__vmap_dot_ub_3(
// CHECK-LABEL: func.func private @__vmap___vmap_dot_ub_3_bu_2(
// CHECK-SAME: tensor<2x4xf32>, %{{.*}}: tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK: trace.reshape {{.*}} : tensor<2x4xf32> -> tensor<2x1x4xf32>
// CHECK: trace.mul {{.*}} : (tensor<2x1x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: trace.reduce_sum {{.*}} {axes = array<i64: 2>} : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-LABEL: func.func @gram(
// CHECK: call @__vmap_row_bu_2(
func.func @gram(%as: tensor<2x4xf32>, %bs: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %g = trace.vmap @row(%as, %bs) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  return %g : tensor<2x3xf32>
}

// -----

// cond: with a condition per example (tensor.extract of a batched rank-0
// tensor stays the batch's tensor) both branches run and a select picks
// per example; with one condition for the batch the scf.if stays, its
// branches batched.

func.func private @branch(%x: tensor<3xf32>, %c: tensor<i1>) -> tensor<3xf32> {
  %b = tensor.extract %c[] : tensor<i1>
  %r = scf.if %b -> (tensor<3xf32>) {
    %e = trace.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  } else {
    %n = trace.neg %x : tensor<3xf32>
    scf.yield %n : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// CHECK-LABEL: func.func private @__vmap_branch_bu_4(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[C:[a-z0-9_]+]]: tensor<i1>) -> tensor<4x3xf32>
// CHECK: %[[B:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK: scf.if %[[B]] -> (tensor<4x3xf32>) {
// CHECK:   trace.exp %[[X]] : tensor<4x3xf32>
// CHECK: } else {
// CHECK:   trace.neg %[[X]] : tensor<4x3xf32>

// CHECK-LABEL: func.func private @__vmap_branch_bb_4(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[C:[a-z0-9_]+]]: tensor<4xi1>) -> tensor<4x3xf32>
// CHECK-NOT: scf.if
// CHECK-DAG: %[[E:.*]] = trace.exp %[[X]] : tensor<4x3xf32>
// CHECK-DAG: %[[N:.*]] = trace.neg %[[X]] : tensor<4x3xf32>
// CHECK: %[[CC:.*]] = trace.reshape %[[C]] : tensor<4xi1> -> tensor<4x1xi1>
// CHECK: %[[S:.*]] = trace.select %[[CC]], %[[E]], %[[N]] : (tensor<4x1xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: return %[[S]]

func.func @per_example(%xs: tensor<4x3xf32>, %cs: tensor<4xi1>) -> tensor<4x3xf32> {
  %r = trace.vmap @branch(%xs, %cs) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xi1>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @shared(%xs: tensor<4x3xf32>, %c: tensor<i1>) -> tensor<4x3xf32> {
  %r = trace.vmap @branch(%xs, %c) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>} : (tensor<4x3xf32>, tensor<i1>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
