// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// Two writes of one variable keep program order; the result waits for the
// last one only (the second already waits for the first).

// CHECK-LABEL: func.func @two_assigns
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @two_assigns(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[C1:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[C0]]) :
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[C1]]) :
  // CHECK-NEXT: return %[[Y]]
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %c1 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %x : tensor<4xf32>
}

// -----

// Three writes form a chain, not a fan: the third waits for the second only.
// CHECK-LABEL: func.func @three_assigns
func.func @three_assigns(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %[[C1:[a-z0-9_]+]] = trace.var.assign_sub {{.*}} after(%[[C0]]) :
  // CHECK-NEXT: trace.var.assign {{.*}} after(%[[C1]]) :
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %c1 = trace.var.assign_sub %v, %x : !trace.resource<tensor<4xf32>>
  %c2 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return
}
