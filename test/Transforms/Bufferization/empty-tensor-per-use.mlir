// RUN: tracec-opt %s --trace-empty-tensor-per-use --split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-empty-tensor-per-use --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops" --cse --canonicalize --split-input-file | FileCheck %s --check-prefix=BUF

// One tensor.empty that CSE shared between two kernels becomes one per
// kernel; each still bufferizes to one allocation of its own.
// CHECK-LABEL: func @shared
//       CHECK:   %[[E0:.*]] = tensor.empty() : tensor<4xf32>
//       CHECK:   %[[E1:.*]] = tensor.empty() : tensor<4xf32>
//   CHECK-DAG:   linalg.fill ins(%{{.*}}) outs(%[[E0]]
//   CHECK-DAG:   linalg.fill ins(%{{.*}}) outs(%[[E1]]
//   CHECK-NOT:   tensor.empty
// BUF-LABEL: func @shared
// BUF-COUNT-2: memref.alloc() {{.*}} : memref<4xf32>
// BUF-NOT: memref.copy
func.func @shared(%a: f32, %b: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.fill ins(%a : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.fill ins(%b : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Dynamic sizes: the clones take the same size operands; uses inside a
// loop body get a clone each too (placed next to the original).
// CHECK-LABEL: func @dynamic_in_loop
// BUF-LABEL: func @dynamic_in_loop
//  CHECK-SAME:   (%[[N:.*]]: index
//       CHECK:   %[[E0:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
//       CHECK:   %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
//   CHECK-DAG:   linalg.fill ins(%{{.*}}) outs(%[[E0]]
//   CHECK-DAG:     linalg.fill ins(%{{.*}}) outs(%[[E1]]
func.func @dynamic_in_loop(%n: index, %a: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.fill ins(%a : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %0) -> tensor<?xf32> {
    %f = linalg.fill ins(%a : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %s = arith.addf %a, %a : f32
    scf.yield %f : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A tensor.empty with one use, or none, is left alone.
// CHECK-LABEL: func @single
// CHECK-COUNT-2: tensor.empty
//   CHECK-NOT:   tensor.empty
func.func @single(%a: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %unused = tensor.empty() : tensor<8xf32>
  %0 = linalg.fill ins(%a : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Slices taken from an empty tensor and inserted back into it (the phases
// of a strided input gradient) keep the one tensor: each slice is written
// in place (the copy back of a slice onto itself folds away), no copy.
// Other uses still get their own.
// CHECK-LABEL: func @slices_in_place
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<8xf32>
//       CHECK:   %[[OTHER:.*]] = tensor.empty() : tensor<8xf32>
//       CHECK:   tensor.extract_slice %[[E]][0] [4] [2]
//       CHECK:   tensor.insert_slice %{{.*}} into %[[E]][0] [4] [2]
//       CHECK:   linalg.fill ins(%{{.*}}) outs(%[[OTHER]]
// BUF-LABEL: func @slices_in_place
// BUF-COUNT-2: memref.alloc() {{.*}} : memref<8xf32>
// BUF-NOT: memref.copy
func.func @slices_in_place(%a: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %s = tensor.extract_slice %e[0] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %f = linalg.fill ins(%a : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %i = tensor.insert_slice %f into %e[0] [4] [2] : tensor<4xf32> into tensor<8xf32>
  %g = linalg.fill ins(%a : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %i, %g : tensor<8xf32>, tensor<8xf32>
}
