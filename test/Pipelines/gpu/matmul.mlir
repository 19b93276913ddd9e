// A matmul runs as a shared-memory tiled kernel: 16x16 threads per block,
// two 16x16 f32 tiles in shared memory (1024 bytes each), each k-slab
// loaded from global memory into them, a barrier, 16 products from shared
// memory, a barrier. Sizes that are not multiples of 16 load zeros
// outside the matrices.
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s --check-prefix=HOST
// RUN: not tracec-opt %s --tracec-gpu-pipeline=matmul-tile=64 2>&1 | FileCheck %s --check-prefix=BAD

// The first kernel zero-fills C.
// CHECK-LABEL: // gpu.binary @mm_kernel_0
// CHECK: .visible .entry mm_kernel(
// CHECK-DAG: .shared .align 16 .b8 __wg_mm_kernel_0[1024];
// CHECK-DAG: .shared .align 16 .b8 __wg_mm_kernel_1[1024];
// The barrier after the products is the slab loop's latch, which LLVM's
// block layout puts first.
// CHECK: bar.sync 0;
// CHECK: ld.global.b32
// CHECK: st.shared.b32
// CHECK: ld.global.b32
// CHECK: st.shared.b32
// CHECK-NEXT: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK-NEXT: ld.shared.b32
// CHECK-NEXT: mul.rn.f32
// CHECK-NEXT: add.rn.f32
// CHECK: st.global.b32

// C is 100x50: a grid of ceil(50/16) x ceil(100/16) = 4 x 7 blocks.
// HOST-LABEL: llvm.func @mm(
// HOST-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : index) : i64
// HOST-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : index) : i64
// HOST-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : index) : i64
// HOST-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @mm_kernel_0::@mm_kernel blocks in (%[[C4]], %[[C7]], %[[ONE]]) threads in (%[[C16]], %[[C16]], %[[ONE]])

// BAD: error: trace-gpu-tiled-matmul: tile must be 1 to 32 (tile * tile threads per block), got 64
func.func @mm(%a: tensor<100x70xf32>, %b: tensor<70x50xf32>) -> tensor<100x50xf32> {
  %0 = trace.matmul %a, %b : (tensor<100x70xf32>, tensor<70x50xf32>) -> tensor<100x50xf32>
  return %0 : tensor<100x50xf32>
}
