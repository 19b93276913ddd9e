// Shape and neural-network ops at `?` dims, for dynamic-ops.test: each
// entry is compiled once and run at several sizes.

// Shape ops and argmax over a `?` batch.
func.func @shape_ops(%x: tensor<?x6xf32>, %y: tensor<?x2xf32>, %i: tensor<?xi32>, %b: tensor<2x6xf32>)
    -> (tensor<?x6xf32>, tensor<?x8xf32>, tensor<2x3xf32>, tensor<?x9xf32>, tensor<?x6xf32>, tensor<3x?xf32>, tensor<?xi64>) {
  %rows = trace.concat %x, %b {axis = 0} : (tensor<?x6xf32>, tensor<2x6xf32>) -> tensor<?x6xf32>
  %cols = trace.concat %x, %y {axis = 1} : (tensor<?x6xf32>, tensor<?x2xf32>) -> tensor<?x8xf32>
  %slice = trace.slice %x {start = array<i64: 0, 1>, limit = array<i64: 1, 6>, strides = array<i64: 1, 2>} : tensor<?x6xf32> -> tensor<1x3xf32>
  %slice2 = trace.concat %slice, %slice {axis = 0} : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %pad = trace.pad %x {low = array<i64: 1, 2>, high = array<i64: 0, 1>, value = 1.5} : tensor<?x6xf32> -> tensor<?x9xf32>
  %gather = trace.gather %x, %i {axis = 0} : (tensor<?x6xf32>, tensor<?xi32>) -> tensor<?x6xf32>
  %reshape = trace.reshape %x : tensor<?x6xf32> -> tensor<3x?xf32>
  %argmax = trace.argmax %x {axis = 1} : tensor<?x6xf32> -> tensor<?xi64>
  return %rows, %cols, %slice2, %pad, %gather, %reshape, %argmax : tensor<?x6xf32>, tensor<?x8xf32>, tensor<2x3xf32>, tensor<?x9xf32>, tensor<?x6xf32>, tensor<3x?xf32>, tensor<?xi64>
}

// The element count must be a multiple of 4 (checked at run time).
func.func @reshape_rows(%x: tensor<?x6xf32>) -> tensor<?x4xf32> {
  %0 = trace.reshape %x : tensor<?x6xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// conv2d, pooling and the backprops with an input, over a `?` batch.
func.func @nn_ops(%img: tensor<?x6x6x3xf32>, %f: tensor<3x3x3x4xf32>, %dy: tensor<?x6x6x4xf32>, %dp: tensor<?x3x3x3xf32>)
    -> (tensor<?x6x6x4xf32>, tensor<?x2x2x4xf32>, tensor<?x3x3x3xf32>, tensor<?x3x3x3xf32>, tensor<3x3x3x4xf32>, tensor<?x6x6x3xf32>) {
  %conv = trace.conv2d %img, %f {padding = array<i64: 1, 1, 1, 1>} : (tensor<?x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x6x6x4xf32>
  %strided = trace.conv2d %img, %f {strides = array<i64: 2, 2>} : (tensor<?x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x2x2x4xf32>
  %max = trace.max_pool2d %img {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x6x6x3xf32> -> tensor<?x3x3x3xf32>
  %avg = trace.avg_pool2d %img {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : tensor<?x6x6x3xf32> -> tensor<?x3x3x3xf32>
  %df = trace.conv2d_backprop_filter %img, %dy {filter_shape = array<i64: 3, 3, 3, 4>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x6x6x3xf32>, tensor<?x6x6x4xf32>) -> tensor<3x3x3x4xf32>
  %dmax = trace.max_pool2d_grad %img, %dp {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x6x6x3xf32>, tensor<?x3x3x3xf32>) -> tensor<?x6x6x3xf32>
  return %conv, %strided, %max, %avg, %df, %dmax : tensor<?x6x6x4xf32>, tensor<?x2x2x4xf32>, tensor<?x3x3x3xf32>, tensor<?x3x3x3xf32>, tensor<3x3x3x4xf32>, tensor<?x6x6x3xf32>
}

// `?` height and width as well.
func.func @conv_spatial(%img: tensor<?x?x?x3xf32>, %f: tensor<3x3x3x4xf32>) -> (tensor<?x?x?x4xf32>, tensor<?x?x?x3xf32>) {
  %conv = trace.conv2d %img, %f {padding = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 1>} : (tensor<?x?x?x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x?x4xf32>
  %avg = trace.avg_pool2d %img {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 0>} : tensor<?x?x?x3xf32> -> tensor<?x?x?x3xf32>
  return %conv, %avg : tensor<?x?x?x4xf32>, tensor<?x?x?x3xf32>
}

// A `?` innermost dim: full vectors, then the remainder (trace-cpu-vectorize).
func.func @inner_dim(%x: tensor<3x?xf32>, %b: tensor<?xf32>) -> (tensor<3x?xf32>, tensor<3xf32>, tensor<?xf32>) {
  %0 = trace.add %x, %b : (tensor<3x?xf32>, tensor<?xf32>) -> tensor<3x?xf32>
  %1 = trace.tanh %0 : tensor<3x?xf32>
  %2 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<3x?xf32> -> tensor<3xf32>
  %3 = trace.exp %b : tensor<?xf32>
  return %1, %2, %3 : tensor<3x?xf32>, tensor<3xf32>, tensor<?xf32>
}
