// RUN: tracec-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

func.func @conv2d_channels_differ(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{input channels differ: input 3 vs filter 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_input_rank(%in: tensor<8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<6x6x16xf32> {
  // expected-error @below {{input must be a 4-D NHWC tensor, got 'tensor<8x8x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<6x6x16xf32>
  return %0 : tensor<6x6x16xf32>
}

// -----

func.func @conv2d_filter_rank(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x1x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{filter must be a 4-D HWCF tensor, got 'tensor<3x3x3x1x16xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xf32>, tensor<3x3x3x1x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_element_types(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf16>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{operand element types differ: input 'f32' vs filter 'f16'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf16>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_integers(%in: tensor<1x8x8x3xi32>, %f: tensor<3x3x3x16xi32>) -> tensor<1x6x6x16xi32> {
  // expected-error @below {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xi32>, tensor<3x3x3x16xi32>) -> tensor<1x6x6x16xi32>
  return %0 : tensor<1x6x6x16xi32>
}

// -----

func.func @conv2d_zero_stride(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{strides must be 2 positive values [sh, sw], got [1, 0]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {strides = array<i64: 1, 0>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_stride_count(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{strides must be 2 positive values [sh, sw], got [1, 1, 1, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {strides = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_negative_dilation(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{dilations must be 2 positive values [dh, dw], got [-1, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {dilations = array<i64: -1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_dilation_count(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{dilations must be 2 positive values [dh, dw], got [1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {dilations = array<i64: 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_negative_padding(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @below {{padding must be 4 non-negative values [top, bottom, left, right], got [0, 0, -1, 0]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {padding = array<i64: 0, 0, -1, 0>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @conv2d_padding_count(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @below {{padding must be 4 non-negative values [top, bottom, left, right], got [1, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {padding = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

func.func @conv2d_filter_too_large(%in: tensor<1x4x4x3xf32>, %f: tensor<5x5x3x16xf32>) -> tensor<1x1x1x16xf32> {
  // expected-error @below {{filter 5x5 (dilated) does not fit the padded input 1x4x4x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<1x4x4x3xf32>, tensor<5x5x3x16xf32>) -> tensor<1x1x1x16xf32>
  return %0 : tensor<1x1x1x16xf32>
}

// -----

// A 3x3 filter dilated by 3 spans 7x7.
func.func @conv2d_dilated_filter_too_large(%in: tensor<1x6x6x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x1x1x16xf32> {
  // expected-error @below {{filter 3x3 (dilated) does not fit the padded input 1x6x6x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {dilations = array<i64: 3, 3>} : (tensor<1x6x6x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x1x1x16xf32>
  return %0 : tensor<1x1x1x16xf32>
}

// -----

func.func @conv2d_empty_filter(%in: tensor<1x8x8x3xf32>, %f: tensor<0x1x3x4xf32>) -> tensor<1x9x8x4xf32> {
  // expected-error @below {{filter spatial dims must be positive, got 0x1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xf32>, tensor<0x1x3x4xf32>) -> tensor<1x9x8x4xf32>
  return %0 : tensor<1x9x8x4xf32>
}

// -----

func.func @conv2d_wrong_result(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @below {{inferred type(s) 'tensor<1x6x6x16xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x16xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

// The result has the filter's output channels, not the input's.
func.func @conv2d_wrong_channels(%in: tensor<1x8x8x3xf32>, %f: tensor<1x1x3x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<1x8x8x16xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xf32>, tensor<1x1x3x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @conv2d_padding_overflow(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @below {{padded input dim 2 overflows: 8 + 0 + 9223372036854775807}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {padding = array<i64: 0, 0, 0, 9223372036854775807>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @conv2d_dilation_overflow(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @below {{dilated filter dim 0 overflows: dilation 9223372036854775807 x (3 - 1)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %in, %f {dilations = array<i64: 9223372036854775807, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// max_pool2d / avg_pool2d
//===----------------------------------------------------------------------===//

func.func @pool_input_rank(%x: tensor<8x8x3xf32>) -> tensor<4x4x3xf32> {
  // expected-error @below {{input must be a 4-D NHWC tensor, got 'tensor<8x8x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>} : tensor<8x8x3xf32> -> tensor<4x4x3xf32>
  return %0 : tensor<4x4x3xf32>
}

// -----

func.func @pool_window_count(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @below {{window must be 2 positive sizes [kh, kw], got [2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 2>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @pool_zero_window(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @below {{window must be 2 positive sizes [kh, kw], got [0, 2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d %x {window = array<i64: 0, 2>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @pool_missing_window(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{requires attribute 'window'}}
  %0 = trace.max_pool2d %x : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @pool_zero_stride(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @below {{strides must be 2 positive values [sh, sw], got [0, 2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 0, 2>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @pool_stride_count(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @below {{strides must be 2 positive values [sh, sw], got [2, 2, 2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2, 2>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @pool_negative_padding(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{padding must be 4 non-negative values [top, bottom, left, right], got [1, -1, 1, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 3, 3>, padding = array<i64: 1, -1, 1, 1>} : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @pool_padding_count(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{padding must be 4 non-negative values [top, bottom, left, right], got [1, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d %x {window = array<i64: 3, 3>, padding = array<i64: 1, 1>} : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

// A window made only of padding would have no element to pool.
func.func @pool_padding_as_large_as_window(%x: tensor<1x8x8x3xf32>) -> tensor<1x10x8x3xf32> {
  // expected-error @below {{padding of dim 1 must be smaller than the window (2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>, padding = array<i64: 0, 2, 0, 0>} : tensor<1x8x8x3xf32> -> tensor<1x10x8x3xf32>
  return %0 : tensor<1x10x8x3xf32>
}

// -----

func.func @pool_padding_as_large_as_window_w(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x10x3xf32> {
  // expected-error @below {{padding of dim 2 must be smaller than the window (3)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d %x {window = array<i64: 1, 3>, padding = array<i64: 0, 0, 3, 0>} : tensor<1x8x8x3xf32> -> tensor<1x8x10x3xf32>
  return %0 : tensor<1x8x10x3xf32>
}

// -----

func.func @pool_window_too_large(%x: tensor<1x4x4x3xf32>) -> tensor<1x1x1x3xf32> {
  // expected-error @below {{window 5x2 does not fit the padded input 1x4x4x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 5, 2>} : tensor<1x4x4x3xf32> -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}

// -----

func.func @pool_wrong_result(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<1x4x4x3xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @pool_integers(%x: tensor<1x8x8x3xi32>) -> tensor<1x4x4x3xi32> {
  // expected-error @below {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x8x8x3xi32> -> tensor<1x4x4x3xi32>
  return %0 : tensor<1x4x4x3xi32>
}

// -----

func.func @pool_padding_overflow(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{padded input dim 1 overflows: 8 + 9223372036854775806 + 9223372036854775806}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 9223372036854775807, 1>, padding = array<i64: 9223372036854775806, 9223372036854775806, 0, 0>} : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}
