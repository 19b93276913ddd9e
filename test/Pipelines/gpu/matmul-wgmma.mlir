// On sm_90a, 16-bit matmuls of whole 128 x 128 tiles of C run as
// warpgroups: TMA (cp.async.bulk.tensor) loads completing mbarrier phases,
// wgmma.mma_async m64n128k16 between a fence and a commit, waiting for all
// but the last group in the loop and for all after it. Their dynamic
// shared memory is declared .extern (trace-gpu-extern-dynamic-shared), so
// it starts after the mbarriers instead of overlapping them. The host
// encodes the tensor maps. Other chips keep mma.sync.
// RUN: tracec-opt %s --tracec-gpu-pipeline="chip=sm_90a" --trace-print-gpu-assembly -o /dev/null | FileCheck %s
// RUN: tracec-opt %s --tracec-gpu-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=HOST
// RUN: tracec-opt %s --tracec-gpu-pipeline="chip=sm_90" --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefix=SM90

// CHECK-LABEL: // gpu.binary @half_kernel_{{[0-9]+}}
// CHECK: .target sm_90a
// CHECK-DAG: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK-DAG: .shared .align 8 .b8 __mbarrier[32];
// CHECK-DAG: mbarrier.init.shared.b64
// CHECK-DAG: fence.mbarrier_init.release.cluster;
// CHECK-DAG: mbarrier.arrive.expect_tx.shared.b64
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: mbarrier.try_wait.parity.shared.b64
// CHECK-DAG: wgmma.fence.sync.aligned;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK-DAG: wgmma.commit_group.sync.aligned;
// CHECK-DAG: wgmma.wait_group.sync.aligned {{.*}}1;
// CHECK-DAG: wgmma.wait_group.sync.aligned {{.*}}0;
// CHECK-LABEL: // gpu.binary @brain_kernel_{{[0-9]+}}
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// HOST-COUNT-4: llvm.call @mgpuTensorMapEncodeTiledMemref(

// SM90-NOT: wgmma
// SM90: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM90-NOT: wgmma
func.func @half(%a: tensor<256x320xf16>, %b: tensor<320x256xf16>) -> tensor<256x256xf16> {
  %0 = trace.matmul %a, %b : (tensor<256x320xf16>, tensor<320x256xf16>) -> tensor<256x256xf16>
  return %0 : tensor<256x256xf16>
}

func.func @brain(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>) -> tensor<128x128xbf16> {
  %0 = trace.matmul %a, %b : (tensor<128x64xbf16>, tensor<64x128xbf16>) -> tensor<128x128xbf16>
  return %0 : tensor<128x128xbf16>
}
