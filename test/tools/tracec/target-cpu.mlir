// --target-cpu sizes the code for the CPU the object is for, not the host:
// the matmul's register tile is 6x16 f32 (rows of 16 = two AVX2 vectors)
// for x86-64-v3 and 8x32 (two AVX-512 vectors) for skylake-avx512.
//
// RUN: tracec %s --entry mm -o - --emit=mlir --target-cpu=x86-64-v3 | FileCheck %s --check-prefix=AVX2 --implicit-check-not="vector<32xf32>"
// RUN: tracec %s --entry mm -o - --emit=mlir --target-cpu=skylake-avx512 | FileCheck %s --check-prefix=AVX512
// RUN: tracec-opt %s "--tracec-cpu-pipeline=target-cpu=x86-64-v3" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// AVX2: llvm.intr.fmuladd({{.*}}) -> vector<16xf32>
// AVX512: llvm.intr.fmuladd({{.*}}) -> vector<32xf32>

// PIPELINE: trace-cpu-pack-contractions{cpu=x86-64-v3 min-work=4096}
// PIPELINE: trace-cpu-tile-contractions{cpu=x86-64-v3 ukernel-relayouts=false ukernels=false}
// PIPELINE: trace-cpu-vectorize{dynamic-inner=false target-cpu=x86-64-v3}
func.func @mm(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = trace.matmul %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
