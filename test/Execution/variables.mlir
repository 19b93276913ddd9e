// Variables are the caller's buffers, read as snapshots and written in
// place, in program order: a read after an assign sees it, a read before
// does not, the last of two assigns wins, assign_add/assign_sub read the
// value the earlier ops left. Expected values worked by hand from the
// inputs (v = [1, 2], x = [10, 20]), step by step in the comments.
// RUN: tracec-run %s --entry accesses --input v="[1, 2]" --input x="[10, 20]" | FileCheck %s
// RUN: tracec-run %s --entry in_loop --input v="[1, 2]" --input x="[10, 20]" | FileCheck %s --check-prefix=LOOP

// CHECK:      result 0: tensor<2xf32>
// CHECK-NEXT: [1. 2.]
// CHECK-NEXT: result 1: tensor<2xf32>
// CHECK-NEXT: [10. 20.]
// CHECK-NEXT: result 2: tensor<2xf32>
// CHECK-NEXT: [20. 40.]
// CHECK-NEXT: result 3: tensor<2xf32>
// CHECK-NEXT: [ -9. -18.]
func.func @accesses(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<2xf32>>          // [1, 2]
  %c1 = trace.var.assign %v, %x : !trace.resource<tensor<2xf32>>         // v = [10, 20]
  %r1, %c2 = trace.var.read %v : !trace.resource<tensor<2xf32>>          // [10, 20]
  %c3 = trace.var.assign_add %v, %r1 : !trace.resource<tensor<2xf32>>    // v = [20, 40]
  %r2, %c4 = trace.var.read %v : !trace.resource<tensor<2xf32>>          // [20, 40]
  %c5 = trace.var.assign %v, %x : !trace.resource<tensor<2xf32>>         // v = [10, 20]
  %c6 = trace.var.assign %v, %r0 : !trace.resource<tensor<2xf32>>        // v = [1, 2]
  %c7 = trace.var.assign_sub %v, %x : !trace.resource<tensor<2xf32>>     // v = [-9, -18]
  %r3, %c8 = trace.var.read %v : !trace.resource<tensor<2xf32>>          // [-9, -18]
  return %r0, %r1, %r2, %r3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Three iterations of "s = s + v; v += x" from s = 0:
// v: [1, 2] -> [11, 22] -> [21, 42] -> [31, 62];
// s: [1, 2] -> [12, 24] -> [33, 66].
// LOOP:      result 0: tensor<2xf32>
// LOOP-NEXT: [33. 66.]
// LOOP-NEXT: result 1: tensor<2xf32>
// LOOP-NEXT: [31. 62.]
func.func @in_loop(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %zero = trace.constant dense<0.0> : tensor<2xf32>
  %s = scf.for %i = %lb to %ub step %st iter_args(%acc = %zero) -> tensor<2xf32> {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<2xf32>>
    %n = trace.add %acc, %r : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %c = trace.var.assign_add %v, %x : !trace.resource<tensor<2xf32>>
    scf.yield %n : tensor<2xf32>
  }
  %last, %cl = trace.var.read %v : !trace.resource<tensor<2xf32>>
  return %s, %last : tensor<2xf32>, tensor<2xf32>
}
