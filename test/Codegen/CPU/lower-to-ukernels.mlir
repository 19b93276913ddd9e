// RUN: tracec-opt %s -split-input-file --trace-cpu-lower-to-ukernels=cpu=skylake-avx512 | FileCheck %s
// RUN: tracec-opt %s -split-input-file --trace-cpu-lower-to-ukernels=cpu=haswell | FileCheck %s --check-prefix=AVX2
// RUN: tracec-opt %s -split-input-file --trace-cpu-lower-to-ukernels=cpu=x86-64 | FileCheck %s --check-prefix=NONE

// A kc panel of a packed contraction (lhs [M1][K1][k0][m0], rhs
// [N1][K1][k0][n0], acc [M1][N1][m0][n0]) becomes one mmt4d call with the
// aligned pointers, offsets, sizes and strides of the three buffers. The
// variant follows the target CPU; with no AVX2+FMA there is none, and the
// op stays (unmarked) for the loop lowering.
// CHECK-LABEL: func.func @mmt4d
// CHECK-NOT: linalg.contract
// CHECK: memref.extract_strided_metadata %arg0
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: llvm.inttoptr
// CHECK: call @tracec_uk_mmt4d_f32_avx512({{.*}}) {trace.work = 131072 : i64} : (!llvm.ptr, index, !llvm.ptr, index, !llvm.ptr, index, index, index, index, index, index, index, index, index, index, index, index, index, index) -> ()
// CHECK: func.func private @tracec_uk_mmt4d_f32_avx512(!llvm.ptr, index, !llvm.ptr, index, !llvm.ptr, index,
// AVX2-LABEL: func.func @mmt4d
// AVX2: linalg.contract
// AVX2-NOT: trace.ukernel
// AVX2-NOT: call @tracec_uk_mmt4d
// NONE-LABEL: func.func @mmt4d
// NONE: linalg.contract
// NONE-NOT: trace.ukernel
// NONE-NOT: call
func.func @mmt4d(%lhs: memref<4x64x1x8xf32>, %rhs: memref<2x64x1x32xf32>,
                 %acc: memref<4x2x8x32xf32>) {
  linalg.contract
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d5, d3)>,
                       affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5, d4)>,
                       affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
      ins(%lhs, %rhs : memref<4x64x1x8xf32>, memref<2x64x1x32xf32>)
      outs(%acc : memref<4x2x8x32xf32>) {trace.micro_kernel = array<i64: 8, 32, 1>, trace.ukernel}
  return
}

// -----

// The same on AVX2 tiles (6x16).
// AVX2-LABEL: func.func @mmt4d_avx2
// AVX2: call @tracec_uk_mmt4d_f32_avx2(
func.func @mmt4d_avx2(%lhs: memref<4x64x1x6xf32>, %rhs: memref<2x64x1x16xf32>,
                      %acc: memref<4x2x6x16xf32>) {
  linalg.contract
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d5, d3)>,
                       affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5, d4)>,
                       affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
      ins(%lhs, %rhs : memref<4x64x1x6xf32>, memref<2x64x1x16xf32>)
      outs(%acc : memref<4x2x6x16xf32>) {trace.micro_kernel = array<i64: 6, 16, 1>, trace.ukernel}
  return
}

// -----

// Inner tiles that are not dense rows (a strided view) keep the op.
// CHECK-LABEL: func.func @strided_tile
// CHECK: linalg.contract
// CHECK-NOT: call
func.func @strided_tile(%lhs: memref<4x64x1x8xf32, strided<[1024, 16, 16, 2]>>,
                        %rhs: memref<2x64x1x32xf32>, %acc: memref<4x2x8x32xf32>) {
  linalg.contract
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d5, d3)>,
                       affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5, d4)>,
                       affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
      ins(%lhs, %rhs : memref<4x64x1x8xf32, strided<[1024, 16, 16, 2]>>, memref<2x64x1x32xf32>)
      outs(%acc : memref<4x2x8x32xf32>) {trace.micro_kernel = array<i64: 8, 32, 1>, trace.ukernel}
  return
}

// -----

// A pack's transpose: sizes in the result's order, the source's strides
// permuted to match, unused dims of size 1 and stride 0.
// CHECK-LABEL: func.func @pack_transpose
// CHECK: %[[SRC:.*]], %{{.*}}, %[[SSIZES:.*]]:4, %[[SSTRIDES:.*]]:4 = memref.extract_strided_metadata %arg0
// CHECK: %[[DST:.*]], %{{.*}}, %[[DSIZES:.*]]:4, %[[DSTRIDES:.*]]:4 = memref.extract_strided_metadata %arg1
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: call @tracec_uk_transpose_f32_avx512(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DSIZES]]#0, %[[DSIZES]]#1, %[[DSIZES]]#2, %[[DSIZES]]#3, %[[ONE]], %[[ONE]], %[[SSTRIDES]]#0, %[[SSTRIDES]]#2, %[[SSTRIDES]]#3, %[[SSTRIDES]]#1, %[[ZERO]], %[[ZERO]], %[[DSTRIDES]]#0, %[[DSTRIDES]]#1, %[[DSTRIDES]]#2, %[[DSTRIDES]]#3, %[[ZERO]], %[[ZERO]])
// NONE-LABEL: func.func @pack_transpose
// NONE: linalg.transpose
func.func @pack_transpose(%src: memref<13x8x70x1xf32>, %dst: memref<13x70x1x8xf32>) {
  linalg.transpose ins(%src : memref<13x8x70x1xf32>) outs(%dst : memref<13x70x1x8xf32>) permutation = [0, 2, 3, 1] {trace.ukernel}
  return
}

// -----

// Copies of 4-byte elements at a function's top level call the same
// kernel, as an identity relayout; f64 copies and copies in loops stay.
// CHECK-LABEL: func.func @copies
// CHECK: call @tracec_uk_transpose_f32_avx512(
// CHECK: call @tracec_uk_transpose_f32_avx512(
// CHECK: linalg.copy {{.*}} memref<4xf64>
// CHECK: scf.for
// CHECK:   linalg.copy {{.*}} memref<8xf32>
func.func @copies(%a: memref<3x5xf32>, %b: memref<3x5xf32, strided<[8, 1]>>,
                  %i: memref<7xi32>, %j: memref<7xi32>,
                  %x: memref<4xf64>, %y: memref<4xf64>,
                  %r: memref<8xf32>, %s: memref<8xf32>) {
  linalg.copy ins(%a : memref<3x5xf32>) outs(%b : memref<3x5xf32, strided<[8, 1]>>)
  linalg.copy ins(%i : memref<7xi32>) outs(%j : memref<7xi32>)
  linalg.copy ins(%x : memref<4xf64>) outs(%y : memref<4xf64>)
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %c2 step %c1 {
    linalg.copy ins(%r : memref<8xf32>) outs(%s : memref<8xf32>)
  }
  return
}
