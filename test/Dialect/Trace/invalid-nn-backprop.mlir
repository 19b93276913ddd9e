// RUN: tracec-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// conv2d_backprop_input
//===----------------------------------------------------------------------===//

func.func @bi_filter_rank(%f: tensor<3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{filter must be a 4-D HWCF tensor, got 'tensor<3x3x16xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_dy_rank(%f: tensor<3x3x3x16xf32>, %dy: tensor<6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy must be a 4-D NHWC tensor, got 'tensor<6x6x16xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_element_types(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf16>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{operand element types differ: filter 'f32' vs dy 'f16'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf16>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_integers(%f: tensor<3x3x3x16xi32>, %dy: tensor<1x6x6x16xi32>) -> tensor<1x8x8x3xi32> {
  // expected-error @below {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xi32>, tensor<1x6x6x16xi32>) -> tensor<1x8x8x3xi32>
  return %0 : tensor<1x8x8x3xi32>
}

// -----

func.func @bi_missing_shape(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{'trace.conv2d_backprop_input' op needs 'input_shape' or 'like'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_shape_count(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{input_shape must be 4 positive sizes [N, H, W, C], got [8, 8, 3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_shape_zero(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{input_shape must be 4 positive sizes [N, H, W, C], got [1, 0, 8, 3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 0, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_channels(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @below {{input channels differ: input_shape 4 vs filter 3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 4>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @bi_zero_stride(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{strides must be 2 positive values [sh, sw], got [0, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>, strides = array<i64: 0, 1>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_padding(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{padding must be 4 non-negative values [top, bottom, left, right], got [1, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>, padding = array<i64: 1, 1>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_dilation(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dilations must be 2 positive values [dh, dw], got [1, 0]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>, dilations = array<i64: 1, 0>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_filter_too_large(%f: tensor<5x5x3x16xf32>, %dy: tensor<1x1x1x16xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @below {{filter 5x5 (dilated) does not fit the padded input_shape 1x4x4x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 4, 4, 3>} : (tensor<5x5x3x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @bi_dy_spatial(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x5x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy shape 1x6x5x16 does not match 1x6x6x16, the conv2d output shape of input_shape and filter}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x5x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_dy_channels(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x8xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy shape 1x6x6x8 does not match 1x6x6x16, the conv2d output shape of input_shape and filter}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x8xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_dy_batch(%f: tensor<3x3x3x16xf32>, %dy: tensor<2x6x6x16xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy shape 2x6x6x16 does not match 1x6x6x16, the conv2d output shape of input_shape and filter}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<2x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @bi_wrong_result(%f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @below {{inferred type(s) 'tensor<1x8x8x3xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// conv2d_backprop_filter
//===----------------------------------------------------------------------===//

func.func @bf_input_rank(%x: tensor<8x8x3xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32> {
  // expected-error @below {{input must be a 4-D NHWC tensor, got 'tensor<8x8x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  return %0 : tensor<3x3x3x16xf32>
}

// -----

func.func @bf_element_types(%x: tensor<1x8x8x3xf64>, %dy: tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32> {
  // expected-error @below {{operand element types differ: input 'f64' vs dy 'f32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<1x8x8x3xf64>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  return %0 : tensor<3x3x3x16xf32>
}

// -----

func.func @bf_shape_negative(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32> {
  // expected-error @below {{filter_shape must be 4 positive sizes [KH, KW, C, F], got [3, -3, 3, 16]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, -3, 3, 16>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  return %0 : tensor<3x3x3x16xf32>
}

// -----

func.func @bf_channels(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<3x3x2x16xf32> {
  // expected-error @below {{input channels differ: input 3 vs filter_shape 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 2, 16>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x2x16xf32>
  return %0 : tensor<3x3x2x16xf32>
}

// -----

func.func @bf_dy_strided(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32> {
  // expected-error @below {{dy shape 1x6x6x16 does not match 1x3x3x16, the conv2d output shape of input and filter_shape}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  return %0 : tensor<3x3x3x16xf32>
}

// -----

func.func @bf_dy_filters(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<3x3x3x8xf32> {
  // expected-error @below {{dy shape 1x6x6x16 does not match 1x6x6x8, the conv2d output shape of input and filter_shape}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 8>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x8xf32>
  return %0 : tensor<3x3x3x8xf32>
}

// -----

func.func @bf_wrong_result(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x6x6x16xf32>) -> tensor<3x3x16x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<3x3x3x16xf32>' are incompatible with return type(s) of operation 'tensor<3x3x16x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x16x3xf32>
  return %0 : tensor<3x3x16x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// max_pool2d_grad
//===----------------------------------------------------------------------===//

func.func @mp_input_rank(%x: tensor<8x8x3xf32>, %dy: tensor<1x4x4x3xf32>) -> tensor<8x8x3xf32> {
  // expected-error @below {{input must be a 4-D NHWC tensor, got 'tensor<8x8x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<8x8x3xf32>
  return %0 : tensor<8x8x3xf32>
}

// -----

func.func @mp_dy_rank(%x: tensor<1x8x8x3xf32>, %dy: tensor<4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy must be a 4-D NHWC tensor, got 'tensor<4x4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @mp_window(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{window must be 2 positive sizes [kh, kw], got [2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @mp_missing_window(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{requires attribute 'window'}}
  %0 = trace.max_pool2d_grad %x, %dy : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @mp_padding_window(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{padding of dim 1 must be smaller than the window (2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, padding = array<i64: 0, 2, 0, 0>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @mp_element_types(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x4x4x3xf16>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{operand element types differ: input 'f32' vs dy 'f16'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf16>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @mp_dy_shape(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy shape 1x4x4x3 does not match 1x7x7x3, the max_pool2d output shape of input}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @mp_wrong_result(%x: tensor<1x8x8x3xf32>, %dy: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<1x8x8x3xf32>' are incompatible with return type(s) of operation 'tensor<1x4x4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// avg_pool2d_grad
//===----------------------------------------------------------------------===//

func.func @ap_dy_rank(%dy: tensor<4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy must be a 4-D NHWC tensor, got 'tensor<4x4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<4x4x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @ap_missing_shape(%dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{'trace.avg_pool2d_grad' op needs 'input_shape' or 'like'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @ap_shape_count(%dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{input_shape must be 4 positive sizes [N, H, W, C], got [1, 8, 8, 3, 1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 8, 8, 3, 1>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @ap_zero_stride(%dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{strides must be 2 positive values [sh, sw], got [2, 0]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 2, 2>, strides = array<i64: 2, 0>} : tensor<1x4x4x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @ap_padding_window(%dy: tensor<1x4x5x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{padding of dim 2 must be smaller than the window (3)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 2, 3>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 3, 0>} : tensor<1x4x5x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @ap_window_too_large(%dy: tensor<1x1x1x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{window 9x2 does not fit the padded input 1x8x8x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 9, 2>} : tensor<1x1x1x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @ap_dy_shape(%dy: tensor<1x4x3x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @below {{dy shape 1x4x3x3 does not match 1x4x4x3, the avg_pool2d output shape of input_shape}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x3x3xf32> -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @ap_wrong_result(%dy: tensor<1x4x4x3xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @below {{inferred type(s) 'tensor<1x8x8x3xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xf32> -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// The `like` form of conv2d_backprop_input and avg_pool2d_grad
//===----------------------------------------------------------------------===//

func.func @bi_like_and_shape(%f: tensor<3x3x3x16xf32>, %dy: tensor<?x6x6x16xf32>, %x: tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32> {
  // expected-error @below {{'trace.conv2d_backprop_input' op takes either 'input_shape' or 'like', not both}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy like %x {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<?x6x6x16xf32>, tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32>
  return %0 : tensor<?x8x8x3xf32>
}

// -----

func.func @bi_like_rank(%f: tensor<3x3x3x16xf32>, %dy: tensor<?x6x6x16xf32>, %x: tensor<?x8x3xf32>) -> tensor<?x8x3xf32> {
  // expected-error @below {{'trace.conv2d_backprop_input' op like must be a 4-D NHWC tensor, got 'tensor<?x8x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy like %x : (tensor<3x3x3x16xf32>, tensor<?x6x6x16xf32>, tensor<?x8x3xf32>) -> tensor<?x8x3xf32>
  return %0 : tensor<?x8x3xf32>
}

// -----

func.func @bi_like_dy(%f: tensor<3x3x3x16xf32>, %dy: tensor<?x5x6x16xf32>, %x: tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32> {
  // expected-error @below {{'trace.conv2d_backprop_input' op dy shape ?x5x6x16 does not match ?x6x6x16, the conv2d output shape of input_shape and filter}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy like %x : (tensor<3x3x3x16xf32>, tensor<?x5x6x16xf32>, tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32>
  return %0 : tensor<?x8x8x3xf32>
}

// -----

func.func @ap_like_and_shape(%dy: tensor<?x4x4x3xf32>, %x: tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32> {
  // expected-error @below {{'trace.avg_pool2d_grad' op takes either 'input_shape' or 'like', not both}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy like %x {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x4x4x3xf32>, tensor<?x8x8x3xf32> -> tensor<?x8x8x3xf32>
  return %0 : tensor<?x8x8x3xf32>
}

// -----

func.func @ap_like_dy(%dy: tensor<?x3x4x3xf32>, %x: tensor<?x8x8x3xf32>) -> tensor<?x8x8x3xf32> {
  // expected-error @below {{'trace.avg_pool2d_grad' op dy shape ?x3x4x3 does not match ?x4x4x3, the avg_pool2d output shape of input_shape}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.avg_pool2d_grad %dy like %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x3x4x3xf32>, tensor<?x8x8x3xf32> -> tensor<?x8x8x3xf32>
  return %0 : tensor<?x8x8x3xf32>
}
