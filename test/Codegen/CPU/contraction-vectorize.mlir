// RUN: tracec-opt %s --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize --trace-cpu-tile-contractions=cpu=skylake-avx512 --trace-cpu-vectorize-contractions --canonicalize --cse --loop-invariant-subset-hoisting | FileCheck %s
// RUN: tracec-opt %s --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize --trace-cpu-tile-contractions=cpu=skylake-avx512 --trace-cpu-vectorize-contractions --canonicalize --cse --loop-invariant-subset-hoisting --one-shot-bufferize=bufferize-function-boundaries --trace-cpu-lower-contraction-vectors=cpu=skylake-avx512 --canonicalize | FileCheck %s --check-prefix=FMA

// The "vectorize" step: the micro-kernel step is one vector.contract of a
// row of 8 (A) and a row of 32 (B) into the 8x32 accumulator, which the k
// loop carries as a vector (in registers).
// CHECK-LABEL: func.func @matmul
// CHECK: vector.transfer_read {{.*}} : tensor<1x8x16x1xf32>, vector<1x16x1x8xf32>
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<1x1x8x32xf32>, vector<1x1x8x32xf32>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[V:.*]] = %[[ACC]]) -> (tensor<1x1x8x32xf32>, vector<1x1x8x32xf32>)
// CHECK:   %[[A:.*]] = vector.transfer_read {{.*}} vector<1x1x1x8xf32>
// CHECK:   %[[B:.*]] = vector.transfer_read {{.*}} vector<1x1x1x32xf32>
// CHECK:   %[[C:.*]] = vector.contract {{.*}} %[[A]], %[[B]], %[[V]] : vector<1x1x1x8xf32>, vector<1x1x1x32xf32> into vector<1x1x8x32xf32>
// CHECK:   scf.yield %{{.*}}, %[[C]]
// CHECK: vector.transfer_write %[[LOOP]]#1

// After bufferization, trace-cpu-lower-contraction-vectors makes each step
// eight broadcast FMAs on rows of 32.
// FMA-LABEL: func.func @matmul
// FMA: scf.for {{.*}} -> (vector<8x32xf32>)
// FMA-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// FMA: scf.yield
// FMA-NOT: vector.contract
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = trace.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// On bf16 pairs (AVX512_BF16: cooperlake), a step takes a pair of k: per
// row of 8, the row's pair broadcast as one 32-bit word and two vdpbf16ps
// of 16 columns each.
// RUN: tracec-opt %s -split-input-file --trace-to-linalg --trace-cpu-pack-contractions=cpu=cooperlake --canonicalize --trace-cpu-tile-contractions=cpu=cooperlake --trace-cpu-vectorize-contractions --canonicalize --cse --loop-invariant-subset-hoisting --one-shot-bufferize=bufferize-function-boundaries --trace-cpu-lower-contraction-vectors=cpu=cooperlake --canonicalize | FileCheck %s --check-prefix=DOT
// In the pipeline, the packs move bf16 pairs as pairs or 32-bit words,
// never element by element.
// RUN: tracec-opt %s -split-input-file --tracec-cpu-pipeline=target-cpu=cooperlake --mlir-print-ir-after=trace-cpu-lower-contraction-vectors -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAIRS
// PAIRS-LABEL: func.func @bf16_pairs
// PAIRS-NOT: : bf16 into vector
// PAIRS: return
// DOT-LABEL: func.func @bf16_pairs
// DOT: scf.for {{.*}} -> (vector<8x32xf32>)
// DOT: vector.bitcast {{.*}} : vector<16xbf16> to vector<8xi32>
// DOT-COUNT-16: x86vector.avx512.dot {{.*}} : vector<32xbf16> -> vector<16xf32>
// DOT: scf.yield
// DOT-NOT: vector.contract
func.func @bf16_pairs(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %0 = trace.matmul %a, %b : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %0 : tensor<64x64xbf16>
}
