// RUN: tracec-opt %s -split-input-file -trace-to-linalg -canonicalize -cse | FileCheck %s
// RUN: tracec-opt %s -split-input-file -trace-to-linalg -canonicalize -cse -trace-shape-functions -canonicalize | FileCheck %s --check-prefix=SHAPE

// A `?` against a static 4 along the same dim needs no check: the result
// takes the operand's size; the static operand is read along d1 only.
// CHECK-LABEL: func.func @bias
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-NOT: cf.assert
// CHECK: tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<?x4xf32>, tensor<4xf32>)

// SHAPE-LABEL: func.func @__shape_bias(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>, %arg2: memref<4xi64>)
// SHAPE-NOT: linalg
// SHAPE: %[[N:.*]] = tensor.dim %arg0, %c0
// SHAPE: %[[N64:.*]] = arith.index_cast %[[N]]
// SHAPE: memref.store %[[N64]], %arg2[%c3]
func.func @bias(%x: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = trace.add %x, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = trace.tanh %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// Two `?` dims that must agree: a run-time check, which the shape function
// runs and the entry no longer does.
// CHECK-LABEL: func.func @mul
// CHECK: %[[A:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[B:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[A]], %[[B]]
// CHECK: cf.assert %[[SAME]], "{{.*}}dynamic.mlir:{{[0-9]+}}:8: 'trace.mul': dim 0 of operand 0 and dim 0 of operand 1 differ"

// SHAPE-LABEL: func.func @mul(
// SHAPE-NOT: cf.assert
// SHAPE: return
// SHAPE-LABEL: func.func @__shape_mul(
// SHAPE-DAG: %[[A:.*]] = tensor.dim %arg0, %c0
// SHAPE-DAG: %[[B:.*]] = tensor.dim %arg1, %c0
// SHAPE: %[[SAME:.*]] = arith.cmpi eq, %[[A]], %[[B]]
// SHAPE: %[[STATUS:.*]] = arith.extui
// SHAPE: memref.store %[[STATUS]], %arg2[%c0]
// SHAPE: llvm.mlir.global external constant @__shape_mul_check_0("argument 0 dim 0 is {0} but argument 1 dim 0 is {1} ({{.*}}'trace.mul': dim 0 of operand 0 and dim 0 of operand 1 differ)\00")
func.func @mul(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.mul %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Matmul: dynamic M from the lhs; two `?` contraction dims are checked.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[K0:.*]] = tensor.dim %arg0, %c1
// CHECK-DAG: %[[K1:.*]] = tensor.dim %arg1, %c0
// CHECK: arith.cmpi eq, %[[K0]], %[[K1]]
// CHECK: cf.assert {{.*}}'trace.matmul': dim 1 of operand 0 and dim 0 of operand 1 differ
// CHECK: tensor.empty(%[[M]]) : tensor<?x3xf32>
// CHECK: linalg.matmul
func.func @matmul(%x: tensor<?x?xf32>, %w: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = trace.matmul %x, %w : (tensor<?x?xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Mean over a dynamic dim divides by its size at run time; keepdims keeps
// the dynamic dim.
// CHECK-LABEL: func.func @mean
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: linalg.reduce
// CHECK: %[[COUNT:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: arith.sitofp %[[COUNT]] : i64 to f32
// CHECK: tensor.expand_shape
func.func @mean(%x: tensor<?x4xf32>) -> tensor<1x4xf32> {
  %0 = trace.reduce_mean %x {axes = array<i64: 0>, keepdims} : tensor<?x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// A static-1 operand broadcasts along a `?`.
// CHECK-LABEL: func.func @broadcast_one
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ZERO:.*]], #{{.*}}]
func.func @broadcast_one(%x: tensor<?x4xf32>, %y: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.sub %x, %y : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
