// RUN: tracec-opt %s --trace-gpu-mma-matmul=tf32=1 -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-gpu-mma-matmul -split-input-file | FileCheck %s --check-prefix=F32

// f16 products accumulated in f32 (what trace.matmul of f16 lowers to):
// one warp (32 threads) per 16x8 tile of C, a grid of (48/8) x (32/16)
// blocks. Each lane loads its 4 elements of C's tile once (the PTX ISA's
// m16n8k16 accumulator layout: (lane/4 + 8*(i/2), 2*(lane%4) + i%2)), then
// per 16-wide k-slab its 8 halves of A and 4 of B and one mma.sync, the
// accumulator in registers; then stores its 4 elements.
// CHECK-DAG: #[[GROUP:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0) -> ((d0 mod 4) * 2)>
// CHECK-DAG: #[[COL1:.*]] = affine_map<(d0) -> ((d0 mod 4) * 2 + 1)>
// CHECK-DAG: #[[GROUP8:.*]] = affine_map<(d0) -> (d0 floordiv 4 + 8)>
// CHECK-DAG: #[[COL8:.*]] = affine_map<(d0) -> ((d0 mod 4) * 2 + 8)>
// CHECK-DAG: #[[COL9:.*]] = affine_map<(d0) -> ((d0 mod 4) * 2 + 9)>
// CHECK-LABEL: func.func @f16(
// CHECK-SAME: %[[A:.*]]: memref<32x64xf16>, %[[B:.*]]: memref<64x48xf16>, %[[C:.*]]: memref<32x48xf32>)
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %[[C6]], %{{.*}} = %[[C2]], %{{.*}} = %{{.*}}) threads(%[[LANE:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C32]],
// CHECK: %[[ROW0:.*]] = arith.muli %[[BY]], %c16
// CHECK: %[[COL0:.*]] = arith.muli %[[BX]], %c8
// CHECK: %[[G:.*]] = affine.apply #[[GROUP]](%[[LANE]])
// CHECK: %[[R:.*]] = arith.addi %[[ROW0]], %[[G]]
// CHECK: %[[T:.*]] = affine.apply #[[COL]](%[[LANE]])
// CHECK: %[[CC:.*]] = arith.addi %[[COL0]], %[[T]]
// CHECK: memref.load %[[C]][%[[R]], %[[CC]]]
// CHECK-COUNT-3: memref.load %[[C]]
// CHECK: %[[ACC:.*]] = vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK: %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16{{.*}} iter_args(%[[IN:.*]] = %[[ACC]]) -> (vector<2x2xf32>)
// CHECK: affine.apply #[[GROUP]](%[[LANE]])
// CHECK: affine.apply #[[COL]](%[[LANE]])
// CHECK: memref.load %[[A]]
// CHECK: affine.apply #[[COL1]](%[[LANE]])
// CHECK: memref.load %[[A]]
// CHECK: affine.apply #[[GROUP8]](%[[LANE]])
// CHECK: memref.load %[[A]]
// CHECK: memref.load %[[A]]
// CHECK: affine.apply #[[COL8]](%[[LANE]])
// CHECK: memref.load %[[A]]
// CHECK: affine.apply #[[COL9]](%[[LANE]])
// CHECK-COUNT-3: memref.load %[[A]]
// CHECK: %[[AF:.*]] = vector.from_elements {{.*}} : vector<4x2xf16>
// CHECK-COUNT-4: memref.load %[[B]]
// CHECK: %[[BF:.*]] = vector.from_elements {{.*}} : vector<2x2xf16>
// CHECK: %[[D:.*]] = nvgpu.mma.sync(%[[AF]], %[[BF]], %[[IN]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: scf.yield %[[D]]
// CHECK: vector.extract %[[SUM]][0, 0]
// CHECK: memref.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}]
// CHECK-COUNT-3: memref.store %{{.*}}, %[[C]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.matmul
func.func @f16(%a: memref<32x64xf16>, %b: memref<64x48xf16>, %c: memref<32x48xf32>) {
  linalg.matmul ins(%a, %b : memref<32x64xf16>, memref<64x48xf16>) outs(%c : memref<32x48xf32>)
  return
}

// -----

// f32 with tf32: m16n8k4 in TF32 (f32 accumulation), k in slabs of 4;
// A's fragment (lane/4, lane%4) and (lane/4 + 8, lane%4), B's
// (lane%4, lane/4). Without tf32, f32 matmuls keep full precision: left
// alone.
// CHECK-DAG: #[[G:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-DAG: #[[T:.*]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-DAG: #[[G8:.*]] = affine_map<(d0) -> (d0 floordiv 4 + 8)>
// CHECK-LABEL: func.func @f32(
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4{{.*}} iter_args
// CHECK: affine.apply #[[G]]
// CHECK: affine.apply #[[T]]
// CHECK: affine.apply #[[G8]]
// CHECK: affine.apply #[[T]]
// CHECK: vector.from_elements {{.*}} : vector<2x1xf32>
// CHECK: affine.apply #[[T]]
// CHECK: affine.apply #[[G]]
// CHECK: vector.from_elements {{.*}} : vector<1x1xf32>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 4], tf32Enabled} : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: linalg.matmul
// F32-LABEL: func.func @f32(
// F32-NOT: gpu.launch
// F32: linalg.matmul
func.func @f32(%a: memref<16x8xf32>, %b: memref<8x8xf32>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x8xf32>) outs(%c : memref<16x8xf32>)
  return
}

