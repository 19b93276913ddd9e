// RUN: tracec-opt %s --trace-gpu-mma-matmul=tf32=1 -split-input-file | FileCheck %s

// C tiles into 128 x 128 blocks: 8 warps (256 threads) a block, each a
// 32 x 64 part of C as 2 x 8 mma tiles whose 16 accumulators stay in
// registers. A and B reach dynamic shared memory (30720 + 26112 bytes)
// in 32-deep slabs, three stages (rows padded by 8 halves), 16 bytes (8
// halves) a cp.async: 2 copies of A and 2 of B a thread, a group a slab.
// Slabs 0 and 1 start before the loop; each slab: wait until two groups
// are pending (an empty group counted) and for the other warps, start the
// copies of slab s + 2 into stage (s + 2) mod 3 (else an empty group),
// then per 16-deep k-step 2 ldmatrix.x4 of A, 8 transposed ldmatrix.x2 of
// B and 16 mma.sync.
// CHECK-DAG: #[[LANE:.*]] = affine_map<(d0) -> (d0 mod 32)>
// CHECK-DAG: #[[WROW:.*]] = affine_map<(d0) -> (((d0 floordiv 32) floordiv 2) * 32)>
// CHECK-DAG: #[[WCOL:.*]] = affine_map<(d0) -> (((d0 floordiv 32) mod 2) * 64)>
// CHECK-DAG: #[[AROW:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-DAG: #[[ACOL:.*]] = affine_map<(d0) -> ((d0 mod 4) * 8)>
// CHECK-DAG: #[[AROW2:.*]] = affine_map<(d0) -> (d0 floordiv 4 + 64)>
// CHECK-DAG: #[[BROW:.*]] = affine_map<(d0) -> (d0 floordiv 16)>
// CHECK-DAG: #[[BCOL:.*]] = affine_map<(d0) -> ((d0 mod 16) * 8)>
// CHECK-DAG: #[[BROW2:.*]] = affine_map<(d0) -> (d0 floordiv 16 + 16)>
// CHECK-DAG: #[[ROW16:.*]] = affine_map<(d0) -> (d0 mod 16)>
// CHECK-DAG: #[[HALF:.*]] = affine_map<(d0) -> ((d0 floordiv 16) * 8)>
// CHECK-LABEL: func.func @f16(
// CHECK-SAME: %[[A:.*]]: memref<256x64xf16>, %[[B:.*]]: memref<64x128xf16>, %[[C:.*]]: memref<256x128xf32>)
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %c1{{(_[0-9]+)?}}, %{{.*}} = %c2, %{{.*}} = %{{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) dynamic_shared_memory_size %c56832_i32
// CHECK: %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[SA:.*]] = memref.view %[[SHARED]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.view %[[SHARED]][%c30720][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x136xf16, #gpu.address_space<workgroup>>
// CHECK: %[[L:.*]] = affine.apply #[[LANE]](%[[T]])
// CHECK: %[[WR:.*]] = affine.apply #[[WROW]](%[[T]])
// CHECK: %[[WC:.*]] = affine.apply #[[WCOL]](%[[T]])
// CHECK: %[[BR:.*]] = arith.muli %[[BY]], %c128
// CHECK: %[[BC:.*]] = arith.muli %[[BX]], %c128
// CHECK-COUNT-16: vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK: %[[R:.*]] = affine.apply #[[AROW]](%[[T]])
// CHECK: %[[K:.*]] = affine.apply #[[ACOL]](%[[T]])
// CHECK: %[[GR:.*]] = arith.addi %[[BR]], %[[R]]
// CHECK: %[[GK:.*]] = arith.addi %{{.*}}, %[[K]]
// CHECK: %[[CA1:.*]] = nvgpu.device_async_copy %[[A]][%[[GR]], %[[GK]]], %[[SA]][%{{.*}}, %[[R]], %[[K]]], 8 {bypassL1} : memref<256x64xf16> to memref<3x128x40xf16, #gpu.address_space<workgroup>>
// CHECK: affine.apply #[[AROW2]](%[[T]])
// CHECK: %[[CA2:.*]] = nvgpu.device_async_copy %[[A]]
// CHECK: affine.apply #[[BROW]](%[[T]])
// CHECK: affine.apply #[[BCOL]](%[[T]])
// CHECK: %[[CB1:.*]] = nvgpu.device_async_copy %[[B]]{{.*}}, 8 {bypassL1} : memref<64x128xf16> to memref<3x32x136xf16, #gpu.address_space<workgroup>>
// CHECK: affine.apply #[[BROW2]](%[[T]])
// CHECK: %[[CB2:.*]] = nvgpu.device_async_copy %[[B]]
// CHECK: nvgpu.device_async_create_group %[[CA1]], %[[CA2]], %[[CB1]], %[[CB2]]
// CHECK-COUNT-2: nvgpu.device_async_copy %[[A]]{{.*}}, %[[SA]][%c1{{.*}},
// CHECK-COUNT-2: nvgpu.device_async_copy %[[B]]{{.*}}, %[[SB]][%c1{{.*}},
// CHECK: nvgpu.device_async_create_group
// CHECK: %[[SUMS:.*]]:16 = scf.for %[[S:.*]] = %{{.*}} to %c2{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<2x2xf32>,
// CHECK: %[[ALL:.*]] = nvgpu.device_async_create_group{{ *$}}
// CHECK: nvgpu.device_async_wait %[[ALL]] {numGroups = 2 : i32}
// CHECK: gpu.barrier
// CHECK: %[[STAGE:.*]] = arith.remui %[[S]], %c3
// CHECK: %[[NEXT:.*]] = arith.addi %[[S]], %c2
// CHECK: %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %c2
// CHECK: scf.if %[[MORE]] {
// CHECK: arith.muli %[[NEXT]], %c32
// CHECK: %[[LATER:.*]] = arith.remui %[[NEXT]], %c3
// CHECK-COUNT-2: nvgpu.device_async_copy %[[A]]{{.*}}, %[[SA]][%[[LATER]],
// CHECK-COUNT-2: nvgpu.device_async_copy %[[B]]{{.*}}, %[[SB]][%[[LATER]],
// CHECK: nvgpu.device_async_create_group
// CHECK: } else {
// CHECK: nvgpu.device_async_create_group{{ *$}}
// CHECK: }
// CHECK: affine.apply #[[ROW16]](%[[L]])
// CHECK: affine.apply #[[HALF]](%[[L]])
// CHECK: nvgpu.ldmatrix %[[SA]][%[[STAGE]], %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<3x128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[SA]]
// CHECK-COUNT-8: nvgpu.ldmatrix %[[SB]][%[[STAGE]], %{{.*}}, %{{.*}}] {numTiles = 2 : i32, transpose = true} : memref<3x32x136xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-COUNT-16: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-2: nvgpu.ldmatrix %[[SA]]
// CHECK-COUNT-8: nvgpu.ldmatrix %[[SB]]
// CHECK-COUNT-16: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK-COUNT-64: memref.store %{{.*}}, %[[C]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.matmul
func.func @f16(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %c: memref<256x128xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>) outs(%c : memref<256x128xf32>)
  return
}

