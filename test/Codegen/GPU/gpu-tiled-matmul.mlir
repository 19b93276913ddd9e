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

// -----

// Dynamic m, n, k: the grid is ceil(n / 8) x ceil(m / 8) from memref.dim
// at run time, the slab loop runs to k, and the bounds checks compare with
// the dims.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>)
// CHECK-DAG: %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK-DAG: %[[K:.*]] = memref.dim %[[A]], %c1
// CHECK-DAG: %[[N:.*]] = memref.dim %[[B]], %c1
// CHECK-DAG: %[[GX:.*]] = arith.ceildivui %[[N]], %c8{{(_[0-9]+)?}} : index
// CHECK-DAG: %[[GY:.*]] = arith.ceildivui %[[M]], %c8{{(_[0-9]+)?}} : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{[^ ]*}} = %[[GX]], %{{[^ ]*}} = %[[GY]], %{{[^ ]*}} = %c1{{[_0-9]*}}) threads({{.*}}) in (%{{[^ ]*}} = %c8{{[_0-9]*}}, %{{[^ ]*}} = %c8{{[_0-9]*}},
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]] step
// CHECK: arith.cmpi ult, %{{.*}}, %[[M]] : index
// CHECK: arith.cmpi ult, %{{.*}}, %[[K]] : index
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK-NOT: linalg.matmul
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// A dynamic batch: the grid's z is its size; batch indices come from the
// block's z.
// CHECK-LABEL: func.func @dynamic_batch(
// CHECK: %[[BATCH:.*]] = memref.dim %{{.*}}, %c0
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c{{[0-9]+}}, %{{.*}} = %c{{[0-9]+}}, %{{.*}} = %[[BATCH]])
// CHECK-NOT: linalg.batch_matmul
func.func @dynamic_batch(%a: memref<?x16x24xf32>, %b: memref<?x24x40xf32>, %c: memref<?x16x40xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x16x24xf32>, memref<?x24x40xf32>) outs(%c : memref<?x16x40xf32>)
  return
}
