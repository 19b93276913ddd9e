// trace.conv2d_backprop_input and trace.conv2d_backprop_filter on the CPU
// pipeline against PyTorch's gradients of conv2d (float64), by
// Inputs/check_conv2d_backprop.py, which reads each op's geometry: unit
// and larger strides (also unequal), dilations, SAME, VALID and explicit
// asymmetric padding (also wider than the window), odd sizes, input rows
// that no window reads, fewer and more than 8 input channels (the two
// routes of the filter gradient), f32 and f64 (contractions packed into
// the CPU micro-kernel) and f16 (the loop nests).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_conv2d_backprop.py %s %t | FileCheck %s

// CHECK-DAG: ok s1_same_input
// CHECK-DAG: ok s1_same_filter
// CHECK-DAG: ok s1_valid_f64_input
// CHECK-DAG: ok s1_valid_f64_filter
// CHECK-DAG: ok s2_same_input
// CHECK-DAG: ok s2_same_filter
// CHECK-DAG: ok s2_valid_unused_input
// CHECK-DAG: ok s2_valid_unused_filter
// CHECK-DAG: ok s2_explicit_odd_input
// CHECK-DAG: ok s2_explicit_odd_filter
// CHECK-DAG: ok d2_f64_input
// CHECK-DAG: ok d2_f64_filter
// CHECK-DAG: ok s23_d21_input
// CHECK-DAG: ok s23_d21_filter
// CHECK-DAG: ok big_pad_input
// CHECK-DAG: ok big_pad_filter
// CHECK-DAG: ok s2_f16_input
// CHECK-DAG: ok s2_f16_filter
// CHECK-NOT: FAIL

