// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// scatter_add: an scf.for over the indices carrying the result; each
// iteration clamps its index as gather does and adds one row of updates
// into the row at that index (extract_slice / linalg.generic /
// insert_slice, which bufferize in place): O(indices x row). `?` sizes are
// read with tensor.dim and checked at run time.
// CHECK-LABEL: func.func @scatter(
// CHECK-SAME:    %[[T:[a-z0-9_]+]]: tensor<?x?xf32>, %[[I:[a-z0-9_]+]]: tensor<?xi32>, %[[U:[a-z0-9_]+]]: tensor<?x?xf32>)
// CHECK:         %[[ROWS:.*]] = tensor.dim %[[T]], %c0
// CHECK:         %[[COLS:.*]] = tensor.dim %[[T]], %c1
// CHECK:         %[[N:.*]] = tensor.dim %[[I]], %c0
// CHECK:         cf.assert %{{.*}}, "{{.*}}'trace.scatter_add': updates dim 0 differs from gather's result shape for the operand and indices"
// CHECK:         cf.assert %{{.*}}, "{{.*}}'trace.scatter_add': operand dim 0 (the scatter axis) is empty but there are indices"
// CHECK:         %[[LAST:.*]] = arith.subi %[[ROWS]], %c1
// CHECK:         %[[R:.*]] = scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[T]]) -> (tensor<?x?xf32>) {
// CHECK:           %[[ID:.*]] = tensor.extract %[[I]][%[[K]]] : tensor<?xi32>
// CHECK:           %[[IX:.*]] = arith.index_cast %[[ID]] : i32 to index
// CHECK:           %[[LO:.*]] = arith.maxsi %[[IX]], %{{.*}} : index
// CHECK:           %[[AT:.*]] = arith.minsi %[[LO]], %[[LAST]] : index
// CHECK:           %[[ROW:.*]] = tensor.extract_slice %[[ACC]][%[[AT]], 0] [1, %[[COLS]]] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
// CHECK:           %[[UPD:.*]] = tensor.extract_slice %[[U]][%[[K]], 0] [1, %{{.*}}] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
// CHECK:           %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[UPD]] : tensor<?xf32>) outs(%[[ROW]] : tensor<?xf32>)
// CHECK:             arith.addf
// CHECK:           %[[NEXT:.*]] = tensor.insert_slice %[[SUM]] into %[[ACC]][%[[AT]], 0] [1, %[[COLS]]] [1, 1]
// CHECK:           scf.yield %[[NEXT]]
// CHECK:         return %[[R]]
func.func @scatter(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %u: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = trace.scatter_add %t, %i, %u : (tensor<?x?xf32>, tensor<?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Along the last axis a row is one element; the loops run over the dims
// before the axis, then the indices.
// CHECK-LABEL: func.func @scatter_last(
// CHECK:         scf.for %[[P:[a-z0-9_]+]] = %c0 to %c3
// CHECK:           scf.for %[[K:[a-z0-9_]+]] = %c0 to %c4
// CHECK:             %[[AT:.*]] = arith.minsi %{{.*}}, %c4 : index
// CHECK:             %[[OLD:.*]] = tensor.extract %{{.*}}[%[[P]], %[[AT]]] : tensor<3x5xf32>
// CHECK:             %[[NEW:.*]] = tensor.extract %{{.*}}[%[[P]], %[[K]]] : tensor<3x4xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[OLD]], %[[NEW]] : f32
// CHECK:             tensor.insert %[[SUM]] into %{{.*}}[%[[P]], %[[AT]]] : tensor<3x5xf32>
func.func @scatter_last(%t: tensor<3x5xf32>, %i: tensor<4xi32>, %u: tensor<3x4xf32>) -> tensor<3x5xf32> {
  %r = trace.scatter_add %t, %i, %u {axis = 1} : (tensor<3x5xf32>, tensor<4xi32>, tensor<3x4xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// The zeros of gather's gradient start as a linalg.fill (not a constant
// that bufferization would copy).
// CHECK-LABEL: func.func @scatter_into_zeros(
// (The constant's own fill, a large splat's lowering, is left dead.)
// CHECK:         linalg.fill
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1000x8xf32>)
// CHECK-NEXT:    scf.for {{.*}} iter_args(%{{.*}} = %[[Z]])
func.func @scatter_into_zeros(%i: tensor<16xi32>, %u: tensor<16x8xf32>) -> tensor<1000x8xf32> {
  %z = trace.constant dense<0.0> : tensor<1000x8xf32>
  %r = trace.scatter_add %z, %i, %u : (tensor<1000x8xf32>, tensor<16xi32>, tensor<16x8xf32>) -> tensor<1000x8xf32>
  return %r : tensor<1000x8xf32>
}

// -----

// max_pool2d_select: max_pool2d_grad's argmax reduction over (n, oh, ow, c,
// kh, kw), carrying t's value at the running first maximum (result 2).
// CHECK-LABEL: func.func @select(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: tensor<1x4x4x3xf32>, %[[T:[a-z0-9_]+]]: tensor<1x4x4x3xf32>)
// CHECK:         %[[G:.*]]:3 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[T]], %{{.*}} : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<2x2xf32>) outs({{.*}} : tensor<1x2x2x3xf32>, tensor<1x2x2x3xi64>, tensor<1x2x2x3xf32>)
// CHECK:         ^bb0(%[[IN:[a-z0-9_]+]]: f32, %[[INT:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32, %[[BEST:[a-z0-9_]+]]: f32, %[[BESTI:[a-z0-9_]+]]: i64, %[[BESTT:[a-z0-9_]+]]: f32):
// CHECK:           %[[M:.*]] = arith.select %[[TAKE:[a-z0-9_]+]], %[[IN]], %[[BEST]] : f32
// CHECK:           %[[MI:.*]] = arith.select %[[TAKE]], %{{.*}}, %[[BESTI]] : i64
// CHECK:           %[[MT:.*]] = arith.select %[[TAKE]], %[[INT]], %[[BESTT]] : f32
// CHECK:           linalg.yield %[[M]], %[[MI]], %[[MT]]
// CHECK:         return %[[G]]#2
func.func @select(%x: tensor<1x4x4x3xf32>, %t: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}
