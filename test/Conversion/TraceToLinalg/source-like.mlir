// RUN: tracec-opt %s -split-input-file -trace-auto-control-deps -trace-lower-state -trace-to-linalg -canonicalize -cse | FileCheck %s
// RUN: tracec-opt %s -split-input-file -trace-auto-control-deps -trace-lower-state -trace-to-linalg -canonicalize -cse -trace-shape-functions | FileCheck %s --check-prefix=SHAPE

// The sources shaped `like` a value (test/Dialect/Trace/source-like.mlir):
// the destination is a tensor.empty of `like`'s sizes, `?` read by
// tensor.dim.

// CHECK-LABEL: func.func @fill_like
// CHECK: %[[S:.*]] = tensor.extract %arg0[] : tensor<f32>
// CHECK: %[[N:.*]] = tensor.dim %arg1, %c0 : tensor<?x4xi32>
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.fill ins(%[[S]] : f32) outs(%[[E]] : tensor<?x4xf32>)
func.func @fill_like(%v: tensor<f32>, %x: tensor<?x4xi32>) -> tensor<?x4xf32> {
  %0 = trace.fill %v like %x : tensor<f32>, tensor<?x4xi32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @iota_like
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?x?xf32>
// CHECK-DAG: %[[M:.*]] = tensor.dim %arg0, %c1 : tensor<?x?xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[N]], %[[M]]) : tensor<?x?xi64>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?x?xi64>)
// CHECK: linalg.index 1 : index
func.func @iota_like(%x: tensor<?x?xf32>) -> tensor<?x?xi64> {
  %0 = trace.iota like %x {axis = 1} : tensor<?x?xf32> -> tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}

// -----

// The counter advances once per run as for the static op; element (i, j, k)
// is numbered (i * M + j) * 4 + k with M read at run time, as the static op
// of that size numbers it. The shape function reads the size off %arg0 and
// does not draw (no counter update).
// CHECK-LABEL: func.func @uniform_like
// CHECK: memref.atomic_rmw addi
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?x?x4xf32>
// CHECK-DAG: %[[M:.*]] = tensor.dim %arg0, %c1 : tensor<?x?x4xf32>
// CHECK: %[[S0:.*]] = arith.muli %[[M]], %c4 : index
// CHECK: %[[E:.*]] = tensor.empty(%[[N]], %[[M]]) : tensor<?x?x4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?x?x4xf32>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: arith.muli %[[I]], %[[S0]] : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: arith.muli %[[J]], %c4 : index
// SHAPE-LABEL: func.func @__shape_uniform_like
// SHAPE-NOT: atomic_rmw
// SHAPE-NOT: linalg
// SHAPE: tensor.dim %arg0, %c0
// SHAPE-NOT: atomic_rmw
// SHAPE: return
func.func @uniform_like(%x: tensor<?x?x4xf32>) -> tensor<?x?x4xf32> {
  %0, %t = trace.random_uniform like %x {seed = 7} : tensor<?x?x4xf32> -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

// CHECK-LABEL: func.func @normal_like
// CHECK: memref.atomic_rmw addi
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?xf64>
// CHECK: tensor.empty(%[[N]]) : tensor<?xf64>
// CHECK: math.log
func.func @normal_like(%x: tensor<?xf64>) -> tensor<?xf64> {
  %0, %t = trace.random_normal like %x {seed = 7} : tensor<?xf64> -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
