// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// An scf.if inside an scf.for: the if is a node of the loop body's token
// graph (it waits for the carried token, the iteration yields its token),
// and the loop one of the function's. Every stateful op is reachable from
// the function's result through tokens: result -> loop -> yield -> if ->
// yields -> assign/print, and the loop -> its initial token -> the read.

// CHECK-LABEL: func.func @if_in_for
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @if_in_for(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  // CHECK: %[[R0:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]] = trace.var.read %[[V]] :
  // CHECK-NEXT: %[[L:[a-z0-9_]+]]:2 = scf.for {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[R0]], %[[T:[a-z0-9_]+]] = %[[C0]]) -> (tensor<4xf32>, !trace.control) {
  // CHECK-NEXT:   %[[IF:[a-z0-9_]+]] = scf.if %[[P]] -> (!trace.control) {
  // CHECK-NEXT:     %[[W:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[ACC]] after(%[[T]]) :
  // CHECK-NEXT:     scf.yield %[[W]] : !trace.control
  // CHECK-NEXT:   } else {
  // CHECK-NEXT:     %[[PR:[a-z0-9_]+]] = trace.print %[[ACC]] after(%[[T]])
  // CHECK-NEXT:     scf.yield %[[PR]] : !trace.control
  // CHECK-NEXT:   }
  // CHECK-NEXT:   %[[E:[a-z0-9_]+]] = trace.exp %[[ACC]]
  // CHECK-NEXT:   scf.yield %[[E]], %[[IF]] : tensor<4xf32>, !trace.control
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[L]]#0
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %l = scf.for %i = %lb to %ub step %step iter_args(%acc = %r0) -> tensor<4xf32> {
    scf.if %pred {
      %w = trace.var.assign_add %v, %acc : !trace.resource<tensor<4xf32>>
    } else {
      %p = trace.print %acc : tensor<4xf32>
    }
    %e = trace.exp %acc : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  return %l : tensor<4xf32>
}

// -----

// A loop inside an if: the loop's initial token is an outer token (the
// assign before the if), and the branch yields the loop's token.

// CHECK-LABEL: func.func @for_in_if
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
func.func @for_in_if(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  // CHECK: %[[W0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[IF:[a-z0-9_]+]] = scf.if %[[P]] -> (!trace.control) {
  // CHECK-NEXT:   %[[L:[a-z0-9_]+]] = scf.for {{.*}} iter_args(%[[T:[a-z0-9_]+]] = %[[W0]]) -> (!trace.control) {
  // CHECK-NEXT:     %[[W:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[T]]) :
  // CHECK-NEXT:     scf.yield %[[W]] : !trace.control
  // CHECK-NEXT:   }
  // CHECK-NEXT:   scf.yield %[[L]] : !trace.control
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %[[W0]] : !trace.control
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[IF]]) :
  // CHECK-NEXT: return %[[R]]
  %w0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  scf.if %pred {
    scf.for %i = %lb to %ub step %step {
      %w = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
    }
  }
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r : tensor<4xf32>
}
