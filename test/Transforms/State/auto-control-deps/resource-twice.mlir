// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// @swap's two parameters are different variables unless a caller passes
// one variable for both. Here @caller does: inside @swap they count as one,
// so the write of %b waits for the read of %a.

// CHECK-LABEL: func.func private @swap
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[B:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[T:[a-z0-9_]+]]: !trace.control)
func.func private @swap(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>) {
  // CHECK-NEXT: %[[RA:[a-z0-9_]+]], %[[CA:[a-z0-9_]+]] = trace.var.read %[[A]] after(%[[T]]) :
  // CHECK-NEXT: trace.var.assign %[[B]], %[[RA]] after(%[[CA]]) :
  %ra, %ca = trace.var.read %a : !trace.resource<tensor<4xf32>>
  %cb = trace.var.assign %b, %ra : !trace.resource<tensor<4xf32>>
  return
}

func.func @caller(%v: !trace.resource<tensor<4xf32>>) {
  func.call @swap(%v, %v) : (!trace.resource<tensor<4xf32>>, !trace.resource<tensor<4xf32>>) -> ()
  return
}

// -----

// The aliasing propagates: @outer passes %v twice, so @mid's %p and %q may
// alias, and @mid passes them on to @leaf.
// CHECK-LABEL: func.func private @leaf
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign
// CHECK-NEXT: trace.var.assign {{.*}} after(%[[C]]) :
func.func private @leaf(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %ca = trace.var.assign %a, %x : !trace.resource<tensor<4xf32>>
  %cb = trace.var.assign %b, %x : !trace.resource<tensor<4xf32>>
  return
}
func.func private @mid(%p: !trace.resource<tensor<4xf32>>, %q: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  func.call @leaf(%p, %q, %x) : (!trace.resource<tensor<4xf32>>, !trace.resource<tensor<4xf32>>, tensor<4xf32>) -> ()
  return
}
func.func @outer(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  func.call @mid(%v, %v, %x) : (!trace.resource<tensor<4xf32>>, !trace.resource<tensor<4xf32>>, tensor<4xf32>) -> ()
  return
}

// -----

// Without such a call the two parameters are different variables.
// CHECK-LABEL: func.func @distinct
// CHECK-NEXT: trace.var.assign
// CHECK-NOT: after
// CHECK-NEXT: trace.var.assign
// CHECK-NOT: after
// CHECK: return
func.func @distinct(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %ca = trace.var.assign %a, %x : !trace.resource<tensor<4xf32>>
  %cb = trace.var.assign %b, %x : !trace.resource<tensor<4xf32>>
  return
}
