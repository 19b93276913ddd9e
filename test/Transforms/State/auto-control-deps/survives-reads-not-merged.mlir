// RUN: tracec-opt %s --trace-auto-control-deps --canonicalize --cse --inline | FileCheck %s

// Two reads of one variable separated by a write are not merged by cse:
// the second waits for the write's token, so the two differ in operands as
// well as in the memory state they read.

// CHECK-LABEL: func.func @reads_across_write
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[R0:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]] = trace.var.read %[[V]] :
// CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[C0]]) :
// CHECK-NEXT: %[[R1:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[W]]) :
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[R0]] after(%[[C1]]) :
// CHECK-NEXT: return %[[Y]], %[[R1]]
func.func @reads_across_write(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %w = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}

// Two reads with no write between them may merge (same value).
// CHECK-LABEL: func.func @reads_merged
// CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[C:[a-z0-9_]+]] = trace.var.read
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[R]] after(%[[C]]) :
// CHECK-NEXT: return %[[Y]], %[[Y]]
func.func @reads_merged(%v: !trace.resource<tensor<4xf32>>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}
