// Reductions run as a block-level tree: one block per output element, a
// strided loop per thread, then warp shuffles and shared memory between
// warps (bar.sync), thread 0 storing the total. A full reduction (no
// parallel dimension) is one block.
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s --check-prefix=HOST
// RUN: not tracec-opt %s --tracec-gpu-pipeline=reduction-threads=48 2>&1 | FileCheck %s --check-prefix=BAD

// The row sums' kernel first fills each row's output with the reduction's
// initial value (thread 0, then a barrier: trace-gpu-row-blocks).
// CHECK-LABEL: // gpu.binary @rows_kernel
// CHECK: .visible .entry rows_kernel(
// CHECK: .shared .align 4 .b8 __wg_rows_kernel_0[128];
// CHECK: st.global.b32
// CHECK: bar.sync 0;
// CHECK: ld.global.b32
// CHECK: add.rn.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: st.global.b32

// CHECK-LABEL: // gpu.binary @all_max_kernel
// CHECK: .shared .align 4 .b8 __wg_all_max_kernel_0[128];
// CHECK: max.NaN.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: st.global.b32

// 64 blocks (one per row) of 256 threads; the full reduction: 1 block.
// HOST-LABEL: llvm.func @rows(
// HOST-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// HOST-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// HOST-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @rows_kernel::@rows_kernel blocks in (%[[C64]], %[[ONE]], %[[ONE]]) threads in (%[[C256]], %[[ONE]], %[[ONE]])
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @all_max(
// HOST-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// HOST-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @all_max_kernel::@all_max_kernel blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[C256]], %[[ONE]], %[[ONE]])

// BAD: error: trace-gpu-row-blocks: threads must be a power of two from 32 to 1024, got 48
func.func @rows(%x: tensor<64x1000xf32>) -> tensor<64xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<64x1000xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
func.func @all_max(%x: tensor<64x1000xf32>) -> tensor<f32> {
  %0 = trace.reduce_max %x {axes = array<i64: 0, 1>} : tensor<64x1000xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