// -----

// bf16 products accumulated in f32: the same fragments, each register's
// two bf16 packed in an i32 for nvvm.mma.sync (MLIR 22's nvgpu.mma.sync
// cannot lower bf16 multiplicands).
// CHECK-LABEL: func.func @bf16(
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// CHECK: %[[AF:.*]] = vector.from_elements {{.*}} : vector<4x2xbf16>
// CHECK: %[[BF:.*]] = vector.from_elements {{.*}} : vector<2x2xbf16>
// CHECK: %[[ROW:.*]] = vector.extract %[[AF]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[PACKED:.*]] = vector.bitcast %[[ROW]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[A0:.*]] = vector.extract %[[PACKED]][0] : i32 from vector<1xi32>
// CHECK: nvvm.mma.sync A[%[[A0]], %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: llvm.extractvalue
// CHECK: vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK-NOT: linalg.matmul
func.func @bf16(%a: memref<16x32xbf16>, %b: memref<32x8xbf16>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x32xbf16>, memref<32x8xbf16>) outs(%c : memref<16x8xf32>)
  return
}

// -----

// Shapes that are not whole mma tiles (m = 20, k = 8), integers, and
// dynamic shapes are left to trace-gpu-tiled-matmul.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: gpu.launch
// CHECK-COUNT-4: linalg.matmul
func.func @left_alone(%a: memref<20x16xf16>, %b: memref<16x8xf16>, %c: memref<20x8xf32>,
                      %d: memref<16x8xf16>, %e: memref<8x8xf16>, %f: memref<16x8xf32>,
                      %i: memref<16x16xi32>, %j: memref<16x8xi32>, %k: memref<16x8xi32>,
                      %g: memref<?x16xf16>, %h: memref<?x8xf32>) {
  linalg.matmul ins(%a, %b : memref<20x16xf16>, memref<16x8xf16>) outs(%c : memref<20x8xf32>)
  linalg.matmul ins(%d, %e : memref<16x8xf16>, memref<8x8xf16>) outs(%f : memref<16x8xf32>)
  linalg.matmul ins(%i, %j : memref<16x16xi32>, memref<16x8xi32>) outs(%k : memref<16x8xi32>)
  linalg.matmul ins(%g, %b : memref<?x16xf16>, memref<16x8xf16>) outs(%h : memref<?x8xf32>)
  return
}
