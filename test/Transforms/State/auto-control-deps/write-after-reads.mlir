// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// A write waits for every read since the last write; the reads wait for
// that write, which the new write then already follows through them.

// CHECK-LABEL: func.func @write_after_reads
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @write_after_reads(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[W0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
  // CHECK-NEXT: %[[R0:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[W0]]) :
  // CHECK-NEXT: %[[R1:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[W0]]) :
  // CHECK-NEXT: %[[W1:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[C0]], %[[C1]]) :
  // CHECK-NEXT: %[[Y0:[a-z0-9_]+]] = trace.identity %[[R0]] after(%[[W1]]) :
  // CHECK-NEXT: %[[Y1:[a-z0-9_]+]] = trace.identity %[[R1]] after(%[[W1]]) :
  // CHECK-NEXT: return %[[Y0]], %[[Y1]]
  %w0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %w1 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Reads before the first write: the write waits for both.
// CHECK-LABEL: func.func @first_write_after_reads
func.func @first_write_after_reads(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // CHECK-NEXT: %{{[a-z0-9_]+}}, %[[C0:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} :
  // CHECK-NEXT: %{{[a-z0-9_]+}}, %[[C1:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} :
  // CHECK-NEXT: trace.var.assign {{.*}} after(%[[C0]], %[[C1]]) :
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return
}
