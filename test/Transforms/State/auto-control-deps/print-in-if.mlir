// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// A print inside scf.if waits for the stateful op before the if (outer
// tokens are visible in the region); the branch's yield waits for the print.

// CHECK-LABEL: func.func @print_in_if
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @print_in_if(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  // CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[IF:[a-z0-9_]+]] = scf.if %[[P]]
  // CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.print %[[X]] after(%[[W]]) {message = "then"}
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[C]]) :
  // CHECK-NEXT: scf.yield %[[Y]]
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %[[X]]
  // CHECK-NEXT: }
  // The function's result waits for the assign (the print's token cannot
  // leave the region; the if's result carries it).
  // CHECK-NEXT: %[[R:[a-z0-9_]+]] = trace.identity %[[IF]] after(%[[W]]) :
  // CHECK-NEXT: return %[[R]]
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

// An scf.if without results: its print is kept by the if's (recursive)
// memory effects, and still waits for the print before the if.
// CHECK-LABEL: func.func @print_in_if_no_results
func.func @print_in_if_no_results(%x: tensor<4xf32>, %pred: i1) {
  // CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} {message = "before"}
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: trace.print %{{[a-z0-9_]+}} after(%[[C0]]) {message = "then"}
  %c0 = trace.print %x {message = "before"} : tensor<4xf32>
  scf.if %pred {
    %c1 = trace.print %x {message = "then"} : tensor<4xf32>
  }
  return
}
