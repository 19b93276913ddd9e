// RUN: tracec-opt %s --trace-gpu-tile-parallel-loops | FileCheck %s
// RUN: tracec-opt %s "--trace-gpu-tile-parallel-loops=tile-sizes=8,32" | FileCheck %s --check-prefix=SIZES
// RUN: tracec-opt %s "--trace-gpu-tile-parallel-loops=tile-sizes=16" | FileCheck %s --check-prefix=FEWER
// RUN: tracec-opt %s "--trace-gpu-tile-parallel-loops=tile-sizes=2,4,8,32" | FileCheck %s --check-prefix=MORE

// The innermost dimension takes the threads (1000 -> 256), the next what
// is left (1); partial tiles are masked.
// CHECK-LABEL: func.func @fill(
// CHECK: arith.constant 1000 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[C1]] : index
// CHECK-NEXT: %[[COLS:.*]] = arith.muli %{{.*}}, %[[C256]] : index
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step (%[[ROWS]], %[[COLS]]) {
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%[[ROWS]], %[[COLS]]) step
// CHECK: arith.cmpi ult, %{{.*}}, %c1000 : index
// CHECK: scf.if
// CHECK: memref.store

// Given sizes apply to the innermost dimensions, outermost first.
// SIZES-LABEL: func.func @fill(
// SIZES: arith.constant 1000 : index
// SIZES: %[[C8:.*]] = arith.constant 8 : index
// SIZES-NEXT: %[[C32:.*]] = arith.constant 32 : index
// SIZES-NEXT: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[C8]] : index
// SIZES-NEXT: %[[COLS:.*]] = arith.muli %{{.*}}, %[[C32]] : index
// SIZES: scf.parallel {{.*}} step (%[[ROWS]], %[[COLS]])
// Fewer sizes than dimensions (the size_t difference of the counts would
// wrap): the one size is the innermost dimension's, the outer one gets 1.
// FEWER-LABEL: func.func @fill(
// FEWER: arith.constant 1000 : index
// FEWER: %[[C1:.*]] = arith.constant 1 : index
// FEWER-NEXT: %[[C16:.*]] = arith.constant 16 : index
// FEWER-NEXT: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[C1]] : index
// FEWER-NEXT: %[[COLS:.*]] = arith.muli %{{.*}}, %[[C16]] : index
// FEWER: scf.parallel {{.*}} step (%[[ROWS]], %[[COLS]])
// FEWER: scf.parallel {{.*}} to (%[[ROWS]], %[[COLS]]) step

// More sizes than dimensions: the innermost two apply, the outer ones are
// dropped.
// MORE-LABEL: func.func @fill(
// MORE: arith.constant 1000 : index
// MORE: %[[C8:.*]] = arith.constant 8 : index
// MORE-NEXT: %[[C32:.*]] = arith.constant 32 : index
// MORE-NEXT: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[C8]] : index
// MORE-NEXT: %[[COLS:.*]] = arith.muli %{{.*}}, %[[C32]] : index
// MORE: scf.parallel {{.*}} step (%[[ROWS]], %[[COLS]])
// MORE-NOT: arith.constant 2 : index
// MORE-NOT: arith.constant 4 : index
func.func @fill(%m: memref<64x1000xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c1000) step (%c1, %c1) {
    memref.store %v, %m[%i, %j] : memref<64x1000xf32>
  }
  return
}
