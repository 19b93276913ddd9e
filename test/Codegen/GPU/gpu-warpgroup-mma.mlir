// RUN: tracec-opt %s --trace-gpu-mma-matmul=wgmma=1 -canonicalize -cse -split-input-file | FileCheck %s

// A bf16 matmul of whole 128 x 128 tiles: the host makes A's and B's
// tensor maps (128 x 64 and 64 x 64 boxes, 128-byte swizzle); a
// warpgroup per tile of C with 4 stages of 32 KB (and 1 KB to align them)
// of dynamic shared memory. Thread 0 loads slabs 0 and 1 (k = 128 is two
// slabs) by TMA, innermost coordinate first; each slab waits for its
// stage's mbarrier phase, is multiplied by wgmma (B n-major: transposed),
// and its stage is refilled one iteration later. The products go through
// shared memory into C.
// CHECK-LABEL: func.func @bf16(
// CHECK-SAME: %[[A:.*]]: memref<256x128xbf16>, %[[B:.*]]: memref<128x384xbf16>, %[[C:.*]]: memref<256x384xf32>
// CHECK: %[[MAPA:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c128, %c64] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: %[[MAPB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c3, {{.*}} = %c2, {{.*}} = %c1) threads(%[[T:[^,]*]], {{.*}}) in ({{.*}} = %c128, {{.*}} = %c1, {{.*}} = %c1) dynamic_shared_memory_size %c132096_i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: memref.extract_aligned_pointer_as_index %[[SMEM]]
// CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK-COUNT-4: nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %c1, predicate = %[[FIRST]]
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%c0], %c32768
// CHECK: nvgpu.tma.async.load %[[MAPA]][%c0, %[[ROW:.*]]], %[[BAR]][%c0]
// CHECK: nvgpu.tma.async.load %[[MAPB]][%[[COL:.*]], %c0], %[[BAR]][%c0]
// CHECK: nvgpu.tma.async.load %[[MAPB]][%{{.*}}, %c0], %[[BAR]][%c0]
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%c1], %c32768
// CHECK: nvgpu.tma.async.load %[[MAPA]][%c64, %[[ROW]]], %[[BAR]][%c1]
// CHECK: nvgpu.tma.async.load %[[MAPB]][%[[COL]], %c64], %[[BAR]][%c1]
// CHECK: nvgpu.tma.async.load %[[MAPB]][%{{.*}}, %c64], %[[BAR]][%c1]
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: }
// CHECK: %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK: %[[D:.*]] = scf.for %[[J:.*]] = %c0 to %c2 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK: %[[STAGE:.*]] = arith.remui %[[J]], %c4
// CHECK: %[[USE:.*]] = arith.divui %[[J]], %c4
// CHECK: %[[PARITY:.*]] = arith.trunci %{{.*}} : i64 to i1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[STAGE]]], %[[PARITY]]
// CHECK: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[MAPA]] : memref<128x64xbf16
// CHECK: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[MAPB]] : memref<64x128xbf16
// CHECK: %[[P:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[ACC]] {transposeB}
// CHECK: gpu.barrier
// CHECK: %[[REFILL:.*]] = arith.addi %[[J]], %c3
// CHECK: scf.if
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: scf.yield %[[P]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.warpgroup.mma.store %[[D]], %[[PRODUCTS:.*]] : <fragmented = vector<128x128xf32>> to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[R:.*]] = %c0 to %c128 step %c1 {
// CHECK: %[[X:.*]] = memref.load %[[PRODUCTS]][%[[R]], %[[T]]]
// CHECK: %[[Y:.*]] = memref.load %[[C]]
// CHECK: %[[S:.*]] = arith.addf %[[Y]], %[[X]]
// CHECK: memref.store %[[S]], %[[C]]
func.func @bf16(%a: memref<256x128xbf16>, %b: memref<128x384xbf16>, %c: memref<256x384xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xbf16>, memref<128x384xbf16>) outs(%c : memref<256x384xf32>)
  return
}

// -----

// What wgmma does not take goes to the mma.sync kernels: n not a multiple
// of 128, C of f16, f32 (TF32 is not asked for: no tensor cores).
// CHECK-LABEL: func.func @others(
// CHECK-NOT: nvgpu.warpgroup
// CHECK-NOT: nvgpu.tma
// CHECK: nvgpu.ldmatrix
// CHECK-NOT: nvgpu.warpgroup
func.func @others(%a: memref<256x64xf16>, %b: memref<64x192xf16>, %c: memref<256x192xf32>,
                  %d: memref<128x64xf16>, %e: memref<64x128xf16>, %f: memref<128x128xf16>,
                  %g: memref<128x64xf32>, %h: memref<64x128xf32>, %i: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x192xf16>) outs(%c : memref<256x192xf32>)
  linalg.matmul ins(%d, %e : memref<128x64xf16>, memref<64x128xf16>) outs(%f : memref<128x128xf16>)
  linalg.matmul ins(%g, %h : memref<128x64xf32>, memref<64x128xf32>) outs(%i : memref<128x128xf32>)
  return
}

// -----

// A dense layer on [batch, tokens, features]: its rows collapse into one
// m of 128, which a warpgroup takes.
// CHECK-LABEL: func.func @dense(
// CHECK: memref.collapse_shape
// CHECK: nvgpu.tma.create.descriptor
// CHECK: nvgpu.warpgroup.mma
func.func @dense(%x: memref<4x32x64xf16>, %w: memref<64x128xf16>, %y: memref<4x32x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, t, n, k) -> (b, t, k)>,
                                   affine_map<(b, t, n, k) -> (k, n)>,
                                   affine_map<(b, t, n, k) -> (b, t, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x32x64xf16>, memref<64x128xf16>) outs(%y : memref<4x32x128xf32>) {
  ^bb0(%xs: f16, %ws: f16, %acc: f32):
    %xe = arith.extf %xs : f16 to f32
    %we = arith.extf %ws : f16 to f32
    %p = arith.mulf %xe, %we : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
