// The forms trace-autodiff emits at `?` dims, through the GPU pipeline: a
// mean over a `?` batch divides by trace.size (host code: the element
// count from the dims), a bias gradient is broadcast back `like` the
// activations, a flat gradient is reshaped `like` an image batch. Each
// kernel's grid comes from the run-time dims.
// RUN: tracec-opt %s --tracec-gpu-pipeline --mlir-print-ir-after=trace-gpu-grid-stride --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefix=PTX --implicit-check-not=.extern

// GRID-LABEL: func.func @like_forms(
// The sum: one block of 256 threads striding over all ? x 4 elements.
// GRID: gpu.launch
// GRID: gpu.all_reduce add
// trace.size on the host: rows * 4, as f32; the mean divides by it.
// GRID: %[[ROWS:.*]] = memref.dim %{{.*}}, %c0 : memref<?x4xf32>
// GRID: %[[COUNT:.*]] = arith.muli %[[ROWS]], %c4 : index
// GRID: %[[COUNT64:.*]] = arith.index_cast %[[COUNT]] : index to i64
// GRID: %[[N:.*]] = arith.sitofp %[[COUNT64]] : i64 to f32
// GRID: memref.store %[[N]]
// GRID: arith.divf
// broadcast_to like: a grid over the rows of `like`, clamped, strided.
// GRID: %[[BROWS:.*]] = memref.dim %{{.*}}, %c0 : memref<?x4xf32>
// GRID: %[[BBLOCKS:.*]] = affine.apply affine_map<{{.*}}ceildiv{{.*}}>(%[[BROWS]])
// GRID: arith.minui %[[BBLOCKS]], %c65535
// GRID: gpu.launch
// GRID: scf.for %{{.*}} to %[[BBLOCKS]] step
// GRID: arith.cmpi ult, %{{.*}}, %[[BROWS]] : index
// GRID: memref.load %{{.*}} : memref<4xf32>
// reshape like: a grid over the ? x 2 x 2 result; each element read at its
// row-major position in the ? x 4 operand.
// GRID: %[[RROWS:.*]] = memref.dim %{{.*}}, %c0 : memref<?x2x2xf32>
// GRID: %[[RBLOCKS:.*]] = affine.apply affine_map<{{.*}}ceildiv{{.*}}>(%[[RROWS]])
// GRID: gpu.launch
// GRID: scf.for %{{.*}} to %[[RBLOCKS]] step
// GRID: arith.remui %{{.*}}, %c4
// GRID: arith.divui %{{.*}}, %c4
// GRID: memref.load %{{.*}} : memref<?x4xf32>

// Three kernels, no external calls.
// PTX-COUNT-3: .visible .entry like_forms_kernel(
func.func @like_forms(%x: tensor<?x4xf32>, %b: tensor<4xf32>, %img: tensor<?x2x2xf32>) -> (tensor<f32>, tensor<?x4xf32>, tensor<?x2x2xf32>) {
  %sum = trace.reduce_sum %x {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  %n = trace.size %x : tensor<?x4xf32> -> tensor<f32>
  %mean = trace.div %sum, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %bb = trace.broadcast_to %b like %x : tensor<4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %flat = trace.reshape %x like %img : tensor<?x4xf32>, tensor<?x2x2xf32> -> tensor<?x2x2xf32>
  return %mean, %bb, %flat : tensor<f32>, tensor<?x4xf32>, tensor<?x2x2xf32>
}
