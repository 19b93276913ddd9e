// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file > %t.once.mlir
// RUN: tracec-opt %t.once.mlir --trace-auto-control-deps -split-input-file > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Running the pass twice changes nothing (the diff above), and tokens that
// are already there are kept: the read keeps waiting for the print it was
// given, and gets the write besides.

// CHECK-LABEL: func.func @existing_tokens
func.func @existing_tokens(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  // CHECK-NEXT: %[[P:[a-z0-9_]+]] = trace.print
  // CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign {{.*}} after(%[[P]]) :
  // CHECK-NEXT: %[[Q:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[W]]) {message = "q"}
  // CHECK-NEXT: trace.var.read %{{[a-z0-9_]+}} after(%[[P]], %[[Q]]) :
  %p = trace.print %x : tensor<4xf32>
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %q = trace.print %x {message = "q"} : tensor<4xf32>
  %r, %c = trace.var.read %v after(%p) : !trace.resource<tensor<4xf32>>
  %s = scf.if %pred -> tensor<4xf32> {
    %c1 = trace.var.assign_add %v, %r : !trace.resource<tensor<4xf32>>
    scf.yield %r : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  %y = func.call @bump(%v, %s) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func private @bump(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %x : tensor<4xf32>
}

// -----

// An op the user already ordered after a later-needed token gets nothing
// more: the second write already waits for the first through the read.
// CHECK-LABEL: func.func @already_ordered
func.func @already_ordered(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // CHECK-NEXT: %[[W0:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %{{[a-z0-9_]+}}, %[[C:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} after(%[[W0]]) :
  // CHECK-NEXT: trace.var.assign {{.*}} after(%[[C]]) :
  %w0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r, %c = trace.var.read %v after(%w0) : !trace.resource<tensor<4xf32>>
  %w1 = trace.var.assign %v, %x after(%c) : !trace.resource<tensor<4xf32>>
  return
}

// -----

// Also through regions: the second run finds the token results, the carried
// tokens and what the regions yield, and adds nothing.
// CHECK-LABEL: func.func @regions
// CHECK: scf.for {{.*}} -> (tensor<4xf32>, !trace.control)
// CHECK: scf.if {{.*}} -> (!trace.control)
// CHECK: scf.while {{.*}} -> (tensor<4xf32>, !trace.control)
func.func @regions(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %l = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> tensor<4xf32> {
    scf.if %pred {
      %p = trace.print %acc : tensor<4xf32>
    }
    %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
    scf.yield %r : tensor<4xf32>
  }
  %m = scf.while (%a = %l) : (tensor<4xf32>) -> tensor<4xf32> {
    %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
    scf.condition(%pred) %r : tensor<4xf32>
  } do {
  ^bb0(%a: tensor<4xf32>):
    %c = trace.var.assign_add %v, %a : !trace.resource<tensor<4xf32>>
    scf.yield %a : tensor<4xf32>
  }
  return %m : tensor<4xf32>
}
