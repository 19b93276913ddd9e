// bench/run: the backprop ops of conv2d 3x3, 64 -> 64 channels, 56x56,
// batch 1 (NHWC input and dy, HWCF filter); padding 1 with unit strides,
// and strides 2 with TensorFlow's SAME padding [0, 1, 0, 1] (56 -> 28).
// The peer is PyTorch's convolution_backward.
func.func @backprop_input(%w: tensor<3x3x64x64xf32>, %dy: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 1, 56, 56, 64>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x64x64xf32>, tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %0 : tensor<1x56x56x64xf32>
}
func.func @backprop_filter(%x: tensor<1x56x56x64xf32>, %dy: tensor<1x56x56x64xf32>) -> tensor<3x3x64x64xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 64, 64>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x56x56x64xf32>, tensor<1x56x56x64xf32>) -> tensor<3x3x64x64xf32>
  return %0 : tensor<3x3x64x64xf32>
}
func.func @backprop_input_s2(%w: tensor<3x3x64x64xf32>, %dy: tensor<1x28x28x64xf32>) -> tensor<1x56x56x64xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 1, 56, 56, 64>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<3x3x64x64xf32>, tensor<1x28x28x64xf32>) -> tensor<1x56x56x64xf32>
  return %0 : tensor<1x56x56x64xf32>
}
func.func @backprop_filter_s2(%x: tensor<1x56x56x64xf32>, %dy: tensor<1x28x28x64xf32>) -> tensor<3x3x64x64xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 64, 64>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<1x56x56x64xf32>, tensor<1x28x28x64xf32>) -> tensor<3x3x64x64xf32>
  return %0 : tensor<3x3x64x64xf32>
}
