// The host side: buffers in CUDA managed memory (the caller's input copied
// in, the output copied back), the kernel module loaded by a global
// constructor, launches and frees through the runtime shim's mgpu* calls.
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s

// CHECK-LABEL: llvm.func @chain(
// CHECK: %[[MANAGED:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %{{.*}}, %[[SHARED:.*]]) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK: "llvm.intr.memcpy"(%[[MANAGED]],
// CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @chain_kernel::@chain_kernel blocks in ({{.*}}) threads in ({{.*}}) : i64 args(
// CHECK: "llvm.intr.memcpy"(%{{.*}}, %{{.*}},
// CHECK: llvm.call @mgpuMemFree(
// CHECK: llvm.return
// CHECK: gpu.binary @chain_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, {{.*}}assembly = "
func.func @chain(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = trace.exp %x : tensor<64x1024xf32>
  %1 = trace.relu %0 : tensor<64x1024xf32>
  return %1 : tensor<64x1024xf32>
}
