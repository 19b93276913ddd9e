// RUN: tracec-opt %s --trace-auto-control-deps --trace-autodiff -split-input-file | FileCheck %s

// Gradients with respect to a variable (TensorFlow's implicit gradients):
// the sum of the gradients of the values read from it. Each read is a leaf;
// assigns carry no gradient. The forward function does the reads and
// writes once and returns what the backward code needs of the values read
// (snapshots), so the backward never looks at the variable again.

// loss = sum(a * b * x) with a = read v; v += a; b = read v (b = 2a).
// d/dv = (b + a) * x: the backward takes both reads as residuals.
func.func @loss(%v: !trace.resource<tensor<3xf32>>, %x: tensor<3xf32>) -> tensor<f32> {
  %a, %c0 = trace.var.read %v : !trace.resource<tensor<3xf32>>
  %c1 = trace.var.assign_add %v, %a : !trace.resource<tensor<3xf32>>
  %b, %c2 = trace.var.read %v : !trace.resource<tensor<3xf32>>
  %ab = trace.mul %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %abx = trace.mul %ab, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %abx {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// The gradient op is ordered (its callee touches the variable), so the
// forward function takes and returns a token; the values it returns wait
// for its last read.
// CHECK-LABEL: func.func private @__forward_loss_wrt_0(
// CHECK-SAME: %[[V:[a-z0-9_]+]]: !trace.resource<tensor<3xf32>>, %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[T:[a-z0-9_]+]]: !trace.control)
// CHECK-NEXT: %[[A:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[T]]) :
// CHECK-NEXT: %[[C1:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[A]] after(%[[C0]])
// CHECK-NEXT: %[[B:[a-z0-9_]+]], %[[C2:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[C1]])
// CHECK:      %[[XR:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[C2]])
// CHECK-NEXT: %[[AR:[a-z0-9_]+]] = trace.identity %[[A]] after(%[[C2]])
// CHECK-NEXT: return %{{[a-z0-9_]+}}, %[[XR]], %[[B]], %[[AR]], %[[C2]] :
// CHECK-LABEL: func.func private @__backward_loss_wrt_0(
// CHECK-SAME: %[[RX:[a-z0-9_]+]]: tensor<3xf32>, %[[RB:[a-z0-9_]+]]: tensor<3xf32>, %[[RA:[a-z0-9_]+]]: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<f32>) -> tensor<3xf32>
// CHECK-NOT:  trace.var
// CHECK:      %[[DAB:[a-z0-9_]+]] = trace.mul %{{[a-z0-9_]+}}, %[[RX]]
// CHECK-NEXT: %[[DA:[a-z0-9_]+]] = trace.mul %[[DAB]], %[[RB]]
// CHECK-NEXT: %[[DB:[a-z0-9_]+]] = trace.mul %[[DAB]], %[[RA]]
// CHECK-NEXT: %[[SUM:[a-z0-9_]+]] = trace.add %[[DB]], %[[DA]]
// CHECK-NEXT: return %[[SUM]] : tensor<3xf32>

// The gradient op becomes one forward call (which updates the variable
// once) and one backward call.
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[SV:[a-z0-9_]+]]: !trace.resource<tensor<3xf32>>, %[[SX:[a-z0-9_]+]]: tensor<3xf32>)
// CHECK-NEXT: %[[N:[a-z0-9_]+]] = trace.group()
// CHECK-NEXT: %[[F:[a-z0-9_]+]]:5 = call @__forward_loss_wrt_0(%[[SV]], %[[SX]], %[[N]])
// CHECK-NEXT: %[[ONE:[a-z0-9_]+]] = trace.constant dense<1.000000e+00>
// CHECK-NEXT: %[[G:[a-z0-9_]+]] = call @__backward_loss_wrt_0(%[[F]]#1, %[[F]]#2, %[[F]]#3, %[[ONE]])
// CHECK-NEXT: %[[GT:[a-z0-9_]+]] = trace.identity %[[G]] after(%[[F]]#4)
// CHECK-NEXT: return %[[GT]]
func.func @step(%v: !trace.resource<tensor<3xf32>>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @loss(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<3xf32>>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// -----

// A variable read through a call: the callee's backward returns the
// variable's cotangent (the value type), which adds to the caller's.
func.func private @read_scaled(%v: !trace.resource<tensor<2xf32>>, %s: tensor<2xf32>) -> tensor<2xf32> {
  %a, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %y = trace.mul %a, %s : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @loss(%v: !trace.resource<tensor<2xf32>>, %s: tensor<2xf32>) -> tensor<f32> {
  %y = func.call @read_scaled(%v, %s) : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %a, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %z = trace.add %y, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = trace.reduce_sum %z {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  return %t : tensor<f32>
}
// CHECK-LABEL: func.func private @__backward_read_scaled(
// CHECK-SAME: -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-LABEL: func.func private @__backward_loss_wrt_0(
// CHECK:      %[[INNER:[a-z0-9_]+]]:2 = call @__backward_read_scaled(
// CHECK-NEXT: %[[SUM:[a-z0-9_]+]] = trace.add %{{[a-z0-9_]+}}, %[[INNER]]#0
// CHECK-NEXT: return %[[SUM]] : tensor<2xf32>
func.func @dloss(%v: !trace.resource<tensor<2xf32>>, %s: tensor<2xf32>) -> tensor<2xf32> {
  %g = trace.grad @loss(%v, %s) {wrt = array<i64: 0>} : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}

// -----

// A variable nothing reads: its gradient is zero (unconnected = zero).
func.func @ignores(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<f32> {
  %t = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  return %t : tensor<f32>
}
// CHECK-LABEL: func.func private @__backward_ignores_wrt_0(
// CHECK-NEXT: %[[Z:[a-z0-9_]+]] = trace.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %[[Z]]
func.func @dignores(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %g = trace.grad @ignores(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}
