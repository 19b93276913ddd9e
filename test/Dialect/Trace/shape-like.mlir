// RUN: tracec-opt %s | tracec-opt | FileCheck %s
// RUN: tracec-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD

// The shape ops that read a size from a value at run time: broadcast_to
// and reshape `like` a value (the result has its shape), and trace.size
// (the element count along some dims). The gradient rules build them for
// operands with `?` dims (test/Transforms/Differentiation/autodiff-dynamic.mlir).

// CHECK-LABEL: func.func @broadcast_like
func.func @broadcast_like(%x: tensor<?x4xf32>, %b: tensor<1x4xf32>, %c: tensor<4xf32>, %i: tensor<?x4xi32>, %s: tensor<f32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : tensor<1x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %0 = trace.broadcast_to %b like %x : tensor<1x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  // A missing leading dim; `like` may have any element type.
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : tensor<4xf32>, tensor<?x4xi32> -> tensor<?x4xf32>
  %1 = trace.broadcast_to %c like %i : tensor<4xf32>, tensor<?x4xi32> -> tensor<?x4xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %2 = trace.broadcast_to %s like %x : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  // The same type as the operand: the broadcast folds away.
  // FOLD-LABEL: func.func @broadcast_like
  // FOLD-SAME: (%[[X:[a-z0-9_]+]]: tensor<?x4xf32>
  // FOLD: return %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[X]] :
  %3 = trace.broadcast_to %x like %x : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0, %1, %2, %3 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @reshape_like
func.func @reshape_like(%f: tensor<?x4xf32>, %y: tensor<?x?x4xf32>) -> (tensor<?x?x4xf32>, tensor<?x1x?x4xf32>, tensor<?x4xf32>, tensor<?x1x?x4xf32>) {
  // Two `?` that the element count alone cannot split: `like` gives them.
  // CHECK: trace.reshape %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : tensor<?x4xf32>, tensor<?x?x4xf32> -> tensor<?x?x4xf32>
  %0 = trace.reshape %f like %y : tensor<?x4xf32>, tensor<?x?x4xf32> -> tensor<?x?x4xf32>
  // Only unit dims move: each `?` keeps its operand dim's size.
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x?x4xf32> -> tensor<?x1x?x4xf32>
  %1 = trace.reshape %y : tensor<?x?x4xf32> -> tensor<?x1x?x4xf32>
  %2 = trace.reshape %1 : tensor<?x1x?x4xf32> -> tensor<?x4xf32>
  %3 = trace.reshape %0 : tensor<?x?x4xf32> -> tensor<?x1x?x4xf32>
  return %0, %1, %2, %3 : tensor<?x?x4xf32>, tensor<?x1x?x4xf32>, tensor<?x4xf32>, tensor<?x1x?x4xf32>
}
// Reshapes of reshapes compose where the composition is valid: ?x?x4 ->
// ?x1x?x4 -> ?x4 is ?x?x4 -> ?x4 (one `?`); ?x4 -(like)-> ?x?x4 -> ?x1x?x4
// would be ?x4 -> ?x1x?x4 (two `?`, not only unit dims): kept.
// FOLD-LABEL: func.func @reshape_like
// FOLD-SAME: (%[[F:[a-z0-9_]+]]: tensor<?x4xf32>, %[[Y:[a-z0-9_]+]]: tensor<?x?x4xf32>)
// FOLD: %[[A:[a-z0-9_]+]] = trace.reshape %[[F]] like %[[Y]]
// FOLD: %[[B:[a-z0-9_]+]] = trace.reshape %[[Y]] : tensor<?x?x4xf32> -> tensor<?x1x?x4xf32>
// FOLD: %[[C:[a-z0-9_]+]] = trace.reshape %[[Y]] : tensor<?x?x4xf32> -> tensor<?x4xf32>
// FOLD: %[[D:[a-z0-9_]+]] = trace.reshape %[[A]] : tensor<?x?x4xf32> -> tensor<?x1x?x4xf32>
// FOLD: return %[[A]], %[[B]], %[[C]], %[[D]]

// CHECK-LABEL: func.func @size
func.func @size(%x: tensor<?x4xf32>, %y: tensor<2x3xf64>) -> (tensor<f32>, tensor<i64>, tensor<f64>, tensor<i32>) {
  // CHECK: trace.size %{{[a-z0-9_]+}} {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<f32>
  %0 = trace.size %x {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<f32>
  // CHECK: trace.size %{{[a-z0-9_]+}} : tensor<?x4xf32> -> tensor<i64>
  %1 = trace.size %x : tensor<?x4xf32> -> tensor<i64>
  %2 = trace.size %y : tensor<2x3xf64> -> tensor<f64>
  %3 = trace.size %x {axes = array<i64: -1>} : tensor<?x4xf32> -> tensor<i32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<i64>, tensor<f64>, tensor<i32>
}
// Static dims fold to a constant; a `?` among them is read at run time.
// FOLD-LABEL: func.func @size
// FOLD-DAG: %[[C6:[a-z0-9_]+]] = trace.constant dense<6.000000e+00> : tensor<f64>
// FOLD-DAG: %[[C4:[a-z0-9_]+]] = trace.constant dense<4> : tensor<i32>
// FOLD-DAG: %[[N:[a-z0-9_]+]] = trace.size %{{[a-z0-9_]+}} {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<f32>
// FOLD-DAG: %[[ALL:[a-z0-9_]+]] = trace.size %{{[a-z0-9_]+}} : tensor<?x4xf32> -> tensor<i64>
// FOLD: return %[[N]], %[[ALL]], %[[C6]], %[[C4]]

// slice and pad `like` a value: pad's and slice's gradients at `?` dims.
// CHECK-LABEL: func.func @slice_pad_like
func.func @slice_pad_like(%dy: tensor<?x6xf32>, %x: tensor<?x4xf32>, %s: tensor<2x4xf32>, %i: tensor<?x4xi32>) -> (tensor<?x4xf32>, tensor<?x6xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  // CHECK: trace.slice %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} {start = array<i64: 0, 1>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %0 = trace.slice %dy like %x {start = array<i64: 0, 1>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  // CHECK: trace.pad %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} {low = array<i64: 1, 1>} : tensor<2x4xf32>, tensor<?x6xf32> -> tensor<?x6xf32>
  %1 = trace.pad %s like %dy {low = array<i64: 1, 1>} : tensor<2x4xf32>, tensor<?x6xf32> -> tensor<?x6xf32>
  // `like` may have any element type.
  // CHECK: trace.pad %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} {low = array<i64: 0, 0>} : tensor<2x4xf32>, tensor<?x4xi32> -> tensor<?x4xf32>
  %2 = trace.pad %s like %i {low = array<i64: 0, 0>} : tensor<2x4xf32>, tensor<?x4xi32> -> tensor<?x4xf32>
  // A `?` window starting at 0 does not fold: `like` may be smaller.
  // FOLD-LABEL: func.func @slice_pad_like
  // FOLD: trace.slice %{{[a-z0-9_]+}} like
  %3 = trace.slice %x like %x {start = array<i64: 0, 0>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0, %1, %2, %3 : tensor<?x4xf32>, tensor<?x6xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// split: the inverse of concat, its pieces shaped like the operands.
// CHECK-LABEL: func.func @split
func.func @split(%dy: tensor<?x4xf32>, %a: tensor<?x4xf32>, %b: tensor<2x4xf32>, %c: tensor<?x?xf64>) -> (tensor<?x4xf32>, tensor<2x4xf32>, tensor<?x?xf32>) {
  // CHECK: %{{[a-z0-9_]+}}:3 = trace.split %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : tensor<?x4xf32>, tensor<?x4xf32>, tensor<2x4xf32>, tensor<?x?xf64> -> tensor<?x4xf32>, tensor<2x4xf32>, tensor<?x?xf32>
  %0:3 = trace.split %dy like %a, %b, %c {axis = 0 : i64} : tensor<?x4xf32>, tensor<?x4xf32>, tensor<2x4xf32>, tensor<?x?xf64> -> tensor<?x4xf32>, tensor<2x4xf32>, tensor<?x?xf32>
  return %0#0, %0#1, %0#2 : tensor<?x4xf32>, tensor<2x4xf32>, tensor<?x?xf32>
}
