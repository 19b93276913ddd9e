// RUN: tracec-opt %s -split-input-file --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize --trace-cpu-tile-contractions="cpu=skylake-avx512 ukernels=1" --canonicalize | FileCheck %s
// RUN: tracec-opt %s -split-input-file --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize --trace-cpu-tile-contractions="cpu=skylake-avx512 ukernel-relayouts=1" --canonicalize | FileCheck %s --check-prefix=RELAYOUTS

// The "tile" step with ukernels: the contraction stops at its kc panels
// inside the task loop, and the packs' and unpack's transposes become
// scf.foralls of tasks of 32768 elements or more (outer dims tiled by 1,
// then by the smallest divisor that keeps a task that large: the lhs pack
// 32x512x1x8 by 8 rows of tiles, the rhs 16x512x1x32 by 2); each is marked
// for trace-cpu-lower-to-ukernels. Nothing is left for the vectorizer (no
// micro-kernel steps, no relayout tiles).
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%{{.*}}) = (0) to (32) step (8)
// CHECK:   linalg.transpose ins(%{{.*}} : tensor<8x8x512x1xf32>) outs(%{{.*}} : tensor<8x512x1x8xf32>) permutation = [0, 2, 3, 1] {trace.ukernel}
// CHECK: scf.forall (%{{.*}}) = (0) to (16) step (2)
// CHECK:   linalg.transpose ins(%{{.*}} : tensor<512x1x2x32xf32>) outs(%{{.*}} : tensor<2x512x1x32xf32>) permutation = [2, 0, 1, 3] {trace.ukernel}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 16) step (16, 8)
// CHECK:   scf.for {{.*}} = %c0 to %c512 step %c256
// CHECK-NOT: scf.for
// CHECK:     linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 32, 1>, trace.ukernel} ins(%{{.*}}, %{{.*}} : tensor<16x256x1x8xf32>, tensor<8x256x1x32xf32>) outs(%{{.*}} : tensor<16x8x8x32xf32>)
// CHECK: scf.forall.in_parallel
// CHECK: scf.forall (%{{.*}}) = (0) to (32) step (8)
// CHECK:   linalg.transpose ins(%{{.*}} : tensor<8x16x8x32xf32>) outs(%{{.*}} : tensor<8x8x16x32xf32>) permutation = [0, 2, 1, 3] {trace.ukernel}

// With ukernel-relayouts only, the relayouts are the same calls and the
// contraction is tiled down to its generated micro-kernel steps.
// RELAYOUTS-LABEL: func.func @matmul
// RELAYOUTS: linalg.transpose {{.*}} permutation = [0, 2, 3, 1] {trace.ukernel}
// RELAYOUTS: linalg.transpose {{.*}} permutation = [2, 0, 1, 3] {trace.ukernel}
// RELAYOUTS: linalg.contract
// RELAYOUTS-NOT: trace.ukernel
// RELAYOUTS-SAME: trace.micro_kernel = array<i64: 8, 32, 1>
// RELAYOUTS-SAME: tensor<1x1x8x32xf32>
// RELAYOUTS: linalg.transpose {{.*}} permutation = [0, 2, 1, 3] {trace.ukernel}
func.func @matmul(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %0 = trace.matmul %a, %b : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}

// -----

// f64 has no micro-kernel: today's register tiles and relayout tiles.
// CHECK-LABEL: func.func @matmul_f64
// RELAYOUTS-LABEL: func.func @matmul_f64
// RELAYOUTS-NOT: trace.ukernel
// CHECK-NOT: trace.ukernel
// CHECK: linalg.transpose {{.*}} {trace.micro_kernel}
// CHECK-NOT: trace.ukernel
func.func @matmul_f64(%a: tensor<64x64xf64>, %b: tensor<64x64xf64>) -> tensor<64x64xf64> {
  %0 = trace.matmul %a, %b : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
  return %0 : tensor<64x64xf64>
}
