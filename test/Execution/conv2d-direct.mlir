// trace.conv2d, trace.conv2d_backprop_filter and (as convolutions)
// trace.conv2d_backprop_input of static shape take the direct convolutions
// of the CPU pipeline
// (lib/Codegen/CPU/DirectConvolution.cpp); checked against PyTorch's conv2d
// and its gradient in float64 by Inputs/check_conv2d_backprop.py. The
// geometries reach every part of the register tiling: rows with whole
// tiles and a narrower last one, channel counts below, at and between whole
// vectors (the filter padded, the stores masked), one and two vectors per
// tile, 3 input channels, strides, dilations, asymmetric padding, 1x1
// windows, f64.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_conv2d_backprop.py %s %t | FileCheck %s

// CHECK-DAG: ok row_tail_40ch
// CHECK-DAG: ok rgb_16ch
// CHECK-DAG: ok one_channel
// CHECK-DAG: ok strided_dilated_f64
// CHECK-DAG: ok pointwise_s2_64ch
// CHECK-DAG: ok asymmetric_3ch_out
// CHECK-DAG: ok rgb_16ch_filter
// CHECK-DAG: ok rows_tail_40ch_filter
// CHECK-DAG: ok tiles_as_tasks_f64_filter
// CHECK-DAG: ok phases_s32_input
// CHECK-DAG: ok phases_pointwise_s2_input
// CHECK-NOT: FAIL

// 37 output pixels a row: two tiles of 14 and one of 9 (no divisor of 37
// in [7, 14]); 40 channels: a tile of 32 and one of 8 of 32.
func.func @row_tail_40ch(%x: tensor<2x6x39x5xf32>, %w: tensor<3x3x5x40xf32>) -> tensor<2x4x37x40xf32> {
  %0 = trace.conv2d %x, %w {padding = array<i64: 0, 0, 0, 0>} : (tensor<2x6x39x5xf32>, tensor<3x3x5x40xf32>) -> tensor<2x4x37x40xf32>
  return %0 : tensor<2x4x37x40xf32>
}
// A ResNet's first layer: 3 -> 16 channels, padding 1.
func.func @rgb_16ch(%x: tensor<3x32x32x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<3x32x32x16xf32> {
  %0 = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<3x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<3x32x32x16xf32>
  return %0 : tensor<3x32x32x16xf32>
}
func.func @one_channel(%x: tensor<1x5x5x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x4x4x1xf32> {
  %0 = trace.conv2d %x, %w {padding = array<i64: 0, 0, 0, 0>} : (tensor<1x5x5x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}
// f64 (8 lanes): 24 channels, two vectors, the second half empty.
func.func @strided_dilated_f64(%x: tensor<2x13x41x6xf64>, %w: tensor<3x2x6x24xf64>) -> tensor<2x5x20x24xf64> {
  %0 = trace.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 2, 3>} : (tensor<2x13x41x6xf64>, tensor<3x2x6x24xf64>) -> tensor<2x5x20x24xf64>
  return %0 : tensor<2x5x20x24xf64>
}
func.func @pointwise_s2_64ch(%x: tensor<2x14x14x32xf32>, %w: tensor<1x1x32x64xf32>) -> tensor<2x7x7x64xf32> {
  %0 = trace.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : (tensor<2x14x14x32xf32>, tensor<1x1x32x64xf32>) -> tensor<2x7x7x64xf32>
  return %0 : tensor<2x7x7x64xf32>
}
// 3 output channels of a 16-wide tile; padding wider on one side.
func.func @asymmetric_3ch_out(%x: tensor<1x9x11x16xf32>, %w: tensor<3x5x16x3xf32>) -> tensor<1x10x10x3xf32> {
  %0 = trace.conv2d %x, %w {padding = array<i64: 2, 1, 0, 3>} : (tensor<1x9x11x16xf32>, tensor<3x5x16x3xf32>) -> tensor<1x10x10x3xf32>
  return %0 : tensor<1x10x10x3xf32>
}

// conv2d_backprop_filter of static shape: trace-cpu-direct-filter-gradients.
// 3 input channels x 3 columns = 9 rows of 16 channels: one tile per tap row.
func.func @rgb_16ch_filter(%x: tensor<3x32x32x3xf32>, %dy: tensor<3x32x32x16xf32>) -> tensor<3x3x3x16xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x32x32x3xf32>, tensor<3x32x32x16xf32>) -> tensor<3x3x3x16xf32>
  return %0 : tensor<3x3x3x16xf32>
}
// 5 x 5 = 25 rows (no divisor in [7, 14]: a tile of 14 and one of 11),
// 40 channels (a tile of 32 and 8 of 32), strides and dilations.
func.func @rows_tail_40ch_filter(%x: tensor<2x13x17x5xf32>, %dy: tensor<2x4x6x40xf32>) -> tensor<3x5x5x40xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 5, 5, 40>, strides = array<i64: 3, 2>, padding = array<i64: 0, 1, 2, 1>, dilations = array<i64: 2, 2>} : (tensor<2x13x17x5xf32>, tensor<2x4x6x40xf32>) -> tensor<3x5x5x40xf32>
  return %0 : tensor<3x5x5x40xf32>
}
// f64, 2 x 16 = 32 rows of 12 channels: 4 tiles of 8 rows; 16 output rows
// (n, oh) in 4 tasks.
func.func @tiles_as_tasks_f64_filter(%x: tensor<2x9x9x16xf64>, %dy: tensor<2x8x8x12xf64>) -> tensor<2x2x16x12xf64> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 2, 2, 16, 12>} : (tensor<2x9x9x16xf64>, tensor<2x8x8x12xf64>) -> tensor<2x2x16x12xf64>
  return %0 : tensor<2x2x16x12xf64>
}

// Strided conv2d_backprop_input: one stride-1 convolution per phase of dx.
// Strides [3, 2] with a 4x3 window and asymmetric padding: phases of 2 and
// 1 taps, odd sizes.
func.func @phases_s32_input(%w: tensor<4x3x5x6xf32>, %dy: tensor<2x4x6x6xf32>) -> tensor<2x11x12x5xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 2, 11, 12, 5>, strides = array<i64: 3, 2>, padding = array<i64: 1, 2, 0, 1>} : (tensor<4x3x5x6xf32>, tensor<2x4x6x6xf32>) -> tensor<2x11x12x5xf32>
  return %0 : tensor<2x11x12x5xf32>
}
// A 1x1 window with strides 2: three of the four phases have no taps (dx
// zero there).
func.func @phases_pointwise_s2_input(%w: tensor<1x1x8x4xf64>, %dy: tensor<1x4x4x4xf64>) -> tensor<1x8x8x8xf64> {
  %0 = trace.conv2d_backprop_input %w, %dy {input_shape = array<i64: 1, 8, 8, 8>, strides = array<i64: 2, 2>} : (tensor<1x1x8x4xf64>, tensor<1x4x4x4xf64>) -> tensor<1x8x8x8xf64>
  return %0 : tensor<1x8x8x8xf64>
}
