// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps --trace-lower-state -split-input-file | FileCheck %s --check-prefix=LOWERED

// scf.index_switch and scf.execute_region are nodes of the token graph as
// scf.if is: every region yields a token standing for its last ops and for
// what the op waits for, and what follows waits for the op's token.

// CHECK-LABEL: func.func @switch
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[I:[a-z0-9_]+]]: index)
func.func @switch(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[V]] :
  // CHECK-NEXT: %[[S:[a-z0-9_]+]]:2 = scf.index_switch %[[I]] -> tensor<4xf32>, !trace.control
  // CHECK-NEXT: case 0 {
  // CHECK-NEXT:   %[[A:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] after(%[[CR]]) :
  // CHECK-NEXT:   scf.yield %[[X]], %[[A]] :
  // CHECK:      case 1 {
  // CHECK-NEXT:   %[[P:[a-z0-9_]+]] = trace.print %[[X]] after(%[[CR]])
  // CHECK-NEXT:   scf.yield %[[X]], %[[P]] :
  // CHECK:      default {
  // CHECK-NEXT:   scf.yield %[[R]], %[[CR]] :
  // CHECK:      %[[T:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[S]]#1) :
  %r, %cr = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %s = scf.index_switch %i -> tensor<4xf32>
  case 0 {
    %a = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
    scf.yield %x : tensor<4xf32>
  }
  case 1 {
    %p = trace.print %x : tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  }
  default {
    scf.yield %r : tensor<4xf32>
  }
  %t, %ct = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %y = trace.add %s, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// LOWERED-LABEL: func.func @switch
// LOWERED-NOT: !trace.control
// LOWERED: scf.index_switch %{{[a-z0-9_]+}} -> tensor<4xf32>
// LOWERED-NOT: !trace.control
// LOWERED: return

// -----

// CHECK-LABEL: func.func @execute_region
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @execute_region(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[P:[a-z0-9_]+]] = trace.print %[[X]] :
  // CHECK-NEXT: %[[E:[a-z0-9_]+]]:2 = scf.execute_region -> (tensor<4xf32>, !trace.control) {
  // CHECK-NEXT:   %[[A:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[P]]) :
  // CHECK-NEXT:   scf.yield %[[X]], %[[A]] :
  // CHECK:      %[[Q:[a-z0-9_]+]] = trace.print %[[X]] after(%[[E]]#1)
  %p = trace.print %x : tensor<4xf32>
  %e = scf.execute_region -> tensor<4xf32> {
    %a = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
    scf.yield %x : tensor<4xf32>
  }
  %q = trace.print %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// LOWERED-LABEL: func.func @execute_region
// LOWERED-NOT: !trace.control
// LOWERED: scf.execute_region -> tensor<4xf32> {
// LOWERED-NOT: !trace.control
// LOWERED: scf.yield %{{[a-z0-9_]+}} : tensor<4xf32>
