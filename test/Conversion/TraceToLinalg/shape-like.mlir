// RUN: tracec-opt %s -split-input-file -trace-to-linalg -canonicalize -cse | FileCheck %s

// The shape ops that read sizes from a value (test/Dialect/Trace/shape-like.mlir)
// at `?` dims: sizes come from tensor.dim of `like`, agreements the verifier
// cannot see are run-time checks.

// A static 1 stretched to the `?` rows of `like`: read at index 0.
// CHECK-LABEL: func.func @broadcast_like
// CHECK: %[[N:.*]] = tensor.dim %arg1, %c0 : tensor<?x4xf32>
// CHECK-NOT: cf.assert
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ROW0:map[0-9]*]], #{{map[0-9]*}}], {{.*}} ins(%arg0 : tensor<1x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
func.func @broadcast_like(%b: tensor<1x4xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.broadcast_to %b like %x : tensor<1x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A `?` operand dim read along a `?` of `like`: checked to agree.
// CHECK-LABEL: func.func @broadcast_like_checked
// CHECK-DAG: %[[ROWS:.*]] = tensor.dim %arg1, %c0 : tensor<?x?xf32>
// CHECK-DAG: %[[COLS:.*]] = tensor.dim %arg1, %c1 : tensor<?x?xf32>
// CHECK-DAG: %[[B:.*]] = tensor.dim %arg0, %c0 : tensor<?xf32>
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[B]], %[[COLS]] : index
// CHECK: cf.assert %[[SAME]], "{{.*}}'trace.broadcast_to': dim 0 of the operand and dim 1 of 'like' differ"
// CHECK: %[[E:.*]] = tensor.empty(%[[ROWS]], %[[COLS]]) : tensor<?x?xf32>
// CHECK: linalg.broadcast ins(%arg0 : tensor<?xf32>) outs(%[[E]] : tensor<?x?xf32>) dimensions = [0]
func.func @broadcast_like_checked(%b: tensor<?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = trace.broadcast_to %b like %x : tensor<?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// reshape like: the element counts are checked, then each result element
// is read at its row-major position in the operand.
// CHECK-LABEL: func.func @reshape_like
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?x4xf32>
// CHECK-DAG: %[[A:.*]] = tensor.dim %arg1, %c0 : tensor<?x?x4xf32>
// CHECK-DAG: %[[B:.*]] = tensor.dim %arg1, %c1 : tensor<?x?x4xf32>
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.reshape': the operand's element count and that of 'like' differ"
// CHECK: %[[E:.*]] = tensor.empty(%[[A]], %[[B]]) : tensor<?x?x4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?x?x4xf32>)
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %c4 : index
// CHECK: %[[ROWQ:.*]] = arith.divui %{{.*}}, %c4 : index
// CHECK: %[[ROW:.*]] = arith.remui %[[ROWQ]], %[[N]] : index
// CHECK: tensor.extract %arg0[%[[ROW]], %[[COL]]] : tensor<?x4xf32>
func.func @reshape_like(%f: tensor<?x4xf32>, %y: tensor<?x?x4xf32>) -> tensor<?x?x4xf32> {
  %0 = trace.reshape %f like %y : tensor<?x4xf32>, tensor<?x?x4xf32> -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

// size: the product of the dims, converted to the element type.
// CHECK-LABEL: func.func @size
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?x4xf32>
// CHECK: %[[ALL:.*]] = arith.muli %[[N]], %c4 : index
// CHECK: %[[ALL64:.*]] = arith.index_cast %[[ALL]] : index to i64
// CHECK: %[[ALLF:.*]] = arith.sitofp %[[ALL64]] : i64 to f32
// CHECK: %[[R0:.*]] = tensor.from_elements %[[ALLF]] : tensor<f32>
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[N32:.*]] = arith.trunci %[[N64]] : i64 to i32
// CHECK: %[[R1:.*]] = tensor.from_elements %[[N32]] : tensor<i32>
// CHECK: return %[[R0]], %[[R1]]
func.func @size(%x: tensor<?x4xf32>) -> (tensor<f32>, tensor<i32>) {
  %0 = trace.size %x : tensor<?x4xf32> -> tensor<f32>
  %1 = trace.size %x {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<i32>
  return %0, %1 : tensor<f32>, tensor<i32>
}
