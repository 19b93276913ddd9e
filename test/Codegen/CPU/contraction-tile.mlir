// RUN: tracec-opt %s --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize --trace-cpu-tile-contractions=cpu=skylake-avx512 --canonicalize | FileCheck %s

// The "tile" step on a packed 256x512x512 matmul (AVX-512: 8x32 register
// tiles; mc x nc = 128 x 256 result blocks; kc = 256).
// CHECK-LABEL: func.func @matmul
// Packs become transposes of the expanded operand, a few tiles at a time
// in parallel: 8 rows x 16 columns of A, 16 rows x 32 columns of B.
// CHECK: tensor.expand_shape %arg0 {{.*}} into tensor<32x8x512x1xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 512) step (1, 16)
// CHECK:   linalg.transpose ins(%{{.*}} : tensor<1x8x16x1xf32>) outs(%{{.*}} : tensor<1x16x1x8xf32>) permutation = [0, 2, 3, 1] {trace.micro_kernel}
// CHECK: scf.forall.in_parallel
// CHECK: tensor.expand_shape %arg1 {{.*}} into tensor<512x1x16x32xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (16, 512) step (1, 16)
// CHECK:   linalg.transpose ins(%{{.*}} : tensor<16x1x1x32xf32>) outs(%{{.*}} : tensor<1x16x1x32xf32>) {{.*}} {trace.micro_kernel}
// CHECK: scf.forall.in_parallel
// The contraction: result blocks in parallel, each zeroed by its own task
// (no fill of the whole result before), then kc slices, then N1 and M1
// register tiles, then k; one micro-kernel step remains.
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 16) step (16, 8)
// CHECK:   linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x8x8x32xf32>)
// CHECK:   scf.for {{.*}} = %c0 to %c512 step %c256
// CHECK:     scf.for {{.*}} = %c0 to %c8 step %c1
// CHECK:       scf.for {{.*}} = %c0 to %c16 step %c1
// CHECK:         scf.for {{.*}} = %c0 to %c256 step %c1
// CHECK:           linalg.contract {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x1x8xf32>, tensor<1x1x1x32xf32>) outs(%{{.*}} : tensor<1x1x8x32xf32>)
// CHECK: scf.forall.in_parallel
// The unpack: one 8x32 tile at a time, in parallel; its result is the
// function's.
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (32, 16)
// CHECK:   linalg.transpose ins(%{{.*}} : tensor<1x1x8x32xf32>) outs(%{{.*}} : tensor<1x8x1x32xf32>) permutation = [0, 2, 1, 3] {trace.micro_kernel}
// CHECK: tensor.collapse_shape
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @matmul(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %0 = trace.matmul %a, %b : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}

// A `?` batch: the left operand is padded to whole 8-row tiles only when
// the batch is not a multiple of 8 at run time; otherwise the pack reads
// %arg0 itself (no fill and copy of the whole operand).
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[HIGH:.*]] = affine.apply #{{.*}}()[%{{.*}}, %{{.*}}]
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[HIGH]], %c0
// CHECK: %[[ROWS:.*]] = scf.if %[[NONE]] -> (tensor<?x512xf32>) {
// CHECK:   scf.yield %arg0 : tensor<?x512xf32>
// CHECK: } else {
// CHECK:   %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0] high[%[[HIGH]], 0]
// CHECK:   scf.yield %[[PADDED]]
// CHECK: tensor.expand_shape %[[ROWS]] {{.*}} into tensor<?x8x512x1xf32>
func.func @dynamic_rows(%a: tensor<?x512xf32>, %b: tensor<512x512xf32>) -> tensor<?x512xf32> {
  %0 = trace.matmul %a, %b : (tensor<?x512xf32>, tensor<512x512xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}
