// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// A print in an scf.if branch: the assign after the if waits for the if's
// token (the print has unknown effects, so it orders with every variable).

// CHECK-LABEL: func.func @assign_after_print_in_if
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @assign_after_print_in_if(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  // CHECK-NEXT: %[[IF:[a-z0-9_]+]] = scf.if %[[P]] -> (!trace.control) {
  // CHECK-NEXT:   %[[C:[a-z0-9_]+]] = trace.print %[[X]] :
  // CHECK-NEXT:   scf.yield %[[C]] : !trace.control
  // CHECK-NEXT: } else {
  // The else waits for nothing: a token available at once.
  // CHECK-NEXT:   %[[NONE:[a-z0-9_]+]] = trace.group()
  // CHECK-NEXT:   scf.yield %[[NONE]] : !trace.control
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] after(%[[IF]]) :
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[W]]) :
  // CHECK-NEXT: return %[[Y]]
  scf.if %pred {
    %c = trace.print %x : tensor<4xf32>
  }
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return %x : tensor<4xf32>
}

// -----

// An if that writes a variable in one branch only: a read after it waits
// for the if, and the if's token stands for the write before it whichever
// branch runs (the else yields that write's token).

// CHECK-LABEL: func.func @read_after_conditional_write
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @read_after_conditional_write(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  // CHECK-NEXT: %[[W0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[IF:[a-z0-9_]+]] = scf.if %[[P]] -> (!trace.control) {
  // CHECK-NEXT:   %[[W1:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[W0]]) :
  // CHECK-NEXT:   scf.yield %[[W1]] : !trace.control
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %[[W0]] : !trace.control
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[IF]]) :
  // CHECK-NEXT: return %[[R]]
  %w0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  scf.if %pred {
    %w1 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  }
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r : tensor<4xf32>
}

// -----

// Branches touching different variables: each branch's token stands for
// everything the if waits for (the writes of both variables before it), so
// a read of %b after the if is ordered after the write of %b before it
// also when the then branch (which touches %a only) ran.

// CHECK-LABEL: func.func @branches_on_different_variables
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[B:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @branches_on_different_variables(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  // CHECK-NEXT: %[[WA:[a-z0-9_]+]] = trace.var.assign %[[A]], %[[X]] :
  // CHECK-NEXT: %[[WB:[a-z0-9_]+]] = trace.var.assign %[[B]], %[[X]] :
  // CHECK-NEXT: %[[IF:[a-z0-9_]+]] = scf.if %[[P]] -> (!trace.control) {
  // CHECK-NEXT:   %[[A1:[a-z0-9_]+]] = trace.var.assign_add %[[A]], %[[X]] after(%[[WA]]) :
  // CHECK-NEXT:   %[[J1:[a-z0-9_]+]] = trace.group(%[[WB]], %[[A1]])
  // CHECK-NEXT:   scf.yield %[[J1]] : !trace.control
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[B1:[a-z0-9_]+]] = trace.var.assign_add %[[B]], %[[X]] after(%[[WB]]) :
  // CHECK-NEXT:   %[[J2:[a-z0-9_]+]] = trace.group(%[[WA]], %[[B1]])
  // CHECK-NEXT:   scf.yield %[[J2]] : !trace.control
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[B]] after(%[[IF]]) :
  // CHECK-NEXT: return %[[R]]
  %wa = trace.var.assign %a, %x : !trace.resource<tensor<4xf32>>
  %wb = trace.var.assign %b, %x : !trace.resource<tensor<4xf32>>
  scf.if %pred {
    %a1 = trace.var.assign_add %a, %x : !trace.resource<tensor<4xf32>>
  } else {
    %b1 = trace.var.assign_add %b, %x : !trace.resource<tensor<4xf32>>
  }
  %r, %c = trace.var.read %b : !trace.resource<tensor<4xf32>>
  return %r : tensor<4xf32>
}
