// RUN: tracec-opt %s --trace-auto-control-deps --trace-autodiff --inline --canonicalize --cse --trace-lower-state --canonicalize --cse | FileCheck %s

// The order survives autodiff, inlining and the lowering of state: in the
// buffer form, the read before the write is a snapshot taken before the
// buffer is written, the read after it a snapshot taken after, and the
// unused assign_add still writes the buffer last. The gradient op, which
// reads the variable through its callee, was ordered before the write.

func.func private @loss(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<f32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %p = trace.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: memref<4xf32>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK:      memref.copy %[[V]], %[[B0:[a-z0-9_]+]]
// CHECK-NEXT: %[[R0:[a-z0-9_]+]] = bufferization.to_tensor %[[B0]] restrict writable
// CHECK:      %[[SUB:[a-z0-9_]+]] = trace.sub %{{[a-z0-9_]+}}, %[[X]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[SUB]] in writable %[[V]]
// CHECK-NEXT: %[[B1:[a-z0-9_]+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[V]], %[[B1]]
// CHECK-NEXT: %[[R1:[a-z0-9_]+]] = bufferization.to_tensor %[[B1]] restrict writable
// CHECK:      %[[ADD:[a-z0-9_]+]] = trace.add %{{[a-z0-9_]+}}, %[[X]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[ADD]] in writable %[[V]]
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[X]]
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %g = trace.grad @loss(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %c1 = trace.var.assign_sub %v, %g : !trace.resource<tensor<4xf32>>
  %r1, %c2 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %c3 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %r0, %r1, %g : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
