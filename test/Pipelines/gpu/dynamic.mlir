// A ? dim through the GPU pipeline: one compile for every size. Grids are
// computed at run time from the arguments' dims (memref.dim, ceil-div by the
// tile), clamped to CUDA's limits, and the kernels stride over the blocks
// beyond them; partial tiles are masked by bounds checks against the dims.
// Reductions keep their block-per-output kernel and matmuls their
// shared-memory tiles. The shape functions stay host code: no CUDA call.
// RUN: tracec-opt %s --tracec-gpu-pipeline --mlir-print-ir-after=trace-gpu-grid-stride --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefix=PTX --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefix=PTX --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s --check-prefix=HOST

// Elementwise over ? x 1024: 256 threads along the 1024, a block per row
// in y: ceil-div of the rows, clamped to 65535, rows strided over by the
// grid's y; the mask compares with the rows at run time.
// GRID-LABEL: func.func @scale(
// GRID: %[[BLOCKS:.*]] = affine.apply affine_map<{{.*}}ceildiv{{.*}}>(%[[ROWS:[^)]*]])
// GRID: %[[MIN:.*]] = arith.minui %[[BLOCKS]], %c65535
// GRID: %[[GY:.*]] = arith.maxui %[[MIN]], %c1
// GRID: gpu.launch blocks(%{{[^,]*}}, %[[BY:[^,]*]], %{{[^)]*}}) in (%{{[^ ]*}} = %{{[^,]*}}, %[[NY:[^ ]*]] = %[[GY]],
// GRID-NEXT: scf.for %[[Y:.*]] = %[[BY]] to %[[BLOCKS]] step %[[NY]] {
// GRID: arith.cmpi ult, %{{.*}}, %[[ROWS]] : index
// GRID: scf.if
// GRID: math.exp

// PTX-LABEL: // gpu.binary @scale_kernel (
// PTX: .visible .entry scale_kernel(
// PTX: mov.u32 {{%r[0-9]+}}, %ctaid.y;
// PTX: mov.u32 {{%r[0-9]+}}, %nctaid.y;
// PTX: setp.ge.u64
// PTX: ld.global.b32
// PTX: st.global.b32
func.func @scale(%x: tensor<?x1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %0 = trace.mul %x, %b : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  %1 = trace.exp %0 : tensor<?x1024xf32>
  return %1 : tensor<?x1024xf32>
}

// Row sums of ? x ?: a block per row (the grid's x is the rows, clamped
// to 2^31 - 1), all 256 threads striding up to the columns, the tree
// (gpu.all_reduce), and a barrier ending each grid-stride iteration.
// GRID-LABEL: func.func @rowsum(
// The sums' zero fill runs in the same kernel (trace-gpu-row-blocks), on
// thread 0 of each row's block.
// GRID: %[[R:.*]] = memref.dim %{{[0-9]+}}, %c0 : memref<?xf32>
// GRID: %[[C:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xf32>
// GRID: %[[MIN:.*]] = arith.minui %[[R]], %c2147483647{{[_0-9]*}}
// GRID: %[[GX:.*]] = arith.maxui %[[MIN]]
// GRID: gpu.launch blocks(%[[BX:[^,]*]], {{.*}} in (%[[NX:[^ ]*]] = %[[GX]], {{.*}} threads(%[[TX:[^,]*]], {{.*}} = %c256,
// GRID-NEXT: scf.for %{{.*}} = %[[BX]] to %[[R]] step %[[NX]] {
// GRID: scf.for %{{.*}} = %[[TX]] to %[[C]] step %c256
// GRID: gpu.all_reduce add
// GRID: gpu.barrier
// GRID-NEXT: }
// GRID-NEXT: gpu.terminator

// PTX-LABEL: // gpu.binary @rowsum_kernel{{(_[0-9]+)?}} (
// PTX: .visible .entry rowsum_kernel(
// PTX: .shared
// PTX: mov.u32 {{%r[0-9]+}}, %nctaid.x;
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync 0;
func.func @rowsum(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// ? x ? matmul: 16 x 16 tiles, ceil(n / 16) x ceil(m / 16) blocks from the
// dims, shared-memory slabs up to k.
// GRID-LABEL: func.func @mm(
// The first launch zero-fills C.
// GRID: gpu.launch
// GRID: gpu.terminator
// GRID: %[[M:.*]] = memref.dim %[[A:.*]], %c0 : memref<?x?xf32>
// GRID: %[[K:.*]] = memref.dim %[[A]], %c1 : memref<?x?xf32>
// GRID: %[[N:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xf32>
// GRID: %[[TN:.*]] = arith.ceildivui %[[N]], %c16
// GRID: %[[TM:.*]] = arith.ceildivui %[[M]], %c16
// GRID: arith.minui %[[TN]], %c2147483647
// GRID: arith.minui %[[TM]], %c65535
// GRID: gpu.launch {{.*}} workgroup(
// GRID-NEXT: scf.for %{{.*}} to %[[TM]] step
// GRID-NEXT: scf.for %{{.*}} to %[[TN]] step
// GRID: scf.for %{{.*}} = %c0{{.*}} to %[[K]] step %c16
// GRID: arith.cmpi ult, %{{.*}}, %[[M]] : index
// GRID: gpu.barrier

// PTX-LABEL: // gpu.binary @mm_kernel_{{[0-9]+}} (
// PTX: .visible .entry mm_kernel(
// PTX-DAG: .shared .align 16 .b8 {{.*}}[1024];
// PTX-DAG: .shared .align 16 .b8 {{.*}}[1024];
// PTX: st.shared.b32
// PTX: bar.sync 0;
// PTX: ld.shared.b32
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = trace.matmul %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// The shape functions: the dims and the check (k of a against k of b),
// in host code on the caller's buffers, with no CUDA call.
// HOST-LABEL: llvm.func @__shape_mm(
// HOST-NOT: mgpu
// HOST-NOT: gpu.launch_func
// HOST: llvm.return
