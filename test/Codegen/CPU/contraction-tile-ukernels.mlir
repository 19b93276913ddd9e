// RUN: tracec-opt %s -split-input-file --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize --trace-cpu-tile-contractions="cpu=skylake-avx512 ukernels=1" --canonicalize | FileCheck %s

// The "tile" step with ukernels: the contraction stops at its kc panels
// inside the task loop, and the packs' and unpack's transposes stay whole;
// each is marked for trace-cpu-lower-to-ukernels. Nothing is left for the
// vectorizer (no micro-kernel steps, no relayout tiles).
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.transpose ins(%{{.*}} : tensor<32x8x512x1xf32>) outs(%{{.*}} : tensor<32x512x1x8xf32>) permutation = [0, 2, 3, 1] {trace.ukernel}
// CHECK: linalg.transpose ins(%{{.*}} : tensor<512x1x16x32xf32>) outs(%{{.*}} : tensor<16x512x1x32xf32>) permutation = [2, 0, 1, 3] {trace.ukernel}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 16) step (16, 8)
// CHECK:   scf.for {{.*}} = %c0 to %c512 step %c256
// CHECK-NOT: scf.for
// CHECK:     linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 32, 1>, trace.ukernel} ins(%{{.*}}, %{{.*}} : tensor<16x256x1x8xf32>, tensor<8x256x1x32xf32>) outs(%{{.*}} : tensor<16x8x8x32xf32>)
// CHECK: scf.forall.in_parallel
// CHECK: linalg.transpose ins(%{{.*}} : tensor<32x16x8x32xf32>) outs(%{{.*}} : tensor<32x8x16x32xf32>) permutation = [0, 2, 1, 3] {trace.ukernel}
func.func @matmul(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %0 = trace.matmul %a, %b : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}

// -----

// f64 has no micro-kernel: today's register tiles and relayout tiles.
// CHECK-LABEL: func.func @matmul_f64
// CHECK-NOT: trace.ukernel
// CHECK: linalg.transpose {{.*}} {trace.micro_kernel}
// CHECK-NOT: trace.ukernel
func.func @matmul_f64(%a: tensor<64x64xf64>, %b: tensor<64x64xf64>) -> tensor<64x64xf64> {
  %0 = trace.matmul %a, %b : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
  return %0 : tensor<64x64xf64>
}
