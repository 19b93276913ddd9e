// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// The backprop ops return the cotangent of one conv2d/pool operand: its
// shape comes from `input_shape`/`filter_shape` (or the input operand of
// max_pool2d_grad), and dy must have the forward op's output shape:
//   out = (in + pad_low + pad_high - (dilation * (k - 1) + 1)) / stride + 1

// CHECK-LABEL: func.func @conv2d_backprop_input
func.func @conv2d_backprop_input(%f: tensor<3x3x3x16xf32>, %dy6: tensor<1x6x6x16xf32>, %dy4: tensor<1x4x4x16xf32>, %g: tensor<2x3x4x1xf64>, %dy57: tensor<2x5x7x1xf64>) -> (tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<1x9x9x3xf32>, tensor<1x10x10x3xf32>, tensor<1x8x8x3xf32>, tensor<2x5x7x4xf64>) {
  // Defaults: stride 1, no padding, no dilation; 8 - 3 + 1 = 6.
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  %0 = trace.conv2d_backprop_input %f, %dy6 {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  // (8 + 2 - 3) / 2 + 1 = 4.
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 8, 8, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x8x8x3xf32>
  %1 = trace.conv2d_backprop_input %f, %dy4 {input_shape = array<i64: 1, 8, 8, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x8x8x3xf32>
  // Inputs of 9 and 10 rows both give 4 output rows at stride 2: only
  // input_shape tells them apart.
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 9, 9, 3>, strides = array<i64: 2, 2>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x9x9x3xf32>
  %2 = trace.conv2d_backprop_input %f, %dy4 {input_shape = array<i64: 1, 9, 9, 3>, strides = array<i64: 2, 2>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x9x9x3xf32>
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 10, 10, 3>, strides = array<i64: 2, 2>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x10x10x3xf32>
  %3 = trace.conv2d_backprop_input %f, %dy4 {input_shape = array<i64: 1, 10, 10, 3>, strides = array<i64: 2, 2>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x10x10x3xf32>
  // A 3x3 filter dilated by 2 spans 5x5: 8 - 5 + 1 = 4.
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {dilations = array<i64: 2, 2>, input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x8x8x3xf32>
  %4 = trace.conv2d_backprop_input %f, %dy4 {input_shape = array<i64: 1, 8, 8, 3>, dilations = array<i64: 2, 2>} : (tensor<3x3x3x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x8x8x3xf32>
  // Asymmetric padding [top, bottom, left, right]: H 5 + 0 + 1 - 2 + 1 = 5,
  // W 7 + 2 + 0 - 3 + 1 = 7.
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {input_shape = array<i64: 2, 5, 7, 4>, padding = array<i64: 0, 1, 2, 0>} : (tensor<2x3x4x1xf64>, tensor<2x5x7x1xf64>) -> tensor<2x5x7x4xf64>
  %5 = trace.conv2d_backprop_input %g, %dy57 {input_shape = array<i64: 2, 5, 7, 4>, padding = array<i64: 0, 1, 2, 0>} : (tensor<2x3x4x1xf64>, tensor<2x5x7x1xf64>) -> tensor<2x5x7x4xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<1x9x9x3xf32>, tensor<1x10x10x3xf32>, tensor<1x8x8x3xf32>, tensor<2x5x7x4xf64>
}

// CHECK-LABEL: func.func @conv2d_backprop_filter
func.func @conv2d_backprop_filter(%x: tensor<1x8x8x3xf32>, %dy6: tensor<1x6x6x16xf32>, %dy4: tensor<1x4x4x16xf32>, %y: tensor<2x5x7x4xf64>, %dy: tensor<2x2x5x1xf64>) -> (tensor<3x3x3x16xf32>, tensor<3x3x3x16xf32>, tensor<2x3x4x1xf64>) {
  // CHECK: trace.conv2d_backprop_filter %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  %0 = trace.conv2d_backprop_filter %x, %dy6 {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  // CHECK: trace.conv2d_backprop_filter %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {dilations = array<i64: 2, 2>, filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x16xf32>) -> tensor<3x3x3x16xf32>
  %1 = trace.conv2d_backprop_filter %x, %dy4 {filter_shape = array<i64: 3, 3, 3, 16>, dilations = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x16xf32>) -> tensor<3x3x3x16xf32>
  // H (5 - 2) / 2 + 1 = 2; W (7 - 3) / 1 + 1 = 5.
  // CHECK: trace.conv2d_backprop_filter %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {filter_shape = array<i64: 2, 3, 4, 1>, strides = array<i64: 2, 1>} : (tensor<2x5x7x4xf64>, tensor<2x2x5x1xf64>) -> tensor<2x3x4x1xf64>
  %2 = trace.conv2d_backprop_filter %y, %dy {filter_shape = array<i64: 2, 3, 4, 1>, strides = array<i64: 2, 1>} : (tensor<2x5x7x4xf64>, tensor<2x2x5x1xf64>) -> tensor<2x3x4x1xf64>
  return %0, %1, %2 : tensor<3x3x3x16xf32>, tensor<3x3x3x16xf32>, tensor<2x3x4x1xf64>
}

// CHECK-LABEL: func.func @max_pool2d_grad
func.func @max_pool2d_grad(%x: tensor<1x8x8x3xf32>, %dy4: tensor<1x4x4x3xf32>, %dy8: tensor<1x8x8x3xf32>, %y: tensor<2x7x5x4xf16>, %dy: tensor<2x3x4x4xf16>) -> (tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<2x7x5x4xf16>) {
  // The result has the input's type.
  // CHECK: trace.max_pool2d_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  %0 = trace.max_pool2d_grad %x, %dy4 {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: trace.max_pool2d_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 1, 1, 1, 1>, window = array<i64: 3, 3>} : (tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %1 = trace.max_pool2d_grad %x, %dy8 {window = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  // H (7 - 3) / 2 + 1 = 3; W (5 - 2) / 1 + 1 = 4.
  // CHECK: trace.max_pool2d_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 2, 1>, window = array<i64: 3, 2>} : (tensor<2x7x5x4xf16>, tensor<2x3x4x4xf16>) -> tensor<2x7x5x4xf16>
  %2 = trace.max_pool2d_grad %y, %dy {window = array<i64: 3, 2>, strides = array<i64: 2, 1>} : (tensor<2x7x5x4xf16>, tensor<2x3x4x4xf16>) -> tensor<2x7x5x4xf16>
  return %0, %1, %2 : tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<2x7x5x4xf16>
}

// CHECK-LABEL: func.func @avg_pool2d_grad
func.func @avg_pool2d_grad(%dy1: tensor<1x1x1x3xf32>, %dy: tensor<4x3x2x2xf64>) -> (tensor<1x8x8x3xf32>, tensor<4x5x5x2xf64>) {
  // A global pool.
  // CHECK: trace.avg_pool2d_grad %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 8, 8>} : tensor<1x1x1x3xf32> -> tensor<1x8x8x3xf32>
  %0 = trace.avg_pool2d_grad %dy1 {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 8, 8>} : tensor<1x1x1x3xf32> -> tensor<1x8x8x3xf32>
  // H (5 + 1 + 0 - 2) / 2 + 1 = 3; W (5 + 0 + 1 - 3) / 2 + 1 = 2.
  // CHECK: trace.avg_pool2d_grad %{{[a-z0-9_]+}} {input_shape = array<i64: 4, 5, 5, 2>, padding = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>, window = array<i64: 2, 3>} : tensor<4x3x2x2xf64> -> tensor<4x5x5x2xf64>
  %1 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 4, 5, 5, 2>, window = array<i64: 2, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>} : tensor<4x3x2x2xf64> -> tensor<4x5x5x2xf64>
  return %0, %1 : tensor<1x8x8x3xf32>, tensor<4x5x5x2xf64>
}

// Unknown dims of dy (and of max_pool2d_grad's input) match any size; the
// result shape still comes from the shape attribute or the input.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%f: tensor<3x3x3x16xf32>, %dy: tensor<?x?x6x?xf32>, %x: tensor<?x?x8x?xf32>, %dyp: tensor<?x?x4x?xf32>) -> (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<?x?x8x?xf32>, tensor<2x8x8x5xf32>) {
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<?x?x6x?xf32>) -> tensor<1x8x8x3xf32>
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<?x?x6x?xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: trace.conv2d_backprop_filter %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<?x?x8x?xf32>, tensor<?x?x6x?xf32>) -> tensor<3x3x3x16xf32>
  %1 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<?x?x8x?xf32>, tensor<?x?x6x?xf32>) -> tensor<3x3x3x16xf32>
  // CHECK: trace.max_pool2d_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<?x?x8x?xf32>, tensor<?x?x4x?xf32>) -> tensor<?x?x8x?xf32>
  %2 = trace.max_pool2d_grad %x, %dyp {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x?x8x?xf32>, tensor<?x?x4x?xf32>) -> tensor<?x?x8x?xf32>
  // CHECK: trace.avg_pool2d_grad %{{[a-z0-9_]+}} {input_shape = array<i64: 2, 8, 8, 5>, strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<?x?x4x?xf32> -> tensor<2x8x8x5xf32>
  %3 = trace.avg_pool2d_grad %dyp {input_shape = array<i64: 2, 8, 8, 5>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x?x4x?xf32> -> tensor<2x8x8x5xf32>
  return %0, %1, %2, %3 : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<?x?x8x?xf32>, tensor<2x8x8x5xf32>
}

// With `like` instead of `input_shape`, the result has the shape of the
// value (the forward input, `?` dims included): the gradients of conv2d and
// avg_pool2d with respect to an input with `?` dims.
// CHECK-LABEL: func.func @like
func.func @like(%f: tensor<3x3x3x16xf32>, %dy: tensor<?x6x6x16xf32>, %x: tensor<?x8x8x3xf32>, %dyp: tensor<?x4x4x3xf32>) -> (tensor<?x8x8x3xf32>, tensor<?x8x8x3xf32>) {
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : (tensor<3x3x3x16xf32>, tensor<?x6x6x16xf32>, tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32>
  %0 = trace.conv2d_backprop_input %f, %dy like %x : (tensor<3x3x3x16xf32>, tensor<?x6x6x16xf32>, tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32>
  // CHECK: trace.avg_pool2d_grad %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<?x4x4x3xf32>, tensor<?x8x8x3xf32> -> tensor<?x8x8x3xf32>
  %1 = trace.avg_pool2d_grad %dyp like %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x4x4x3xf32>, tensor<?x8x8x3xf32> -> tensor<?x8x8x3xf32>
  return %0, %1 : tensor<?x8x8x3xf32>, tensor<?x8x8x3xf32>
}
