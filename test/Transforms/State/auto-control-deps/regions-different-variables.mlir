// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// Ops on different variables are not ordered around or inside regions (they
// could run in parallel): a loop that touches %a only neither waits for the
// assign of %b before it nor is waited for by the read of %b after it.

// CHECK-LABEL: func.func @loop_and_other_variable
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[B:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @loop_and_other_variable(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  // CHECK: %[[WB:[a-z0-9_]+]] = trace.var.assign %[[B]], %[[X]] :
  // CHECK-NEXT: %[[NONE:[a-z0-9_]+]] = trace.group()
  // CHECK-NEXT: %[[L:[a-z0-9_]+]] = scf.for {{.*}} iter_args(%[[T:[a-z0-9_]+]] = %[[NONE]]) -> (!trace.control) {
  // CHECK-NEXT:   %[[WA:[a-z0-9_]+]] = trace.var.assign_add %[[A]], %[[X]] after(%[[T]]) :
  // CHECK-NEXT:   scf.yield %[[WA]] : !trace.control
  // CHECK-NEXT: }
  // The read of %b waits for the assign of %b only, not for the loop.
  // CHECK-NEXT: %[[RB:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[B]] after(%[[WB]]) :
  // The result waits for both: the loop and the read are the last ops.
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[RB]] after(%[[L]]) :
  // CHECK-NEXT: return %[[Y]]
  %wb = trace.var.assign %b, %x : !trace.resource<tensor<4xf32>>
  scf.for %i = %lb to %ub step %step {
    %wa = trace.var.assign_add %a, %x : !trace.resource<tensor<4xf32>>
  }
  %rb, %cb = trace.var.read %b : !trace.resource<tensor<4xf32>>
  return %rb : tensor<4xf32>
}

// -----

// Inside a region: the ops on %a and on %b in one branch wait for the
// outer ops on their own variable only, and not for each other.

// CHECK-LABEL: func.func @if_two_variables
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[B:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @if_two_variables(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  // CHECK-NEXT: %[[WA:[a-z0-9_]+]] = trace.var.assign %[[A]], %[[X]] :
  // CHECK-NEXT: %[[WB:[a-z0-9_]+]] = trace.var.assign %[[B]], %[[X]] :
  // CHECK-NEXT: %[[IF:[a-z0-9_]+]] = scf.if %[[P]] -> (!trace.control) {
  // CHECK-NEXT:   %[[A1:[a-z0-9_]+]] = trace.var.assign_add %[[A]], %[[X]] after(%[[WA]]) :
  // CHECK-NEXT:   %[[B1:[a-z0-9_]+]] = trace.var.assign_add %[[B]], %[[X]] after(%[[WB]]) :
  // CHECK-NEXT:   %[[J:[a-z0-9_]+]] = trace.group(%[[A1]], %[[B1]])
  // CHECK-NEXT:   scf.yield %[[J]] : !trace.control
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[J0:[a-z0-9_]+]] = trace.group(%[[WA]], %[[WB]])
  // CHECK-NEXT:   scf.yield %[[J0]] : !trace.control
  // CHECK-NEXT: }
  %wa = trace.var.assign %a, %x : !trace.resource<tensor<4xf32>>
  %wb = trace.var.assign %b, %x : !trace.resource<tensor<4xf32>>
  scf.if %pred {
    %a1 = trace.var.assign_add %a, %x : !trace.resource<tensor<4xf32>>
    %b1 = trace.var.assign_add %b, %x : !trace.resource<tensor<4xf32>>
  }
  return %x : tensor<4xf32>
}

// -----

// In a loop body the ops on %a and %b wait for the carried token (iteration
// i+1 waits for iteration i as a whole: one token per loop), not for each
// other within an iteration.

// CHECK-LABEL: func.func @loop_two_variables
func.func @loop_two_variables(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  // CHECK: scf.for {{.*}} iter_args(%[[T:[a-z0-9_]+]] = %{{[a-z0-9_]+}}) -> (!trace.control) {
  // CHECK-NEXT:   %[[A1:[a-z0-9_]+]] = trace.var.assign_add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} after(%[[T]]) :
  // CHECK-NEXT:   %[[B1:[a-z0-9_]+]] = trace.var.assign_add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} after(%[[T]]) :
  // CHECK-NEXT:   %[[J:[a-z0-9_]+]] = trace.group(%[[A1]], %[[B1]])
  // CHECK-NEXT:   scf.yield %[[J]] : !trace.control
  scf.for %i = %lb to %ub step %step {
    %a1 = trace.var.assign_add %a, %x : !trace.resource<tensor<4xf32>>
    %b1 = trace.var.assign_add %b, %x : !trace.resource<tensor<4xf32>>
  }
  return
}
