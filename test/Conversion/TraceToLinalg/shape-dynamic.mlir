// RUN: tracec-opt %s -split-input-file -trace-to-linalg -canonicalize -cse | FileCheck %s
// RUN: tracec-opt %s -split-input-file -trace-to-linalg -canonicalize -cse -trace-shape-functions -canonicalize | FileCheck %s --check-prefix=SHAPE

// Shape ops and argmax at `?` dims: sizes from tensor.dim, run-time checks
// (cf.assert, moved into the shape function) where the verifier could not
// decide.

// Concat along a static axis: the `?` batches must agree.
// CHECK-LABEL: func.func @concat_columns
// CHECK-DAG: %[[A:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[B:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[A]], %[[B]]
// CHECK: cf.assert %[[SAME]], "{{.*}}'trace.concat': dim 0 of input 0 and of input 1 differ"
// CHECK: %[[E:.*]] = tensor.empty(%[[A]]) : tensor<?x5xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [%[[A]], 3] [1, 1]
// CHECK: tensor.insert_slice %arg1 into %[[I]][0, 3] [%[[B]], 2] [1, 1]
// SHAPE-LABEL: func.func @__shape_concat_columns
// SHAPE: @__shape_concat_columns_check_0("argument 0 dim 0 is {0} but argument 1 dim 0 is {1} ({{.*}}'trace.concat': dim 0 of input 0 and of input 1 differ)\00")
func.func @concat_columns(%a: tensor<?x3xf32>, %b: tensor<?x2xf32>) -> tensor<?x5xf32> {
  %0 = trace.concat %a, %b {axis = 1} : (tensor<?x3xf32>, tensor<?x2xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// Concat along the `?` axis: the second input starts where the first ends;
// the result has the sum of their sizes (concat's shape rule, reified).
// CHECK: #[[SUM:.*]] = affine_map<()[s0] -> (s0 + 2)>
// CHECK-LABEL: func.func @concat_rows
// CHECK: %[[A:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[N:.*]] = affine.apply #[[SUM]]()[%[[A]]]
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [%[[A]], 3]
// CHECK: tensor.insert_slice %arg1 into %[[I]][%[[A]], 0] [2, 3]
// CHECK-NOT: cf.assert
func.func @concat_rows(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %0 = trace.concat %a, %b {axis = 0} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// A `?` dim must reach the slice's limit.
// CHECK-LABEL: func.func @slice
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[MAX:.*]] = arith.maxsi %[[N]], %c3
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[N]], %[[MAX]]
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.slice': dim 0 of the operand is smaller than the slice's limit 3"
// CHECK: tensor.extract_slice %arg0[1, 0] [2, 3] [1, 2] : tensor<?x6xf32> to tensor<2x3xf32>
// SHAPE: @__shape_slice_check_0("argument 0 dim 0 is {0} but a size is {1} ({{.*}}'trace.slice': dim 0 of the operand is smaller than the slice's limit 3)\00")
func.func @slice(%x: tensor<?x6xf32>) -> tensor<2x3xf32> {
  %0 = trace.slice %x {start = array<i64: 1, 0>, limit = array<i64: 3, 6>, strides = array<i64: 1, 2>} : tensor<?x6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @pad
// CHECK: tensor.pad %arg0 low[1, 2] high[0, 1]
// CHECK: } : tensor<?x3xf32> to tensor<?x6xf32>
func.func @pad(%x: tensor<?x3xf32>) -> tensor<?x6xf32> {
  %0 = trace.pad %x {low = array<i64: 1, 2>, high = array<i64: 0, 1>, value = 1.5} : tensor<?x3xf32> -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// -----

// Indices are clamped to the `?` axis's last index; an empty axis with
// indices to clamp is a run-time error.
// CHECK-LABEL: func.func @gather
// CHECK-DAG: %[[P:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[I:.*]] = tensor.dim %arg1, %c0
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.gather': params dim 0 (the gather axis) is empty but there are indices"
// CHECK: %[[LAST:.*]] = arith.subi %[[P]], %c1
// CHECK: tensor.empty(%[[I]]) : tensor<?x4xf32>
// CHECK: linalg.generic
// CHECK: arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK: tensor.extract %arg0
func.func @gather(%p: tensor<?x4xf32>, %i: tensor<?xi32>) -> tensor<?x4xf32> {
  %0 = trace.gather %p, %i {axis = 0} : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A reshape that is no collapse or expand: through the flat vector, the
// `?` being the element count over 4, which must divide it.
// CHECK-LABEL: func.func @reshape
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[COUNT:.*]] = arith.muli %[[N]], %c6
// CHECK: %[[ROWS:.*]] = arith.floordivsi %[[COUNT]], %c4
// CHECK: %[[BACK:.*]] = arith.muli %[[ROWS]], %c4
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[COUNT]], %[[BACK]]
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.reshape': the operand's element count is not the result's (a multiple of 4)"
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x6xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [%[[ROWS]], 4] : tensor<?xf32> into tensor<?x4xf32>
func.func @reshape(%x: tensor<?x6xf32>) -> tensor<?x4xf32> {
  %0 = trace.reshape %x : tensor<?x6xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// The `?` moves to the last dim.
// CHECK-LABEL: func.func @reshape_transposed
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [4, %{{.*}}] : tensor<?xf32> into tensor<4x?xf32>
func.func @reshape_transposed(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %0 = trace.reshape %x : tensor<?x4xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// A fully static result from a `?` operand: the element count is checked.
// CHECK-LABEL: func.func @reshape_to_static
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.reshape': the operand's element count is not the result's (a multiple of 6)"
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{.*}} into tensor<?xf32>
// CHECK: %[[CAST:.*]] = tensor.cast %[[FLAT]] : tensor<?xf32> to tensor<6xf32>
// CHECK: tensor.expand_shape %[[CAST]] {{.*}} into tensor<2x3xf32>
func.func @reshape_to_static(%x: tensor<?x2xf32>) -> tensor<2x3xf32> {
  %0 = trace.reshape %x : tensor<?x2xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @argmax
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-DAG: tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x5xf32>)
func.func @argmax(%x: tensor<?x5xf32>) -> tensor<?xi64> {
  %0 = trace.argmax %x {axis = 1} : tensor<?x5xf32> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// split: each piece starts where the previous one ends (a run-time sum);
// the pieces must cover the operand.
// CHECK-LABEL: func.func @split
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[A:.*]] = tensor.dim %arg1, %c0
// CHECK: tensor.extract_slice %arg0[0, 0] [%[[A]], 3] [1, 1] : tensor<?x3xf32> to tensor<?x3xf32>
// CHECK: tensor.extract_slice %arg0[%[[A]], 0] [2, 3] [1, 1] : tensor<?x3xf32> to tensor<2x3xf32>
// CHECK: %[[END:.*]] = arith.addi %[[A]], %c2
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[END]], %[[N]]
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.split': the pieces do not cover dim 0 of the operand"
// SHAPE: @__shape_split_check_0("a size is {0} but argument 0 dim 0 is {1} ({{.*}}'trace.split': the pieces do not cover dim 0 of the operand)\00")
func.func @split(%x: tensor<?x3xf32>, %a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<2x3xf32>) {
  %0:2 = trace.split %x like %a, %b {axis = 0 : i64} : tensor<?x3xf32>, tensor<?x3xf32>, tensor<2x3xf32> -> tensor<?x3xf32>, tensor<2x3xf32>
  return %0#0, %0#1 : tensor<?x3xf32>, tensor<2x3xf32>
}

// -----

// slice `like`: the window's sizes are like's, read at run time.
// CHECK-LABEL: func.func @slice_like
// CHECK-DAG: %[[L:.*]] = tensor.dim %arg1, %c0
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[END:.*]] = arith.addi %[[L]], %c1
// CHECK: %[[MAX:.*]] = arith.maxsi %[[N]], %[[END]]
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[N]], %[[MAX]]
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.slice': dim 0 of the operand is smaller than start + the size of 'like'"
// CHECK: tensor.extract_slice %arg0[1, 2] [%[[L]], 4] [1, 1] : tensor<?x6xf32> to tensor<?x4xf32>
func.func @slice_like(%x: tensor<?x6xf32>, %l: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.slice %x like %l {start = array<i64: 1, 2>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// pad `like`: the high padding is what like's size leaves.
// CHECK-LABEL: func.func @pad_like
// CHECK: %[[L:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[MAX:.*]] = arith.maxsi %[[L]], %c3
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[L]], %[[MAX]]
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.pad': dim 0 of 'like' is smaller than low + the operand's"
// CHECK: %[[HIGH:.*]] = arith.subi %[[L]], %c3
// CHECK: tensor.pad %arg0 low[1, 0] high[%[[HIGH]], 1]
// CHECK: } : tensor<2x3xf32> to tensor<?x4xf32>
// SHAPE: @__shape_pad_like_check_0("argument 1 dim 0 is {0} but a size is {1} ({{.*}}'trace.pad': dim 0 of 'like' is smaller than low + the operand's)\00")
func.func @pad_like(%x: tensor<2x3xf32>, %l: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.pad %x like %l {low = array<i64: 1, 0>} : tensor<2x3xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
