// RUN: tracec-opt %s --trace-gpu-grid-stride -split-input-file | FileCheck %s

// A grid computed at run time: y is launched with max(1, min(n, 65535))
// blocks, x (a constant 4) as it is; the body strides over the blocks y
// stands for, with the loop's index in place of the block id.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME: %[[N:.*]]: index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[LIMIT:.*]] = arith.constant 65535 : index
// CHECK: %[[MIN:.*]] = arith.minui %[[N]], %[[LIMIT]] : index
// CHECK: %[[GRID:.*]] = arith.maxui %[[MIN]], %{{.*}} : index
// CHECK: gpu.launch blocks(%[[BX:[^,]*]], %[[BY:[^,]*]], %{{[^)]*}}) in (%{{[^ ]*}} = %[[C4]], %[[GY:[^ ]*]] = %[[GRID]],
// CHECK-NEXT: scf.for %[[ROW:.*]] = %[[BY]] to %[[N]] step %[[GY]] {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[ROW]], %[[BX]]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
func.func @dynamic_rows(%n: index, %out: memref<?x4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %n, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%by, %bx] : memref<?x4xf32>
    gpu.terminator
  }
  return
}

// -----

// x is limited to 2^31 - 1 blocks; a static grid within the limits is left
// alone.
// CHECK-LABEL: func.func @dynamic_x(
// CHECK: %[[LIMIT:.*]] = arith.constant 2147483647 : index
// CHECK: arith.minui %{{.*}}, %[[LIMIT]]
// CHECK: gpu.launch
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.for
// CHECK: gpu.terminator
// CHECK-LABEL: func.func @static(
// CHECK-NOT: arith.minui
// CHECK-NOT: scf.for
func.func @dynamic_x(%n: index, %out: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}
func.func @static(%out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%bx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// Two dynamic dims nest, x inside y inside z; a body that synchronizes
// (here a barrier) ends each iteration with one more, so no thread reuses
// shared memory before all have left the previous iteration.
// CHECK-LABEL: func.func @nested(
// CHECK: gpu.launch blocks(%[[BX:[^,]*]], %[[BY:[^,]*]], %[[BZ:[^)]*]]) in
// CHECK-NEXT: scf.for %[[Z:.*]] = %[[BZ]] to
// CHECK-NEXT: scf.for %[[X:.*]] = %[[BX]] to
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[Z]], %[[BY]], %[[X]]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
func.func @nested(%x: index, %z: index, %out: memref<?x2x?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %x, %gy = %c2, %gz = %z)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier
    memref.store %zero, %out[%bz, %by, %bx] : memref<?x2x?xf32>
    gpu.terminator
  }
  return
}
