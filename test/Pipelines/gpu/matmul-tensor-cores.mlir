// Matmuls whose shapes tile into tensor-core instructions run on them: the
// PTX has mma.sync, f16 and bf16 at m16n8k16 (f32 accumulation), f32 in
// TF32 at m16n8k4 where asked for (tf32=1); the default keeps f32 on the
// FMA units (the shared-memory tiled kernel). Chips before sm_80 have no
// such mma.sync: tiled kernels.
// RUN: tracec-opt %s --tracec-gpu-pipeline="chip=sm_80 tf32=1" --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline="chip=sm_90" --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefix=NO-TF32
// RUN: tracec-opt %s --tracec-gpu-pipeline="chip=sm_75 tf32=1" --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefix=OLD

// CHECK-LABEL: // gpu.binary @half_kernel
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-LABEL: // gpu.binary @brain_kernel
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-LABEL: // gpu.binary @single_kernel
// CHECK: mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32

// NO-TF32-LABEL: // gpu.binary @half_kernel
// NO-TF32: mma.sync.aligned.m16n8k16
// NO-TF32-LABEL: // gpu.binary @brain_kernel
// NO-TF32: mma.sync.aligned.m16n8k16.row.col.f32.bf16
// NO-TF32-LABEL: // gpu.binary @single_kernel
// NO-TF32-NOT: mma.sync
// NO-TF32: mul.rn.f32

// OLD-NOT: mma.sync
func.func @half(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %0 = trace.matmul %a, %b : (tensor<64x32xf16>, tensor<32x16xf16>) -> tensor<64x16xf16>
  return %0 : tensor<64x16xf16>
}

func.func @brain(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>) -> tensor<64x16xbf16> {
  %0 = trace.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xbf16>
  return %0 : tensor<64x16xbf16>
}

func.func @single(%a: tensor<32x8xf32>, %b: tensor<8x16xf32>) -> tensor<32x16xf32> {
  %0 = trace.matmul %a, %b : (tensor<32x8xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}
