// RUN: tracec-opt %s --trace-gpu-block-reductions -split-input-file | FileCheck %s

// sum over d1 of x * y (a fused producer): one block per row, threads take
// strided turns over the row, gpu.all_reduce combines them, thread 0 adds
// the total to the output's initial value.
// CHECK-LABEL: func.func @sum_of_products(
// CHECK-SAME: %[[X:.*]]: memref<8x100xf32>, %[[Y:.*]]: memref<8x100xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C8]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]],
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PARTIAL:.*]] = scf.for %[[R:.*]] = %[[TX]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: memref.load %[[X]]
// CHECK: memref.load %[[Y]]
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: %[[S:.*]] = arith.addf %[[P]], %[[ACC]] : f32
// CHECK: scf.yield %[[S]] : f32
// CHECK: %[[TOTAL:.*]] = gpu.all_reduce add %[[PARTIAL]] uniform {
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]]
// CHECK: %[[NEW:.*]] = arith.addf %[[TOTAL]], %[[OLD]] : f32
// CHECK: memref.store %[[NEW]], %[[OUT]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum_of_products(%x: memref<8x100xf32>, %y: memref<8x100xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [#map, #map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : memref<8x100xf32>, memref<8x100xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matmul keeps its loop lowering (its outputs spread over threads), as
// does a reduction whose combiner is not a known gpu.all_reduce kind.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul
// CHECK: linalg.generic
func.func @left_alone(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>, %v: memref<8xf32>, %s: memref<f32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v : memref<8xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %d = arith.subf %acc, %x : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// Dynamic sizes: a block per row, as many rows as memref.dim says (the
// grid is computed at run time); the reduction's length is unknown, so
// every thread (256) takes part, striding up to the dim's value.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[ROWS:.*]] = memref.dim %[[X]], %c0
// CHECK-DAG: %[[COLS:.*]] = memref.dim %[[X]], %c1
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ROWS]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK: scf.for %{{.*}} = %[[TX]] to %[[COLS]] step %[[C256]]
// CHECK: gpu.all_reduce add
// CHECK-NOT: linalg.generic
func.func @dynamic_rows(%x: memref<?x?xf32>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A full reduction over a ? x 4 input: one block; the threads stride over
// the n * 4 elements, each index split back into (i, j) by the static 4.
// CHECK-LABEL: func.func @dynamic_full(
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c0
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1,
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[N]], %[[C4]] : index
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[TOTAL]] step
// CHECK: arith.remui %[[R]], %c4{{(_[0-9]+)?}} :
// CHECK: arith.divui %[[R]], %c4{{(_[0-9]+)?}} :
// CHECK: gpu.all_reduce maxnumf
func.func @dynamic_full(%x: memref<?x4xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<?x4xf32>) outs(%out : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %a, %acc : f32
    linalg.yield %m : f32
  }
  return
}
