// Entries of scatter-add.test: trace.scatter_add (gather's adjoint) at
// static and `?` dims, along the first, a middle and the last axis, with
// repeated and out-of-range indices; trace.max_pool2d_select (the first
// maximum's value of a second tensor) at static and `?` dims.

func.func @scatter_static(%t: tensor<6x4xf32>, %i: tensor<9xi32>, %u: tensor<9x4xf32>) -> tensor<6x4xf32> {
  %r = trace.scatter_add %t, %i, %u : (tensor<6x4xf32>, tensor<9xi32>, tensor<9x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// Every dim `?`, the scattered one included.
func.func @scatter_dynamic(%t: tensor<?x?xf32>, %i: tensor<?xi32>, %u: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = trace.scatter_add %t, %i, %u : (tensor<?x?xf32>, tensor<?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A middle axis with 2-D i64 indices; the last axis (one element per
// index); i32 data.
func.func @scatter_axes(%a: tensor<2x5x3xf64>, %ia: tensor<2x2xi64>, %ua: tensor<2x2x2x3xf64>,
                        %b: tensor<3x5xf32>, %ib: tensor<4xi32>, %ub: tensor<3x4xf32>,
                        %c: tensor<5xi32>, %ic: tensor<6xi32>, %uc: tensor<6xi32>)
    -> (tensor<2x5x3xf64>, tensor<3x5xf32>, tensor<5xi32>) {
  %0 = trace.scatter_add %a, %ia, %ua {axis = 1} : (tensor<2x5x3xf64>, tensor<2x2xi64>, tensor<2x2x2x3xf64>) -> tensor<2x5x3xf64>
  %1 = trace.scatter_add %b, %ib, %ub {axis = -1} : (tensor<3x5xf32>, tensor<4xi32>, tensor<3x4xf32>) -> tensor<3x5xf32>
  %2 = trace.scatter_add %c, %ic, %uc : (tensor<5xi32>, tensor<6xi32>, tensor<6xi32>) -> tensor<5xi32>
  return %0, %1, %2 : tensor<2x5x3xf64>, tensor<3x5xf32>, tensor<5xi32>
}

func.func @select_static(%x: tensor<2x5x5x3xf32>, %t: tensor<2x5x5x3xf32>) -> (tensor<2x2x2x3xf32>, tensor<2x3x3x3xf32>) {
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x5x5x3xf32>, tensor<2x5x5x3xf32>) -> tensor<2x2x2x3xf32>
  %1 = trace.max_pool2d_select %x, %t {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x5x5x3xf32>, tensor<2x5x5x3xf32>) -> tensor<2x3x3x3xf32>
  return %0, %1 : tensor<2x2x2x3xf32>, tensor<2x3x3x3xf32>
}

func.func @select_dynamic(%x: tensor<?x?x?x3xf32>, %t: tensor<?x?x?x3xf32>) -> tensor<?x?x?x3xf32> {
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x3xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x3xf32>
  return %0 : tensor<?x?x?x3xf32>
}

// A sparse SGD step on a variable: the read is lowered without a snapshot
// and the rows are added in place (test/Transforms/Bufferization/
// scatter-add-in-place.mlir); the table's new value is read back.
func.func @sparse_sgd(%rows: tensor<9x4xf32>, %ids: tensor<9xi32>, %table: !trace.resource<tensor<6x4xf32>>) -> tensor<6x4xf32> {
  %t, %c0 = trace.var.read %table : !trace.resource<tensor<6x4xf32>>
  %lr = trace.constant dense<-0.5> : tensor<f32>
  %d = trace.mul %rows, %lr : (tensor<9x4xf32>, tensor<f32>) -> tensor<9x4xf32>
  %n = trace.scatter_add %t, %ids, %d : (tensor<6x4xf32>, tensor<9xi32>, tensor<9x4xf32>) -> tensor<6x4xf32>
  %c1 = trace.var.assign %table, %n after(%c0) : !trace.resource<tensor<6x4xf32>>
  %r, %c2 = trace.var.read %table after(%c1) : !trace.resource<tensor<6x4xf32>>
  return %r : tensor<6x4xf32>
}
