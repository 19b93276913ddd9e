// RUN: tracec-opt %s -split-input-file -resolve-ranked-shaped-type-result-dims -canonicalize -cse | FileCheck %s

// ReifyRankedShapedTypeOpInterface: a tensor.dim of a trace op's `?` result
// becomes the op's shape rule over its operands' sizes (the rule its result
// type is inferred by), with no run-time check; the trace op itself is then
// dead.

// conv2d: (H + 2 - 3) floordiv 2 + 1 rows, W - 2 columns, the batch and
// the filter's output channels.
// CHECK-DAG: #[[ROWS:.*]] = affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 2)>
// CHECK-DAG: #[[COLS:.*]] = affine_map<()[s0] -> (s0 - 2)>
// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x?x3xf32>, %[[F:.*]]: tensor<3x3x3x?xf32>)
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[H:.*]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[W:.*]] = tensor.dim %[[X]], %c2
// CHECK-DAG: %[[C:.*]] = tensor.dim %[[F]], %c3
// CHECK-DAG: %[[OH:.*]] = affine.apply #[[ROWS]]()[%[[H]]]
// CHECK-DAG: %[[OW:.*]] = affine.apply #[[COLS]]()[%[[W]]]
// CHECK-NOT: trace.conv2d
// CHECK-NOT: cf.assert
// CHECK: return %[[N]], %[[OH]], %[[OW]], %[[C]]
func.func @conv2d(%x: tensor<?x?x?x3xf32>, %f: tensor<3x3x3x?xf32>) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %y = trace.conv2d %x, %f {padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 1>} : (tensor<?x?x?x3xf32>, tensor<3x3x3x?xf32>) -> tensor<?x?x?x?xf32>
  %n = tensor.dim %y, %c0 : tensor<?x?x?x?xf32>
  %h = tensor.dim %y, %c1 : tensor<?x?x?x?xf32>
  %w = tensor.dim %y, %c2 : tensor<?x?x?x?xf32>
  %c = tensor.dim %y, %c3 : tensor<?x?x?x?xf32>
  return %n, %h, %w, %c : index, index, index, index
}

// -----

// A dilated window: the span is (3 - 1) * 2 + 1 = 5.
// CHECK: #[[DILATED:.*]] = affine_map<()[s0] -> (s0 - 4)>
// CHECK-LABEL: func.func @conv2d_dilated
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[OH:.*]] = affine.apply #[[DILATED]]()[%[[H]]]
// CHECK: return %[[OH]]
func.func @conv2d_dilated(%x: tensor<1x?x7x3xf32>, %f: tensor<3x3x3x4xf32>) -> index {
  %c1 = arith.constant 1 : index
  %y = trace.conv2d %x, %f {dilations = array<i64: 2, 2>} : (tensor<1x?x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x?x3x4xf32>
  %h = tensor.dim %y, %c1 : tensor<1x?x3x4xf32>
  return %h : index
}

// -----

// Pooling: the window's output size; the channels pass through.
// CHECK: #[[POOLED:.*]] = affine_map<()[s0] -> (s0 floordiv 2)>
// CHECK-LABEL: func.func @max_pool2d
// CHECK-DAG: %[[H:.*]] = tensor.dim %arg0, %c1
// CHECK-DAG: %[[C:.*]] = tensor.dim %arg0, %c3
// CHECK-DAG: %[[OH:.*]] = affine.apply #[[POOLED]]()[%[[H]]]
// CHECK: return %[[OH]], %[[C]]
func.func @max_pool2d(%x: tensor<2x?x4x?xf32>) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %y = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x?x4x?xf32> -> tensor<2x?x2x?xf32>
  %h = tensor.dim %y, %c1 : tensor<2x?x2x?xf32>
  %c = tensor.dim %y, %c3 : tensor<2x?x2x?xf32>
  return %h, %c : index, index
}

// -----

