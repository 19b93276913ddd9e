// tracec --cuda-chip --tf32: the object's f32 matmul runs on tensor cores
// in TF32 (its PTX has the m16n8k4 TF32 mma); without --tf32 it stays f32
// on the CUDA cores; --tf32 without a chip is an error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry mm --cuda-chip sm_80 --tf32 -o %t/tf32.o
// RUN: llvm-strings %t/tf32.o | FileCheck %s --check-prefix=TF32
// RUN: tracec %s --entry mm --cuda-chip sm_80 -o %t/f32.o
// RUN: llvm-strings %t/f32.o | FileCheck %s --check-prefix=F32
// RUN: not tracec %s --entry mm --tf32 -o %t/cpu.o 2>&1 | FileCheck %s --check-prefix=CPU

// TF32: mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32
// F32-NOT: mma.sync
// F32: .visible .entry
// F32-NOT: mma.sync
// CPU: error: --tf32 is for GPU code: it needs --cuda-chip
func.func @mm(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>) -> tensor<32x32xf32> {
  %c = trace.matmul %a, %b : (tensor<32x16xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
  return %c : tensor<32x32xf32>
}
