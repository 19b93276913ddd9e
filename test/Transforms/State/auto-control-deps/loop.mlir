// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// In a loop body the ops wait for the outer ops before the loop and for
// each other; the yield waits for the body's last op, so the next iteration
// (which needs the carried value) comes after it.

// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @loop(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %step = arith.constant 1 : index
  // CHECK: %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK: %[[L:[a-z0-9_]+]] = scf.for {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[X]])
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[W]]) :
  // CHECK-NEXT: %[[S:[a-z0-9_]+]] = trace.add %[[ACC]], %[[R]]
  // CHECK-NEXT: %[[CA:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[S]] after(%[[CR]]) :
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[S]] after(%[[CA]]) :
  // CHECK-NEXT: scf.yield %[[Y]]
  // CHECK: trace.identity %[[L]] after(%[[W]]) :
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %l = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> tensor<4xf32> {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<4xf32>>
    %s = trace.add %acc, %r : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %ca = trace.var.assign_add %v, %s : !trace.resource<tensor<4xf32>>
    scf.yield %s : tensor<4xf32>
  }
  return %l : tensor<4xf32>
}

// -----

// scf.while: both regions start from the state before the loop; the
// condition's tensor operands wait for the before region's print.
// CHECK-LABEL: func.func @while
func.func @while(%x: tensor<4xf32>, %n: tensor<i1>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} {message = "before"}
  // CHECK-NEXT: scf.while
  // CHECK-NEXT: %[[C1:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[C0]]) {message = "cond"}
  // CHECK: %[[Y:[a-z0-9_]+]] = trace.identity %{{[a-z0-9_]+}} after(%[[C1]]) :
  // CHECK-NEXT: scf.condition(%{{[a-z0-9_]+}}) %[[Y]]
  // CHECK: trace.print %{{[a-z0-9_]+}} after(%[[C0]]) {message = "body"}
  %c0 = trace.print %x {message = "before"} : tensor<4xf32>
  %r = scf.while (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %c1 = trace.print %a {message = "cond"} : tensor<4xf32>
    %b = tensor.extract %n[] : tensor<i1>
    scf.condition(%b) %a : tensor<4xf32>
  } do {
  ^bb0(%a: tensor<4xf32>):
    %c2 = trace.print %a {message = "body"} : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