// -----

// n = 64: blocks of 64 x 64, 4 warps of 32 x 32 (2 x 4 tiles). bf16
// fragments come by ldmatrix as well; nvvm.mma.sync multiplies them.
// CHECK-LABEL: func.func @bf16(
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{(_[0-9]+)?}}, %{{.*}} = %c2, %{{.*}} = %{{.*}}) threads({{.*}}) in (%{{.*}} = %c128, {{.*}} dynamic_shared_memory_size %{{.*}}
// CHECK: %[[SA:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x64x40xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c3 step
// CHECK: nvgpu.ldmatrix %[[SA]]{{.*}} -> vector<4x2xbf16>
// CHECK: nvgpu.ldmatrix %[[SA]]{{.*}} -> vector<4x2xbf16>
// CHECK-COUNT-4: nvgpu.ldmatrix %[[SB]]{{.*}} {numTiles = 2 : i32, transpose = true} {{.*}} -> vector<2x2xbf16>
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.terminator
func.func @bf16(%a: memref<128x96xbf16>, %b: memref<96x64xbf16>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xbf16>, memref<96x64xbf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// TF32: 16-deep slabs (64 bytes of a row), 4 floats a cp.async; ldmatrix
// does not hand out 32-bit elements as m16n8k4 takes them, so each lane
// loads its fragment from shared memory itself: A's (lane/4, lane%4) and
// (lane/4 + 8, lane%4), B's (lane%4, lane/4), 4 k-steps a slab.
// CHECK-DAG: #[[G:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-DAG: #[[T:.*]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-DAG: #[[G8:.*]] = affine_map<(d0) -> (d0 floordiv 4 + 8)>
// CHECK-LABEL: func.func @tf32(
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %{{.*}}
// CHECK: %[[SA:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x20xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x16x136xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}}, 4 {bypassL1} : memref<128x48xf32> to memref<3x128x20xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: affine.apply #[[G]]
// CHECK: affine.apply #[[T]]
// CHECK: memref.load %[[SA]][%[[STAGE:.*]], %{{.*}}, %{{.*}}]
// CHECK: affine.apply #[[G8]]
// CHECK: memref.load %[[SA]][%[[STAGE]]
// CHECK: vector.from_elements {{.*}} : vector<2x1xf32>
// CHECK: memref.load %[[SB]][%[[STAGE]]
// CHECK: vector.from_elements {{.*}} : vector<1x1xf32>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 4], tf32Enabled}
// CHECK-COUNT-63: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 4], tf32Enabled}
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
func.func @tf32(%a: memref<128x48xf32>, %b: memref<48x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x48xf32>, memref<48x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// One warp per 16 x 8 tile instead (32 threads, no shared memory): k not a
// whole slab (16 of 32), or A a strided view (cp.async reads 16 aligned
// bytes: only row-major operands are staged).
// CHECK-LABEL: func.func @warp_tiles(
// CHECK-COUNT-2: gpu.launch blocks({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %{{.*}}) threads({{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) {
// CHECK-NOT: nvgpu.device_async_copy
func.func @warp_tiles(%a: memref<128x16xf16>, %b: memref<16x128xf16>, %c: memref<128x128xf32>,
                      %d: memref<128x64xf16, strided<[128, 1]>>, %e: memref<64x128xf16>) {
  linalg.matmul ins(%a, %b : memref<128x16xf16>, memref<16x128xf16>) outs(%c : memref<128x128xf32>)
  linalg.matmul ins(%d, %e : memref<128x64xf16, strided<[128, 1]>>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Batched, B transposed (attention's Q K^T, as trace.matmul {transpose_b}
// of f16 lowers): a grid z per batch, whose index leads every access of
// Q, K and S. K's slab keeps its n x k layout (rows padded by 16 bytes),
// and ldmatrix hands it out untransposed: for the fragment's k pairs, the
// n x k slab is already the right way round (lane l: row l mod 8, columns
// 8 (l / 8 mod 2) onwards).
// CHECK-DAG: #[[ROW8:.*]] = affine_map<(d0) -> (d0 mod 8)>
// CHECK-DAG: #[[SECOND8:.*]] = affine_map<(d0) -> (((d0 floordiv 8) mod 2) * 8)>
// CHECK-LABEL: func.func @batched_transposed_b(
// CHECK-SAME: %[[Q:.*]]: memref<3x64x32xf16>, %[[K:.*]]: memref<3x64x32xf16>, %[[S:.*]]: memref<3x64x64xf32>)
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[Z:.*]]) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c3{{.*}}) threads({{.*}}) in (%{{.*}} = %c128, {{.*}} dynamic_shared_memory_size %{{.*}}
// CHECK: %[[SQ:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x64x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SK:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x64x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[BATCH:.*]] = arith.remui %[[Z]], %c3
// CHECK: memref.load %[[S]][%[[BATCH]], %{{.*}}, %{{.*}}]
// CHECK: nvgpu.device_async_copy %[[Q]][%[[BATCH]], %{{.*}}, %{{.*}}], %[[SQ]]
// CHECK: nvgpu.device_async_copy %[[K]][%[[BATCH]], %{{.*}}, %{{.*}}], %[[SK]]
// CHECK: scf.for
// CHECK: %[[R8:.*]] = affine.apply #[[ROW8]]
// CHECK: %[[S8:.*]] = affine.apply #[[SECOND8]]
// CHECK: nvgpu.ldmatrix %[[SQ]][{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %[[R8]]
// CHECK: nvgpu.ldmatrix %[[SK]][%{{.*}}, %[[N]], %[[S8]]] {numTiles = 2 : i32, transpose = false} : memref<3x64x40xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK: memref.store %{{.*}}, %[[S]][%[[BATCH]], %{{.*}}, %{{.*}}]
#mk = affine_map<(b, m, n, k) -> (b, m, k)>
#nk = affine_map<(b, m, n, k) -> (b, n, k)>
#mn = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched_transposed_b(%q: memref<3x64x32xf16>, %k: memref<3x64x32xf16>, %s: memref<3x64x64xf32>) {
  linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<3x64x32xf16>, memref<3x64x32xf16>) outs(%s : memref<3x64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A transposed (the backward pass's X^T dY): A's slab keeps its k x m
// layout (rows padded by 8 halves), and a transposing ldmatrix.x4 hands
// out the fragment (lane l: row k + l mod 8 + 8 (l / 16), columns
// m + 8 (l / 8 mod 2) onwards).
// CHECK-DAG: #[[ROW8:.*]] = affine_map<(d0) -> (d0 mod 8)>
// CHECK-DAG: #[[SECOND16:.*]] = affine_map<(d0) -> ((d0 floordiv 16) * 8)>
// CHECK-DAG: #[[SECOND8:.*]] = affine_map<(d0) -> (((d0 floordiv 8) mod 2) * 8)>
// CHECK-LABEL: func.func @transposed_a(
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %{{.*}}
// CHECK: %[[SA:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x136xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x136xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: %[[R8:.*]] = affine.apply #[[ROW8]]
// CHECK: %[[S16:.*]] = affine.apply #[[SECOND16]]
// CHECK: %[[S8:.*]] = affine.apply #[[SECOND8]]
// CHECK: %[[K:.*]] = arith.addi %[[R8]], %[[S16]]
// CHECK: %[[M:.*]] = arith.addi %{{.*}}, %[[S8]]
// CHECK: nvgpu.ldmatrix %[[SA]][%{{.*}}, %[[K]], %[[M]]] {numTiles = 4 : i32, transpose = true} : memref<3x32x136xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[SB]]{{.*}} {numTiles = 2 : i32, transpose = true}
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn2 = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_a(%a: memref<64x128xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#km, #kn, #mn2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x128xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// TF32 with B transposed: B's n x k slab, each lane loading its fragment
// (k = lane % 4, n = lane / 4) at [n, k]; a body that is not a widening
// multiply-add (here a subtraction) is left alone.
// CHECK-DAG: #[[G:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-DAG: #[[T:.*]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-LABEL: func.func @tf32_transposed_b(
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %{{.*}}
// CHECK: %{{.*}} = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x64x20xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x64x20xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: vector.from_elements {{.*}} : vector<2x1xf32>
// CHECK: %[[KK:.*]] = affine.apply #[[T]]
// CHECK: %[[K:.*]] = arith.addi %c0{{.*}}, %[[KK]]
// CHECK: %[[NN:.*]] = affine.apply #[[G]]
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %[[NN]]
// CHECK: memref.load %[[SB]][%{{.*}}, %[[N]], %[[K]]]
// CHECK: vector.from_elements {{.*}} : vector<1x1xf32>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 4], tf32Enabled}
// CHECK: linalg.generic
// CHECK-NOT: gpu.launch
#mk2 = affine_map<(m, n, k) -> (m, k)>
#nk2 = affine_map<(m, n, k) -> (n, k)>
#mn2 = affine_map<(m, n, k) -> (m, n)>
func.func @tf32_transposed_b(%a: memref<64x16xf32>, %b: memref<64x16xf32>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#mk2, #nk2, #mn2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x16xf32>, memref<64x16xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#mk2, #nk2, #mn2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x16xf32>, memref<64x16xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.subf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A dense layer on a [batch, tokens, features] input: its two m dims,
// adjacent in X and Y, collapse into one of 4 x 32 = 128 rows (upstream's
// collapsing of iteration dims, X and Y viewed through collapse_shape),
// which the block kernel takes.
// CHECK-LABEL: func.func @dense(
// CHECK-SAME: %[[X:.*]]: memref<4x32x64xf16>, %[[W:.*]]: memref<64x128xf16>, %[[Y:.*]]: memref<4x32x128xf32>)
// CHECK-DAG: %[[X2:.*]] = memref.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : memref<4x32x64xf16> into memref<128x64xf16>
// CHECK-DAG: %[[Y2:.*]] = memref.collapse_shape %[[Y]] {{\[}}[0, 1], [2]] : memref<4x32x128xf32> into memref<128x128xf32>
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// CHECK: memref.load %[[Y2]]
// CHECK: nvgpu.device_async_copy %[[X2]]
// CHECK: nvgpu.device_async_copy %[[W]]
// CHECK-NOT: linalg.generic
#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#kn3 = affine_map<(b, m, n, k) -> (k, n)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @dense(%x: memref<4x32x64xf16>, %w: memref<64x128xf16>, %y: memref<4x32x128xf32>) {
  linalg.generic {indexing_maps = [#bmk, #kn3, #bmn], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x32x64xf16>, memref<64x128xf16>) outs(%y : memref<4x32x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}
