// RUN: tracec-opt %s -trace-lower-state -trace-to-linalg -canonicalize -cse -trace-shape-functions -canonicalize | FileCheck %s

// The shape function keeps only what feeds the sizes: the caller runs it
// before every call (the JIT twice), so the variable update must stay in
// @acc alone, or it would be applied three times.
// CHECK-LABEL: func.func @acc(
// CHECK: linalg.reduce
// CHECK: bufferization.materialize_in_destination {{.*}} in writable %arg1

// CHECK-LABEL: func.func @__shape_acc(%arg0: tensor<?x3xf32>, %arg1: memref<3xf32>, %arg2: memref<4xi64>)
// CHECK-NOT: linalg
// CHECK-NOT: bufferization
// CHECK-NOT: memref.copy
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]]
// CHECK: memref.store %[[N64]], %arg2[%c3]
// CHECK-NEXT: return
func.func @acc(%x: tensor<?x3xf32>, %v: !trace.resource<tensor<3xf32>>) -> tensor<?x3xf32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<?x3xf32> -> tensor<3xf32>
  %a = trace.var.assign_add %v, %s : !trace.resource<tensor<3xf32>>
  %y = trace.tanh %x : tensor<?x3xf32>
  %r = trace.identity %y after(%a) : tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
