// RUN: tracec-opt %s --trace-parallel-loops="min-work=1000" -split-input-file | FileCheck %s

// A nest of at least min-work operations keeps its first dimension
// parallel; the others become serial loops inside it.
// CHECK-LABEL: func.func @large_2d
// CHECK:       scf.parallel (%[[I:.*]]) = (%c0) to (%c64) step (%c1) {
// CHECK-NEXT:    scf.for %[[J:.*]] = %c0 to %c32 step %c1 {
// CHECK-NEXT:      memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT:   scf.parallel
func.func @large_2d(%a: memref<64x32xf32>, %b: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<64x32xf32>
    memref.store %v, %b[%i, %j] : memref<64x32xf32>
  }
  return
}

// -----

// Under min-work: serial, no fork.
// CHECK-LABEL: func.func @small
// CHECK-NOT:   scf.parallel
// CHECK:       scf.for
// CHECK-NEXT:    scf.for
func.func @small(%a: memref<8x8xf32>, %b: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c8) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<8x8xf32>
    memref.store %v, %b[%i, %j] : memref<8x8xf32>
  }
  return
}

// -----

// The work counts the inner loops: 16 x 100 reduction steps x 4 ops. The
// parallel loop nested in the outer one runs serially in each thread.
// CHECK-LABEL: func.func @nested
// CHECK:       scf.parallel (%{{.*}}) = (%c0) to (%c16) step (%c1) {
// CHECK-NEXT:    scf.for %{{.*}} = %c0 to %c100 step %c1 {
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c16 step %c1 {
// CHECK-NOT:   scf.parallel
func.func @nested(%a: memref<16x100xf32>, %b: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    scf.for %k = %c0 to %c100 step %c1 {
      scf.parallel (%j) = (%c0) to (%c16) step (%c1) {
        %v = memref.load %a[%i, %k] : memref<16x100xf32>
        %w = memref.load %b[%i, %j] : memref<16x16xf32>
        %s = arith.addf %v, %w : f32
        memref.store %s, %b[%i, %j] : memref<16x16xf32>
      }
    }
  }
  return
}

// -----

// A first dimension of one iteration is not worth a fork: the next one
// runs in parallel.
// CHECK-LABEL: func.func @unit_outer
// CHECK:       scf.for %{{.*}} = %c0 to %c1 step %c1 {
// CHECK-NEXT:    scf.parallel (%{{.*}}) = (%c0) to (%c4096) step (%c1) {
func.func @unit_outer(%a: memref<1x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c4096) step (%c1, %c1) {
    memref.store %f, %a[%i, %j] : memref<1x4096xf32>
  }
  return
}

// -----

// A dynamic trip count counts as 64 (a typical batch): 64 stores stay
// serial.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT:   scf.parallel
// CHECK:       scf.for
func.func @dynamic(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// A dynamic trip count (a batch) counts as 64: 64 x 4 rows of 2 ops stay
// serial under min-work=1000, 64 x 16 rows split.
// CHECK-LABEL: func.func @dynamic_small
// CHECK-NOT:   scf.parallel
// CHECK-LABEL: func.func @dynamic_large
// CHECK:       scf.parallel
func.func @dynamic_small(%a: memref<?x4xf32>, %b: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %a, %c0 : memref<?x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<?x4xf32>
    memref.store %v, %b[%i, %j] : memref<?x4xf32>
  }
  return
}
func.func @dynamic_large(%a: memref<?x16xf32>, %b: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %n = memref.dim %a, %c0 : memref<?x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c16) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<?x16xf32>
    memref.store %v, %b[%i, %j] : memref<?x16xf32>
  }
  return
}

// -----

// Blocks of a `?` number of rows by 2 blocks of columns, each block heavy
// (a 32 x 64 loop): the row blocks may be a single one at run time (a
// batch of 64 in blocks of 128), so the two loops are coalesced and the
// threads share rows x 2 blocks, as a static compile would split the
// columns when the rows are one block.
// CHECK-LABEL: func.func @dynamic_blocks
// CHECK:       %[[N:.*]] = affine.apply #{{.*}}()[%{{.*}}]
// CHECK:       scf.parallel (%[[B:.*]]) = (%c0{{.*}}) to (%[[N]]) step (%c1{{.*}}) {
// CHECK-NEXT:    %[[IJ:.*]]:2 = affine.delinearize_index %[[B]] into (%{{.*}}, 2)
// CHECK:           arith.addi %[[IJ]]#0
// CHECK:           arith.muli %[[IJ]]#1
// CHECK-NOT:   scf.parallel
func.func @dynamic_blocks(%a: memref<?x128xf32>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %c2) step (%c1, %c1) {
    scf.for %r = %c0 to %c32 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %row = arith.addi %i, %r : index
        %first = arith.muli %j, %c64 : index
        %col = arith.addi %first, %c : index
        memref.store %f, %a[%row, %col] : memref<?x128xf32>
      }
    }
  }
  return
}

// -----

// Light work per block: a division per iteration would not pay; the
// dynamic loop alone is split.
// CHECK-LABEL: func.func @dynamic_light_blocks
// CHECK:       scf.parallel (%{{.*}}) = (%c0) to (%arg1) step (%c1) {
// CHECK-NEXT:    scf.for
// CHECK-NOT:   affine.delinearize_index
func.func @dynamic_light_blocks(%a: memref<?x128xf32>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %c2) step (%c1, %c1) {
    scf.for %r = %c0 to %c32 step %c1 {
      memref.store %f, %a[%r, %j] : memref<?x128xf32>
    }
  }
  return
}
