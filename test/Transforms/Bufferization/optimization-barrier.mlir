// RUN: tracec-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s

// trace.optimization_barrier bufferizes to nothing: each result is its
// operand's buffer, with no allocation and no copy.

// CHECK-LABEL: func.func @reads
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<4xf32{{.*}}>, %[[Y:[a-z0-9_]+]]: memref<4xf32{{.*}}>)
// CHECK-NOT: trace.optimization_barrier
// CHECK-NOT: memref.copy
// CHECK: linalg.add ins(%[[X]], %[[Y]] :
// CHECK-NOT: memref.copy
func.func @reads(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = trace.optimization_barrier %x, %y : tensor<4xf32>, tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %s = linalg.add ins(%r#0, %r#1 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A write into a result is a write into the operand's buffer: in place
// when the operand is not read again ...
// CHECK-LABEL: func.func @writes_in_place
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<4xf32{{.*}}>, %[[Y:[a-z0-9_]+]]: memref<4xf32{{.*}}>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: linalg.add ins(%[[X]], %[[Y]] : {{.*}}) outs(%[[X]] :
func.func @writes_in_place(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = trace.optimization_barrier %x, %y : tensor<4xf32>, tensor<4xf32>
  %s = linalg.add ins(%r#0, %r#1 : tensor<4xf32>, tensor<4xf32>) outs(%r#0 : tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// ... and into a copy when it is: the analysis sees through the alias.
// CHECK-LABEL: func.func @writes_a_copy
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<4xf32{{.*}}>, %[[Y:[a-z0-9_]+]]: memref<4xf32{{.*}}>)
// CHECK: %[[C:[a-z0-9_]+]] = memref.alloc
// CHECK: memref.copy %[[X]], %[[C]]
// CHECK: linalg.add ins(%[[C]], %[[Y]] : {{.*}}) outs(%[[C]] :
// CHECK: linalg.mul ins(%[[X]], %[[C]] :
func.func @writes_a_copy(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = trace.optimization_barrier %x, %y : tensor<4xf32>, tensor<4xf32>
  %s = linalg.add ins(%r#0, %r#1 : tensor<4xf32>, tensor<4xf32>) outs(%r#0 : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %p = linalg.mul ins(%x, %s : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}