// Broadcasting: a `?` result dim is the size of the operand with a `?`
// there; a static 1 never sizes it.
// CHECK-LABEL: func.func @add
// CHECK-DAG: %[[A:.*]] = tensor.dim %arg1, %c0
// CHECK-DAG: %[[B:.*]] = tensor.dim %arg0, %c1
// CHECK: return %[[A]], %[[B]]
func.func @add(%a: tensor<1x?xf32>, %b: tensor<?x1xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %y = trace.add %a, %b : (tensor<1x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %d0 = tensor.dim %y, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %y, %c1 : tensor<?x?xf32>
  return %d0, %d1 : index, index
}

// -----

// select broadcasts all three operands (right-aligned).
// CHECK-LABEL: func.func @select
// CHECK: %[[A:.*]] = tensor.dim %arg0, %c0
// CHECK: return %[[A]]
func.func @select(%c: tensor<?x3xi1>, %t: tensor<3xf32>, %f: tensor<1x3xf32>) -> index {
  %c0 = arith.constant 0 : index
  %y = trace.select %c, %t, %f : (tensor<?x3xi1>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  %d0 = tensor.dim %y, %c0 : tensor<?x3xf32>
  return %d0 : index
}

// -----

// Reductions keep the unreduced dims (argmax too).
// CHECK-LABEL: func.func @reductions
// CHECK-DAG: %[[D2:.*]] = tensor.dim %arg0, %c2
// CHECK-DAG: %[[D0:.*]] = tensor.dim %arg0, %c0
// CHECK: return %[[D2]], %[[D0]]
func.func @reductions(%x: tensor<?x4x?xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %s = trace.reduce_sum %x {axes = array<i64: 0>, keepdims} : tensor<?x4x?xf32> -> tensor<1x4x?xf32>
  %a = trace.argmax %x {axis = -1 : i64} : tensor<?x4x?xf32> -> tensor<?x4xi64>
  %d2 = tensor.dim %s, %c2 : tensor<1x4x?xf32>
  %d0 = tensor.dim %a, %c0 : tensor<?x4xi64>
  return %d2, %d0 : index, index
}

// -----

// A unary op and softmax have their operand's shape.
// CHECK-LABEL: func.func @same_shape
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: return %[[D]], %[[D]]
func.func @same_shape(%x: tensor<?x4xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %e = trace.exp %x : tensor<?x4xf32>
  %s = trace.softmax %x : tensor<?x4xf32>
  %d0 = tensor.dim %e, %c0 : tensor<?x4xf32>
  %d1 = tensor.dim %s, %c0 : tensor<?x4xf32>
  return %d0, %d1 : index, index
}

// -----

// The input cotangents are `like` the forward input (max_pool2d_grad's is
// the input's shape); max_pool2d_select has max_pool2d's.
// CHECK: #[[SELECTED:.*]] = affine_map<()[s0] -> (s0 floordiv 2)>
// CHECK-LABEL: func.func @backprops
// CHECK-DAG: %[[LH:.*]] = tensor.dim %arg2, %c1
// CHECK-DAG: %[[XH:.*]] = tensor.dim %arg3, %c1
// CHECK-DAG: %[[SH:.*]] = affine.apply #[[SELECTED]]()[%[[XH]]]
// CHECK: return %[[LH]], %[[LH]], %[[XH]], %[[SH]]
func.func @backprops(%f: tensor<3x3x2x4xf32>, %dy: tensor<1x?x?x4xf32>, %like: tensor<1x?x?x2xf32>, %x: tensor<1x?x4x4xf32>, %pdy: tensor<1x?x2x4xf32>, %ady: tensor<1x?x?x2xf32>) -> (index, index, index, index) {
  %c1 = arith.constant 1 : index
  %i = trace.conv2d_backprop_input %f, %dy like %like : (tensor<3x3x2x4xf32>, tensor<1x?x?x4xf32>, tensor<1x?x?x2xf32>) -> tensor<1x?x?x2xf32>
  %a = trace.avg_pool2d_grad %ady like %like {window = array<i64: 3, 3>} : tensor<1x?x?x2xf32>, tensor<1x?x?x2xf32> -> tensor<1x?x?x2xf32>
  %m = trace.max_pool2d_grad %x, %pdy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x?x4x4xf32>, tensor<1x?x2x4xf32>) -> tensor<1x?x4x4xf32>
  %s = trace.max_pool2d_select %x, %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x?x4x4xf32>, tensor<1x?x4x4xf32>) -> tensor<1x?x2x4xf32>
  %d0 = tensor.dim %i, %c1 : tensor<1x?x?x2xf32>
  %d1 = tensor.dim %a, %c1 : tensor<1x?x?x2xf32>
  %d2 = tensor.dim %m, %c1 : tensor<1x?x4x4xf32>
  %d3 = tensor.dim %s, %c1 : tensor<1x?x2x4xf32>
  return %d0, %d1, %d2, %d3 : index, index, index, index
}