func.func @s1_same_input(%f: tensor<3x3x9x6xf32>, %dy: tensor<2x7x9x6xf32>) -> tensor<2x7x9x9xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 7, 9, 9>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<3x3x9x6xf32>, tensor<2x7x9x6xf32>) -> tensor<2x7x9x9xf32>
  return %0 : tensor<2x7x9x9xf32>
}
func.func @s1_same_filter(%x: tensor<2x7x9x9xf32>, %dy: tensor<2x7x9x6xf32>) -> tensor<3x3x9x6xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 9, 6>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<2x7x9x9xf32>, tensor<2x7x9x6xf32>) -> tensor<3x3x9x6xf32>
  return %0 : tensor<3x3x9x6xf32>
}
func.func @s1_valid_f64_input(%f: tensor<3x2x3x4xf64>, %dy: tensor<1x4x6x4xf64>) -> tensor<1x6x7x3xf64> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 6, 7, 3>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<3x2x3x4xf64>, tensor<1x4x6x4xf64>) -> tensor<1x6x7x3xf64>
  return %0 : tensor<1x6x7x3xf64>
}
func.func @s1_valid_f64_filter(%x: tensor<1x6x7x3xf64>, %dy: tensor<1x4x6x4xf64>) -> tensor<3x2x3x4xf64> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 2, 3, 4>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x6x7x3xf64>, tensor<1x4x6x4xf64>) -> tensor<3x2x3x4xf64>
  return %0 : tensor<3x2x3x4xf64>
}
func.func @s2_same_input(%f: tensor<3x3x4x5xf32>, %dy: tensor<2x4x4x5xf32>) -> tensor<2x8x8x4xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 8, 8, 4>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>, dilations = array<i64: 1, 1>} : (tensor<3x3x4x5xf32>, tensor<2x4x4x5xf32>) -> tensor<2x8x8x4xf32>
  return %0 : tensor<2x8x8x4xf32>
}
func.func @s2_same_filter(%x: tensor<2x8x8x4xf32>, %dy: tensor<2x4x4x5xf32>) -> tensor<3x3x4x5xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 4, 5>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>, dilations = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<2x4x4x5xf32>) -> tensor<3x3x4x5xf32>
  return %0 : tensor<3x3x4x5xf32>
}
func.func @s2_valid_unused_input(%f: tensor<3x3x2x3xf32>, %dy: tensor<1x3x3x3xf32>) -> tensor<1x8x8x2xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<3x3x2x3xf32>, tensor<1x3x3x3xf32>) -> tensor<1x8x8x2xf32>
  return %0 : tensor<1x8x8x2xf32>
}
func.func @s2_valid_unused_filter(%x: tensor<1x8x8x2xf32>, %dy: tensor<1x3x3x3xf32>) -> tensor<3x3x2x3xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 2, 3>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x8x2xf32>, tensor<1x3x3x3xf32>) -> tensor<3x3x2x3xf32>
  return %0 : tensor<3x3x2x3xf32>
}
func.func @s2_explicit_odd_input(%f: tensor<3x2x11x7xf32>, %dy: tensor<2x4x5x7xf32>) -> tensor<2x9x11x11xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 9, 11, 11>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<3x2x11x7xf32>, tensor<2x4x5x7xf32>) -> tensor<2x9x11x11xf32>
  return %0 : tensor<2x9x11x11xf32>
}
func.func @s2_explicit_odd_filter(%x: tensor<2x9x11x11xf32>, %dy: tensor<2x4x5x7xf32>) -> tensor<3x2x11x7xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 2, 11, 7>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<2x9x11x11xf32>, tensor<2x4x5x7xf32>) -> tensor<3x2x11x7xf32>
  return %0 : tensor<3x2x11x7xf32>
}
func.func @d2_f64_input(%f: tensor<3x3x8x2xf64>, %dy: tensor<1x9x9x2xf64>) -> tensor<1x9x9x8xf64> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 9, 9, 8>, strides = array<i64: 1, 1>, padding = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>} : (tensor<3x3x8x2xf64>, tensor<1x9x9x2xf64>) -> tensor<1x9x9x8xf64>
  return %0 : tensor<1x9x9x8xf64>
}
func.func @d2_f64_filter(%x: tensor<1x9x9x8xf64>, %dy: tensor<1x9x9x2xf64>) -> tensor<3x3x8x2xf64> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 8, 2>, strides = array<i64: 1, 1>, padding = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x9x9x8xf64>, tensor<1x9x9x2xf64>) -> tensor<3x3x8x2xf64>
  return %0 : tensor<3x3x8x2xf64>
}
func.func @s23_d21_input(%f: tensor<2x3x3x4xf32>, %dy: tensor<1x6x3x4xf32>) -> tensor<1x11x10x3xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 11, 10, 3>, strides = array<i64: 2, 3>, padding = array<i64: 1, 2, 0, 1>, dilations = array<i64: 2, 1>} : (tensor<2x3x3x4xf32>, tensor<1x6x3x4xf32>) -> tensor<1x11x10x3xf32>
  return %0 : tensor<1x11x10x3xf32>
}
func.func @s23_d21_filter(%x: tensor<1x11x10x3xf32>, %dy: tensor<1x6x3x4xf32>) -> tensor<2x3x3x4xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 2, 3, 3, 4>, strides = array<i64: 2, 3>, padding = array<i64: 1, 2, 0, 1>, dilations = array<i64: 2, 1>} : (tensor<1x11x10x3xf32>, tensor<1x6x3x4xf32>) -> tensor<2x3x3x4xf32>
  return %0 : tensor<2x3x3x4xf32>
}
func.func @big_pad_input(%f: tensor<2x2x2x3xf64>, %dy: tensor<1x6x3x3xf64>) -> tensor<1x4x5x2xf64> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 4, 5, 2>, strides = array<i64: 1, 2>, padding = array<i64: 3, 0, 0, 2>, dilations = array<i64: 1, 1>} : (tensor<2x2x2x3xf64>, tensor<1x6x3x3xf64>) -> tensor<1x4x5x2xf64>
  return %0 : tensor<1x4x5x2xf64>
}
func.func @big_pad_filter(%x: tensor<1x4x5x2xf64>, %dy: tensor<1x6x3x3xf64>) -> tensor<2x2x2x3xf64> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 2, 2, 2, 3>, strides = array<i64: 1, 2>, padding = array<i64: 3, 0, 0, 2>, dilations = array<i64: 1, 1>} : (tensor<1x4x5x2xf64>, tensor<1x6x3x3xf64>) -> tensor<2x2x2x3xf64>
  return %0 : tensor<2x2x2x3xf64>
}
func.func @s2_f16_input(%f: tensor<3x3x2x3xf16>, %dy: tensor<1x3x3x3xf16>) -> tensor<1x5x5x2xf16> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 5, 5, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<3x3x2x3xf16>, tensor<1x3x3x3xf16>) -> tensor<1x5x5x2xf16>
  return %0 : tensor<1x5x5x2xf16>
}
func.func @s2_f16_filter(%x: tensor<1x5x5x2xf16>, %dy: tensor<1x3x3x3xf16>) -> tensor<3x3x2x3xf16> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 2, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x5x5x2xf16>, tensor<1x3x3x3xf16>) -> tensor<3x3x2x3xf16>
  return %0 : tensor<3x3x2x3xf16>
}

