// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// Reads of one variable are not ordered among themselves: neither waits for
// the other, and the results wait for both reads (each its own).

// CHECK-LABEL: func.func @reads
func.func @reads(%v: !trace.resource<tensor<4xf32>>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[R0:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} :
  // CHECK-NEXT: %[[R1:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} :
  // CHECK-NEXT: %[[S:[a-z0-9_]+]] = trace.add %[[R0]], %[[R1]]
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[S]] after(%[[C0]], %[[C1]]) :
  // CHECK-NEXT: return %[[Y]]
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %s = trace.add %r0, %r1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Also after a write: both reads wait for the write, not for each other.
// CHECK-LABEL: func.func @reads_after_write
func.func @reads_after_write(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %[[R0:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} after(%[[W]]) :
  // CHECK-NEXT: %[[R1:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} after(%[[W]]) :
  // Each result waits for the other read (every last op must run first).
  // CHECK-NEXT: %[[Y0:[a-z0-9_]+]] = trace.identity %[[R0]] after(%[[C1]]) :
  // CHECK-NEXT: %[[Y1:[a-z0-9_]+]] = trace.identity %[[R1]] after(%[[C0]]) :
  // CHECK-NEXT: return %[[Y0]], %[[Y1]]
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}