// -----

// matmul: the batch dims broadcast, M from lhs, N from rhs (with the
// transposes).
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[B:.*]] = tensor.dim %arg1, %c0
// CHECK-DAG: %[[M:.*]] = tensor.dim %arg0, %c2
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg1, %c1
// CHECK: return %[[B]], %[[M]], %[[N]]
func.func @matmul(%a: tensor<1x4x?xf32>, %b: tensor<?x?x4xf32>) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %y = trace.matmul %a, %b {transpose_a, transpose_b} : (tensor<1x4x?xf32>, tensor<?x?x4xf32>) -> tensor<?x?x?xf32>
  %d0 = tensor.dim %y, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %y, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %y, %c2 : tensor<?x?x?xf32>
  return %d0, %d1, %d2 : index, index, index
}

// -----

// transpose permutes the sizes; concat sums them along the axis; pad adds
// low + high (or has `like`'s sizes).
// CHECK-DAG: #[[SUM:.*]] = affine_map<()[s0, s1] -> (s0 + s1 + 3)>
// CHECK-DAG: #[[PADDED:.*]] = affine_map<()[s0] -> (s0 + 3)>
// CHECK-LABEL: func.func @shape_ops
// CHECK-DAG: %[[X0:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[X1:.*]] = tensor.dim %arg0, %c1
// CHECK-DAG: %[[Y0:.*]] = tensor.dim %arg1, %c0
// CHECK-DAG: %[[L0:.*]] = tensor.dim %arg2, %c0
// CHECK-DAG: %[[CAT:.*]] = affine.apply #[[SUM]]()[%[[X0]], %[[Y0]]]
// CHECK-DAG: %[[PAD:.*]] = affine.apply #[[PADDED]]()[%[[X0]]]
// CHECK: return %[[X1]], %[[CAT]], %[[PAD]], %[[L0]]
func.func @shape_ops(%x: tensor<?x?xf32>, %y: tensor<?x4xf32>, %like: tensor<?x4xf32>) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %t = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<?x?xf32> -> tensor<?x?xf32>
  %three = trace.constant dense<1.0> : tensor<3x4xf32>
  %cat = trace.concat %x, %three, %y {axis = 0 : i64} : (tensor<?x?xf32>, tensor<3x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %p = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 2, 0>} : tensor<?x?xf32> -> tensor<?x?xf32>
  %y2 = trace.slice %y {start = array<i64: 0, 0>, limit = array<i64: 1, 2>} : tensor<?x4xf32> -> tensor<1x2xf32>
  %q = trace.pad %y2 like %like {low = array<i64: 0, 1>} : tensor<1x2xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %d0 = tensor.dim %t, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %cat, %c0 : tensor<?x4xf32>
  %d2 = tensor.dim %p, %c0 : tensor<?x?xf32>
  %d3 = tensor.dim %q, %c0 : tensor<?x4xf32>
  return %d0, %d1, %d2, %d3 : index, index, index, index
}

// -----

// reshape: a `?` is the element count over the other dims' (NumPy's -1);
// with several `?` (unit dims only differ), the operand's non-unit dims.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<?x6xf32>, %[[Y:.*]]: tensor<?x?xf32>)
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[COUNT:.*]] = arith.muli %[[N]], %c6
// CHECK-DAG: %[[ROWS:.*]] = arith.floordivsi %[[COUNT]], %c3
// CHECK-DAG: %[[A:.*]] = tensor.dim %[[Y]], %c0
// CHECK-DAG: %[[B:.*]] = tensor.dim %[[Y]], %c1
// CHECK-NOT: trace.reshape
// CHECK: return %[[ROWS]], %[[A]], %[[B]]
func.func @reshape(%x: tensor<?x6xf32>, %y: tensor<?x?xf32>) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %r = trace.reshape %x : tensor<?x6xf32> -> tensor<?x3xf32>
  %s = trace.reshape %y : tensor<?x?xf32> -> tensor<?x1x?xf32>
  %rows = tensor.dim %r, %c0 : tensor<?x3xf32>
  %a = tensor.dim %s, %c0 : tensor<?x1x?xf32>
  %b = tensor.dim %s, %c2 : tensor<?x1x?xf32>
  return %rows, %a, %b : index, index, index
}

