// Matmuls that tile into whole blocks (128 x 128 or 64 x 64 of C, k in
// 64-byte slabs) stage A and B, three slabs deep, through dynamic shared
// memory (declared .extern: 16-byte aligned, after any static shared
// memory) with cp.async (16 bytes a copy, bypassing L1), wait until two
// groups are pending and for the block, and feed mma.sync from ldmatrix
// (x4 for A, transposed x2 for B); TF32 fragments are loaded from shared
// memory element by element.
// LLVM lays out the slab loop's blocks in its own order.
// RUN: tracec-opt %s --tracec-gpu-pipeline="chip=sm_80 tf32=1" --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=".extern .func"

// CHECK-LABEL: // gpu.binary @half_kernel_{{[0-9]+}}
// CHECK-DAG: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK-DAG: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16;
// CHECK-DAG: cp.async.commit_group;
// CHECK-DAG: cp.async.wait_group 2;
// CHECK-DAG: bar.sync 0;
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-LABEL: // gpu.binary @brain_kernel_{{[0-9]+}}
// CHECK-DAG: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK-DAG: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16;
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-LABEL: // gpu.binary @single_kernel_{{[0-9]+}}
// CHECK-DAG: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16;
// CHECK-DAG: ld.shared.b32
// CHECK-DAG: mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32
// CHECK-NOT: ldmatrix
// Batched with B transposed (attention's scores): its n x k slab through
// an untransposed ldmatrix.x2; A transposed: a transposing ldmatrix.x4.
// CHECK-LABEL: // gpu.binary @scores_kernel_{{[0-9]+}}
// CHECK-DAG: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16;
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-LABEL: // gpu.binary @weight_grad_kernel_{{[0-9]+}}
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @half(%a: tensor<256x64xf16>, %b: tensor<64x128xf16>) -> tensor<256x128xf16> {
  %0 = trace.matmul %a, %b : (tensor<256x64xf16>, tensor<64x128xf16>) -> tensor<256x128xf16>
  return %0 : tensor<256x128xf16>
}

func.func @brain(%a: tensor<128x96xbf16>, %b: tensor<96x64xbf16>) -> tensor<128x64xbf16> {
  %0 = trace.matmul %a, %b : (tensor<128x96xbf16>, tensor<96x64xbf16>) -> tensor<128x64xbf16>
  return %0 : tensor<128x64xbf16>
}

func.func @single(%a: tensor<128x48xf32>, %b: tensor<48x128xf32>) -> tensor<128x128xf32> {
  %0 = trace.matmul %a, %b : (tensor<128x48xf32>, tensor<48x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}

func.func @scores(%q: tensor<4x64x32xf16>, %k: tensor<4x64x32xf16>) -> tensor<4x64x64xf16> {
  %0 = trace.matmul %q, %k {transpose_b} : (tensor<4x64x32xf16>, tensor<4x64x32xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

func.func @weight_grad(%x: tensor<64x128xbf16>, %dy: tensor<64x64xbf16>) -> tensor<128x64xbf16> {
  %0 = trace.matmul %x, %dy {transpose_a} : (tensor<64x128xbf16>, tensor<64x64xbf16>) -> tensor<128x64xbf16>
  return %0 : tensor<128x64xbf16>
}
