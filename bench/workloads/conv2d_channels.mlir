// bench/run: conv2d 3x3 at the channel counts of a CIFAR ResNet, batch 64
// (NHWC input, HWCF filter, padding 1): 3 -> 16 and 16 -> 16 at 32x32,
// 32 -> 32 at 16x16, and 16 -> 32 with strides 2 (32x32 -> 16x16, TensorFlow
// SAME padding [0, 1, 0, 1]); each forward, backprop input and backprop
// filter. The peers are torch.nn.functional.conv2d and
// convolution_backward.
func.func @forward_c3(%x: tensor<64x32x32x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<64x32x32x16xf32> {
  %y = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<64x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<64x32x32x16xf32>
  return %y : tensor<64x32x32x16xf32>
}
func.func @backprop_input_c3(%w: tensor<3x3x3x16xf32>, %dy: tensor<64x32x32x16xf32>) -> tensor<64x32x32x3xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 64, 32, 32, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x3x16xf32>, tensor<64x32x32x16xf32>) -> tensor<64x32x32x3xf32>
  return %0 : tensor<64x32x32x3xf32>
}
func.func @backprop_filter_c3(%x: tensor<64x32x32x3xf32>, %dy: tensor<64x32x32x16xf32>) -> tensor<3x3x3x16xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>, padding = array<i64: 1, 1, 1, 1>} : (tensor<64x32x32x3xf32>, tensor<64x32x32x16xf32>) -> tensor<3x3x3x16xf32>
  return %0 : tensor<3x3x3x16xf32>
}
func.func @forward_c16(%x: tensor<64x32x32x16xf32>, %w: tensor<3x3x16x16xf32>) -> tensor<64x32x32x16xf32> {
  %y = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<64x32x32x16xf32>, tensor<3x3x16x16xf32>) -> tensor<64x32x32x16xf32>
  return %y : tensor<64x32x32x16xf32>
}
func.func @backprop_input_c16(%w: tensor<3x3x16x16xf32>, %dy: tensor<64x32x32x16xf32>) -> tensor<64x32x32x16xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 64, 32, 32, 16>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x16x16xf32>, tensor<64x32x32x16xf32>) -> tensor<64x32x32x16xf32>
  return %0 : tensor<64x32x32x16xf32>
}
func.func @backprop_filter_c16(%x: tensor<64x32x32x16xf32>, %dy: tensor<64x32x32x16xf32>) -> tensor<3x3x16x16xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 16, 16>, padding = array<i64: 1, 1, 1, 1>} : (tensor<64x32x32x16xf32>, tensor<64x32x32x16xf32>) -> tensor<3x3x16x16xf32>
  return %0 : tensor<3x3x16x16xf32>
}
func.func @forward_c32(%x: tensor<64x16x16x32xf32>, %w: tensor<3x3x32x32xf32>) -> tensor<64x16x16x32xf32> {
  %y = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<64x16x16x32xf32>, tensor<3x3x32x32xf32>) -> tensor<64x16x16x32xf32>
  return %y : tensor<64x16x16x32xf32>
}
func.func @backprop_input_c32(%w: tensor<3x3x32x32xf32>, %dy: tensor<64x16x16x32xf32>) -> tensor<64x16x16x32xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 64, 16, 16, 32>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x32x32xf32>, tensor<64x16x16x32xf32>) -> tensor<64x16x16x32xf32>
  return %0 : tensor<64x16x16x32xf32>
}
func.func @backprop_filter_c32(%x: tensor<64x16x16x32xf32>, %dy: tensor<64x16x16x32xf32>) -> tensor<3x3x32x32xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 32, 32>, padding = array<i64: 1, 1, 1, 1>} : (tensor<64x16x16x32xf32>, tensor<64x16x16x32xf32>) -> tensor<3x3x32x32xf32>
  return %0 : tensor<3x3x32x32xf32>
}
func.func @forward_c16_s2(%x: tensor<64x32x32x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<64x16x16x32xf32> {
  %y = trace.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<64x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<64x16x16x32xf32>
  return %y : tensor<64x16x16x32xf32>
}
func.func @backprop_input_c16_s2(%w: tensor<3x3x16x32xf32>, %dy: tensor<64x16x16x32xf32>) -> tensor<64x32x32x16xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 64, 32, 32, 16>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<3x3x16x32xf32>, tensor<64x16x16x32xf32>) -> tensor<64x32x32x16xf32>
  return %0 : tensor<64x32x32x16xf32>
}
func.func @backprop_filter_c16_s2(%x: tensor<64x32x32x16xf32>, %dy: tensor<64x16x16x32xf32>) -> tensor<3x3x16x32xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 16, 32>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<64x32x32x16xf32>, tensor<64x16x16x32xf32>) -> tensor<3x3x16x32xf32>
  return %0 : tensor<3x3x16x32xf32>
}