// -----

// broadcast_to: a `?` result dim is the aligned operand dim, or like's.
// CHECK-LABEL: func.func @broadcast_to
// CHECK-SAME: (%[[X:.*]]: tensor<?x1xf32>, %[[L:.*]]: tensor<5x?x4xf32>)
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[L]], %c1
// CHECK-NOT: trace.broadcast_to
// CHECK: return %[[N]], %[[M]]
func.func @broadcast_to(%x: tensor<?x1xf32>, %like: tensor<5x?x4xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = trace.broadcast_to %x : tensor<?x1xf32> -> tensor<?x4xf32>
  %l = trace.broadcast_to %x like %like : tensor<?x1xf32>, tensor<5x?x4xf32> -> tensor<5x?x4xf32>
  %n = tensor.dim %b, %c0 : tensor<?x4xf32>
  %m = tensor.dim %l, %c1 : tensor<5x?x4xf32>
  return %n, %m : index, index
}

// -----

// gather: params' dims around the axis, the indices' in its place;
// one_hot: the indices' dims around the new one; cast, scatter_add: their
// operand's shape; slice and split with `like`: like's.
// CHECK-LABEL: func.func @indexing
// CHECK-SAME: (%[[P:.*]]: tensor<?x8x?xf32>, %[[I:.*]]: tensor<?xi32>, %[[L:.*]]: tensor<?x2xf32>)
// CHECK-DAG: %[[P0:.*]] = tensor.dim %[[P]], %c0
// CHECK-DAG: %[[I0:.*]] = tensor.dim %[[I]], %c0
// CHECK-DAG: %[[P2:.*]] = tensor.dim %[[P]], %c2
// CHECK-DAG: %[[L0:.*]] = tensor.dim %[[L]], %c0
// CHECK-NOT: trace.
// CHECK: return %[[P0]], %[[I0]], %[[P2]], %[[I0]], %[[P2]], %[[I0]], %[[L0]], %[[P0]]
func.func @indexing(%p: tensor<?x8x?xf32>, %i: tensor<?xi32>, %like: tensor<?x2xf32>) -> (index, index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %g = trace.gather %p, %i {axis = 1 : i64} : (tensor<?x8x?xf32>, tensor<?xi32>) -> tensor<?x?x?xf32>
  %g0 = tensor.dim %g, %c0 : tensor<?x?x?xf32>
  %g1 = tensor.dim %g, %c1 : tensor<?x?x?xf32>
  %g2 = tensor.dim %g, %c2 : tensor<?x?x?xf32>
  %h = trace.one_hot %i {depth = 10 : i64, axis = 0 : i64} : tensor<?xi32> -> tensor<10x?xf32>
  %h1 = tensor.dim %h, %c1 : tensor<10x?xf32>
  %c = trace.cast %p : tensor<?x8x?xf32> to tensor<?x8x?xf64>
  %c2d = tensor.dim %c, %c2 : tensor<?x8x?xf64>
  %s = trace.slice %p like %g {start = array<i64: 0, 0, 0>} : tensor<?x8x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  %s1 = tensor.dim %s, %c1 : tensor<?x?x?xf32>
  %a, %b = trace.split %like like %like, %like {axis = 0 : i64} : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32> -> tensor<?x2xf32>, tensor<?x2xf32>
  %b0 = tensor.dim %b, %c0 : tensor<?x2xf32>
  %u = trace.scatter_add %g, %i, %g {axis = 1 : i64} : (tensor<?x?x?xf32>, tensor<?xi32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %u0 = tensor.dim %u, %c0 : tensor<?x?x?xf32>
  return %g0, %g1, %g2, %h1, %c2d, %s1, %b0, %u0 : index, index, index, index, index, index, index, index
}
