// A fully-convolutional net at `?` batch, height and width: conv2d (with
// respect to the input and the filter, strided and padded), max_pool2d and
// avg_pool2d (padded), differentiated by trace-autodiff. Used by
// dynamic-spatial-autodiff.test.
func.func @fcn(%x: tensor<?x?x?x2xf32>, %w: tensor<3x3x2x4xf32>, %u: tensor<2x2x4x3xf32>) -> tensor<f32> {
  %c = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x2xf32>, tensor<3x3x2x4xf32>) -> tensor<?x?x?x4xf32>
  %t = trace.tanh %c : tensor<?x?x?x4xf32>
  %m = trace.max_pool2d %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x?x?x4xf32> -> tensor<?x?x?x4xf32>
  %a = trace.avg_pool2d %m {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>} : tensor<?x?x?x4xf32> -> tensor<?x?x?x4xf32>
  %d = trace.conv2d %a, %u {strides = array<i64: 2, 1>, padding = array<i64: 0, 1, 1, 0>} : (tensor<?x?x?x4xf32>, tensor<2x2x4x3xf32>) -> tensor<?x?x?x3xf32>
  %s = trace.sin %d : tensor<?x?x?x3xf32>
  %l = trace.reduce_sum %s {axes = array<i64: 0, 1, 2, 3>} : tensor<?x?x?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func @dfcn(%x: tensor<?x?x?x2xf32>, %w: tensor<3x3x2x4xf32>, %u: tensor<2x2x4x3xf32>) -> (tensor<?x?x?x2xf32>, tensor<3x3x2x4xf32>, tensor<2x2x4x3xf32>) {
  %g:3 = trace.grad @fcn(%x, %w, %u) {wrt = array<i64: 0, 1, 2>} : (tensor<?x?x?x2xf32>, tensor<3x3x2x4xf32>, tensor<2x2x4x3xf32>) -> (tensor<?x?x?x2xf32>, tensor<3x3x2x4xf32>, tensor<2x2x4x3xf32>)
  return %g#0, %g#1, %g#2 : tensor<?x?x?x2xf32>, tensor<3x3x2x4xf32>, tensor<2x2x4x3xf32>
}

// dy must be the conv2d's output size over x (checked at run time).
func.func @dfilter(%x: tensor<?x?x?x2xf32>, %dy: tensor<?x?x?x4xf32>) -> tensor<3x3x2x4xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 2, 4>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x2xf32>, tensor<?x?x?x4xf32>) -> tensor<3x3x2x4xf32>
  return %0 : tensor<3x3x2x4xf32>
}
