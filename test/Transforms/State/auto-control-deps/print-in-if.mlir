// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// A print inside scf.if waits for the stateful op before the if (outer
// tokens are visible in the region); the if gets a token result, which each
// branch yields: the print's, or (in the else) the assign's, so that
// whichever branch runs the token stands for everything the if waits for.

// CHECK-LABEL: func.func @print_in_if
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @print_in_if(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  // CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[IF:[a-z0-9_]+]]:2 = scf.if %[[P]] -> (tensor<4xf32>, !trace.control)
  // CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.print %[[X]] after(%[[W]]) {message = "then"}
  // CHECK-NEXT: scf.yield %[[X]], %[[C]]
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %[[X]], %[[W]]
  // CHECK-NEXT: }
  // The if's result already comes after its token: no identity.
  // CHECK-NEXT: return %[[IF]]#0
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r = scf.if %pred -> tensor<4xf32> {
    %c = trace.print %x {message = "then"} : tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An scf.if without results gets a token result (and an else yielding the
// token before the if); its print still waits for the print before the if.
// CHECK-LABEL: func.func @print_in_if_no_results
func.func @print_in_if_no_results(%x: tensor<4xf32>, %pred: i1) {
  // CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} {message = "before"}
  // CHECK-NEXT: scf.if %{{[a-z0-9_]+}} -> (!trace.control)
  // CHECK-NEXT: %[[C1:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[C0]]) {message = "then"}
  // CHECK-NEXT: scf.yield %[[C1]]
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %[[C0]]
  %c0 = trace.print %x {message = "before"} : tensor<4xf32>
  scf.if %pred {
    %c1 = trace.print %x {message = "then"} : tensor<4xf32>
  }
  return
}
