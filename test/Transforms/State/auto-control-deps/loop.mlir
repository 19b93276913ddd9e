// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// The loop carries a control token: iteration i+1's ops wait for the token
// iteration i yields (its last op), the first iteration for the assign
// before the loop; what follows the loop waits for its token result.

// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @loop(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %step = arith.constant 1 : index
  // CHECK: %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK: %[[L:[a-z0-9_]+]]:2 = scf.for {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[X]], %[[T:[a-z0-9_]+]] = %[[W]]) -> (tensor<4xf32>, !trace.control)
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[T]]) :
  // CHECK-NEXT: %[[S:[a-z0-9_]+]] = trace.add %[[ACC]], %[[R]]
  // CHECK-NEXT: %[[CA:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[S]] after(%[[CR]]) :
  // CHECK-NEXT: scf.yield %[[S]], %[[CA]]
  // The loop's tensor result comes after its token already.
  // CHECK: return %[[L]]#0
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

// scf.while carries the token through both regions: the condition's print
// waits for the token of the previous iteration's body (the print before the
// loop at first) and passes its own to the body and out of the loop.
// CHECK-LABEL: func.func @while
func.func @while(%x: tensor<4xf32>, %n: tensor<i1>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} {message = "before"}
  // CHECK-NEXT: %[[L:[a-z0-9_]+]]:2 = scf.while (%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[TB:[a-z0-9_]+]] = %[[C0]])
  // CHECK-NEXT: %[[C1:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[TB]]) {message = "cond"}
  // CHECK: scf.condition(%{{[a-z0-9_]+}}) %{{[a-z0-9_]+}}, %[[C1]]
  // CHECK: ^bb0(%{{[a-z0-9_]+}}: tensor<4xf32>, %[[TA:[a-z0-9_]+]]: !trace.control):
  // CHECK-NEXT: %[[C2:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[TA]]) {message = "body"}
  // CHECK-NEXT: scf.yield %{{[a-z0-9_]+}}, %[[C2]]
  // CHECK: return %[[L]]#0
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
