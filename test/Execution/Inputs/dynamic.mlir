// Functions with a dynamic (`?`) batch dim, for dynamic-shapes.test: each
// is compiled once and run at several batch sizes.

func.func @bias_tanh(%x: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = trace.add %x, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = trace.tanh %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// Two `?` dims that must agree (checked at run time), a static-1 broadcast.
func.func @mul_scale(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>, %s: tensor<?x1xf32>) -> tensor<?x4xf32> {
  %0 = trace.mul %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = trace.sub %0, %s : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %2 = trace.exp %1 : tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}

func.func @column_sum(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @row_mean(%x: tensor<?x4xf32>) -> tensor<?x1xf32> {
  %0 = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<?x4xf32> -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

func.func @total_mean(%x: tensor<?x4xf32>) -> tensor<f32> {
  %0 = trace.reduce_mean %x {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @row_max(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %0 = trace.reduce_max %x {axes = array<i64: 1>} : tensor<?x4xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A dense layer: dynamic M, static K and N.
func.func @dense(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = trace.matmul %x, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %1 = trace.add %0, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = trace.relu %1 : tensor<?x3xf32>
  return %2 : tensor<?x3xf32>
}

// x^T y: the dynamic dim is the contraction dim of both operands.
func.func @gram(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<4x4xf32> {
  %0 = trace.matmul %x, %y {transpose_a} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

func.func @softmax(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.softmax %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

func.func @log_softmax(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.log_softmax %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

func.func @transpose(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %0 = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// Row sums broadcast back over the row (a `?` broadcast_to from a `?`).
func.func @row_broadcast(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>, keepdims} : tensor<?x4xf32> -> tensor<?x1xf32>
  %1 = trace.broadcast_to %0 : tensor<?x1xf32> -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

func.func @one_hot(%i: tensor<?xi32>) -> tensor<?x4xf32> {
  %0 = trace.one_hot %i {depth = 4 : i64} : tensor<?xi32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// Batched matmul with a `?` batch and rows, flattened back (collapse).
func.func @batch_matmul(%a: tensor<?x2x4xf32>, %b: tensor<?x4x3xf32>) -> tensor<?x3xf32> {
  %0 = trace.matmul %a, %b : (tensor<?x2x4xf32>, tensor<?x4x3xf32>) -> tensor<?x2x3xf32>
  %1 = trace.reshape %0 : tensor<?x2x3xf32> -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}
