// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// The read of iteration i+1 is ordered after the assign of iteration i: the
// assign's token is what the iteration yields, and the next iteration's read
// waits for the carried token. The first iteration waits for the read before
// the loop (through the initial value), and the read after the loop for the
// loop's token.

// CHECK-LABEL: func.func @for_assign_then_read
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @for_assign_then_read(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  // CHECK: %{{[a-z0-9_]+}}, %[[C0:[a-z0-9_]+]] = trace.var.read %[[V]] :
  // CHECK-NEXT: %[[L:[a-z0-9_]+]] = scf.for %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step %{{[a-z0-9_]+}} iter_args(%[[T:[a-z0-9_]+]] = %[[C0]]) -> (!trace.control) {
  // CHECK-NEXT:   %[[R:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[T]]) :
  // CHECK-NEXT:   %[[S:[a-z0-9_]+]] = trace.add %[[R]], %[[X]]
  // CHECK-NEXT:   %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[S]] after(%[[CR]]) :
  // CHECK-NEXT:   scf.yield %[[W]] : !trace.control
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[RL:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[L]]) :
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  scf.for %i = %lb to %ub step %step {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<4xf32>>
    %s = trace.add %r, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %w = trace.var.assign %v, %s : !trace.resource<tensor<4xf32>>
  }
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r1 : tensor<4xf32>
}

// -----

// A loop nothing before it touches: the carried token starts as a token
// available at once.

// CHECK-LABEL: func.func @for_first
// CHECK: %[[NONE:[a-z0-9_]+]] = trace.group()
// CHECK-NEXT: %[[L:[a-z0-9_]+]] = scf.for {{.*}} iter_args(%[[T:[a-z0-9_]+]] = %[[NONE]]) -> (!trace.control) {
// CHECK-NEXT:   %[[W:[a-z0-9_]+]] = trace.var.assign_add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} after(%[[T]]) :
// CHECK-NEXT:   scf.yield %[[W]] : !trace.control
// CHECK: trace.identity %{{[a-z0-9_]+}} after(%[[L]]) :
func.func @for_first(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  scf.for %i = %lb to %ub step %step {
    %w = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  }
  return %x : tensor<4xf32>
}

// -----

// scf.while: the assign in the body of iteration i and the read in the
// condition of iteration i+1 are ordered through the token the body yields
// (carried to the condition) and the one the condition passes on.

// CHECK-LABEL: func.func @while_assign_then_read
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<f32>>, %[[X:[a-z0-9_]+]]: tensor<f32>)
func.func @while_assign_then_read(%v: !trace.resource<tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // CHECK: %[[W0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[L:[a-z0-9_]+]] = scf.while (%[[TB:[a-z0-9_]+]] = %[[W0]]) : (!trace.control) -> !trace.control {
  // CHECK-NEXT:   %[[R:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[TB]]) :
  // CHECK:        scf.condition(%{{[a-z0-9_]+}}) %[[CR]] : !trace.control
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%[[TA:[a-z0-9_]+]]: !trace.control):
  // CHECK-NEXT:   %[[W:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[TA]]) :
  // CHECK-NEXT:   scf.yield %[[W]] : !trace.control
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[RL:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[L]]) :
  %w0 = trace.var.assign %v, %x : !trace.resource<tensor<f32>>
  scf.while : () -> () {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<f32>>
    %limit = trace.constant dense<10.0> : tensor<f32>
    %lt = trace.lt %r, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b)
  } do {
    %w = trace.var.assign_add %v, %x : !trace.resource<tensor<f32>>
    scf.yield
  }
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<f32>>
  return %r1 : tensor<f32>
}
