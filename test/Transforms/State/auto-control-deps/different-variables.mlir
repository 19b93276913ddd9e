// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// Ops on two different variables are not ordered; the result waits for the
// last op of each.

// CHECK-LABEL: func.func @two_variables
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[B:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @two_variables(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[CA:[a-z0-9_]+]] = trace.var.assign %[[A]], %[[X]] :
  // CHECK-NEXT: %[[CB:[a-z0-9_]+]] = trace.var.assign %[[B]], %[[X]] :
  // CHECK-NEXT: %[[RA:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[A]] after(%[[CA]]) :
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[RA]] after(%[[CB]]) :
  // CHECK-NEXT: return %[[Y]]
  %ca = trace.var.assign %a, %x : !trace.resource<tensor<4xf32>>
  %cb = trace.var.assign %b, %x : !trace.resource<tensor<4xf32>>
  %ra, %cr = trace.var.read %a : !trace.resource<tensor<4xf32>>
  return %ra : tensor<4xf32>
}
