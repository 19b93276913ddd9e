// RUN: tracec-opt %s --trace-gpu-tiled-matmul=tile=8 -split-input-file | FileCheck %s

// A batched matmul with B transposed: grid (n/8, m/8, batch), 8x8 threads,
// two 8x8 workgroup tiles; the operands are read through their indexing
// maps (B at [batch, col, k]).
// CHECK-LABEL: func.func @batched_transposed(
// CHECK-SAME: %[[A:.*]]: memref<3x16x24xf32>, %[[B:.*]]: memref<3x40x24xf32>, %[[C:.*]]: memref<3x16x40xf32>)
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %[[BZ:.*]]) in (%{{.*}} = %c5, %{{.*}} = %c2, %{{.*}} = %c3) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[TA:.*]] : memref<8x8xf32, #gpu.address_space<workgroup>>, %[[TB:.*]] : memref<8x8xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[SUM:.*]] = scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[TA]][%[[TY]], %[[TX]]]
// CHECK: memref.load %[[B]]
// CHECK: memref.store %{{.*}}, %[[TB]][%[[TY]], %[[TX]]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[TA]]
// CHECK: memref.load %[[TB]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.load %[[C]]
// CHECK: arith.addf %{{.*}}, %[[SUM]]
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
func.func @batched_transposed(%a: memref<3x16x24xf32>, %b: memref<3x40x24xf32>, %c: memref<3x16x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x16x24xf32>, memref<3x40x24xf32>) outs(%c : memref<3x16x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Integer matmuls multiply and add as integers.
// CHECK-LABEL: func.func @integer(
// CHECK: gpu.launch
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK-NOT: linalg.matmul
func.func @integer(%a: memref<4x8xi32>, %b: memref<8x4xi32>, %c: memref<4x4xi32>) {
  linalg.matmul ins(%a, %b : memref<4x8xi32>, memref<8x4xi32>) outs(%c : memref<4x4xi32>)
  return
}

// -----

// Mixed element types (f16 products accumulated in f32) are left to the
// loop lowering.
// CHECK-LABEL: func.func @mixed(
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul
func.func @mixed(%a: memref<4x8xf16>, %b: memref<8x4xf16>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf16>, memref<8x4xf16>) outs(%c : memref<4x4xf32>)
  return
}
