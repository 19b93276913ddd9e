// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// A read waits for the last write of its variable; the result is the read's
// own value, which already comes after both ops: no identity is added.

// CHECK-LABEL: func.func @read_after_assign
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @read_after_assign(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[C0]]) :
  // CHECK-NEXT: return %[[R]]
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r : tensor<4xf32>
}

// -----

// A read before any write waits for nothing; a value computed from it is
// routed through an identity that waits for the read.
// CHECK-LABEL: func.func @read_first
func.func @read_first(%v: !trace.resource<tensor<4xf32>>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[C:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} :
  // CHECK-NEXT: %[[E:[a-z0-9_]+]] = trace.exp %[[R]]
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[E]] after(%[[C]]) :
  // CHECK-NEXT: return %[[Y]]
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %e = trace.exp %r : tensor<4xf32>
  return %e : tensor<4xf32>
}
