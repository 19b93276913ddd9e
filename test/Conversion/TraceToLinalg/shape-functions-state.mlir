// RUN: tracec-opt %s -trace-auto-control-deps -trace-lower-state -trace-to-linalg -canonicalize -cse -trace-shape-functions | FileCheck %s

// The shape function keeps only what feeds the status and the dims: the
// copy of the entry's computation goes, the variable's update too (else a
// caller that runs the shape function, then the entry, would update the
// variable twice).
// CHECK-LABEL: func.func @__shape_accumulate(%arg0: tensor<?x2xf32>, %arg1: memref<2xf32>, %arg2: memref<4xi64>)
// CHECK-NOT: linalg
// CHECK-NOT: memref.copy
// CHECK-NOT: materialize_in_destination
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]]
// CHECK: memref.store %[[N64]], %arg2[%c3]
// CHECK-NEXT: return
func.func @accumulate(%x: tensor<?x2xf32>, %total: !trace.resource<tensor<2xf32>>) -> tensor<?x2xf32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<?x2xf32> -> tensor<2xf32>
  %c = trace.var.assign_add %total, %s : !trace.resource<tensor<2xf32>>
  %y = trace.neg %x : tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
