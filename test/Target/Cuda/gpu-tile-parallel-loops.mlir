// RUN: tracec-opt %s --trace-gpu-tile-parallel-loops | FileCheck %s
// RUN: tracec-opt %s "--trace-gpu-tile-parallel-loops=tile-sizes=8,32" | FileCheck %s --check-prefix=SIZES

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
