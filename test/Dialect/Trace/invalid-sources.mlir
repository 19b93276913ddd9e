// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// Every error the source ops report.

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

func.func @constant_unsupported_element_type() {
  // expected-error @below {{'trace.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xi8>'}}
  %0 = trace.constant dense<[1, 2]> : tensor<2xi8>
  return
}

// -----

func.func @constant_not_a_tensor() {
  // expected-error @below {{'trace.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'vector<2xf32>'}}
  %0 = trace.constant dense<[1.0, 2.0]> : vector<2xf32>
  return
}

// -----

func.func @constant_not_elements() {
  // expected-error @below {{invalid kind of attribute specified}}
  %0 = trace.constant 1.0 : f32
  return
}

// -----

func.func @constant_result_type_mismatch() {
  // expected-error @below {{'trace.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{'trace.constant' op failed to infer returned types}}
  %0 = "trace.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @constant_missing_value() {
  // expected-error @below {{'trace.constant' op requires attribute 'value'}}
  %0 = "trace.constant"() : () -> tensor<3xf32>
  return
}

//===----------------------------------------------------------------------===//
// fill
//===----------------------------------------------------------------------===//

// -----

func.func @fill_non_scalar(%v: tensor<2xf32>) {
  // expected-error @below {{'trace.fill' op value must be a scalar (rank-0) tensor, got 'tensor<2xf32>'}}
  %0 = trace.fill %v : tensor<2xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @fill_size_one_is_not_scalar(%v: tensor<1xi32>) {
  // expected-error @below {{'trace.fill' op value must be a scalar (rank-0) tensor, got 'tensor<1xi32>'}}
  %0 = trace.fill %v : tensor<1xi32> -> tensor<4xi32>
  return
}

// -----

func.func @fill_element_type_mismatch(%v: tensor<f32>) {
  // expected-error @below {{'trace.fill' op result element type 'i32' differs from the value's 'f32'}}
  %0 = trace.fill %v : tensor<f32> -> tensor<2x3xi32>
  return
}

// -----

func.func @fill_unsupported_element_type(%v: tensor<i8>) {
  // expected-error @below {{'trace.fill' op operand #0 must be ranked tensor of}}
  %0 = trace.fill %v : tensor<i8> -> tensor<2xi8>
  return
}

// -----

func.func @fill_unranked_result(%v: tensor<f32>) {
  // expected-error @below {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = trace.fill %v : tensor<f32> -> tensor<*xf32>
  return
}

//===----------------------------------------------------------------------===//
// iota
//===----------------------------------------------------------------------===//

// -----

func.func @iota_axis_too_large() {
  // expected-error @below {{'trace.iota' op axis 2 is out of range for rank 2}}
  %0 = trace.iota {axis = 2} : tensor<2x3xi32>
  return
}

// -----

func.func @iota_axis_too_negative() {
  // expected-error @below {{'trace.iota' op axis -3 is out of range for rank 2}}
  %0 = trace.iota {axis = -3} : tensor<2x3xi32>
  return
}

// -----

func.func @iota_scalar() {
  // expected-error @below {{'trace.iota' op result must have rank >= 1}}
  %0 = trace.iota : tensor<i32>
  return
}

// -----

func.func @iota_bool() {
  // expected-error @below {{'trace.iota' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xi1>'}}
  %0 = trace.iota : tensor<3xi1>
  return
}

// -----

func.func @iota_axis_not_integer() {
  // expected-error @below {{attribute 'axis' failed to satisfy constraint: 64-bit integer attribute}}
  %0 = trace.iota {axis = 1.0} : tensor<2x3xi32>
  return
}

//===----------------------------------------------------------------------===//
// random_uniform
//===----------------------------------------------------------------------===//

// -----

func.func @random_uniform_low_equals_high() {
  // expected-error @below {{'trace.random_uniform' op low (1.000000e+00) must be less than high (1.000000e+00)}}
  %r, %c = trace.random_uniform {low = 1.0, high = 1.0} : tensor<4xf32>
  return
}

// -----

func.func @random_uniform_low_above_high() {
  // expected-error @below {{'trace.random_uniform' op low (3.000000e+00) must be less than high (2.000000e+00)}}
  %r, %c = trace.random_uniform {low = 3.0, high = 2.0} : tensor<4xf32>
  return
}

// -----

func.func @random_uniform_default_high() {
  // The default range is [0, 1): low = 5 alone is empty.
  // expected-error @below {{'trace.random_uniform' op low (5.000000e+00) must be less than high (1.000000e+00)}}
  %r, %c = trace.random_uniform {low = 5.0} : tensor<4xf32>
  return
}

// -----

func.func @random_uniform_nan() {
  // expected-error @below {{'trace.random_uniform' op low and high must be finite, got low = nan and high = 1.000000e+00}}
  %r, %c = trace.random_uniform {low = 0x7FF8000000000000 : f64} : tensor<4xf32>
  return
}

// -----

func.func @random_uniform_infinite() {
  // expected-error @below {{'trace.random_uniform' op low and high must be finite, got low = -INF and high = 1.000000e+00}}
  %r, %c = trace.random_uniform {low = 0xFFF0000000000000 : f64} : tensor<4xf32>
  return
}

// -----

func.func @random_uniform_integer_result() {
  // expected-error @below {{'trace.random_uniform' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %r, %c = trace.random_uniform : tensor<4xi32>
  return
}

// -----

func.func @random_uniform_f32_attribute() {
  // expected-error @below {{attribute 'low' failed to satisfy constraint: 64-bit float attribute}}
  %r, %c = trace.random_uniform {low = 0.5 : f32} : tensor<4xf32>
  return
}

// -----

func.func @random_uniform_after_not_control(
    // expected-note @below {{prior use here}}
    %x: tensor<4xf32>) {
  // expected-error @below {{'%x' expects different type than prior uses: '!trace.control' vs 'tensor<4xf32>'}}
  %r, %c = trace.random_uniform after(%x) : tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// random_normal
//===----------------------------------------------------------------------===//

// -----

func.func @random_normal_zero_stddev() {
  // expected-error @below {{'trace.random_normal' op stddev must be positive and finite, got 0.000000e+00}}
  %r, %c = trace.random_normal {stddev = 0.0} : tensor<4xf32>
  return
}

// -----

func.func @random_normal_negative_stddev() {
  // expected-error @below {{'trace.random_normal' op stddev must be positive and finite, got -2.000000e+00}}
  %r, %c = trace.random_normal {stddev = -2.0} : tensor<4xf32>
  return
}

// -----

func.func @random_normal_infinite_stddev() {
  // expected-error @below {{'trace.random_normal' op stddev must be positive and finite, got INF}}
  %r, %c = trace.random_normal {stddev = 0x7FF0000000000000 : f64} : tensor<4xf32>
  return
}

// -----

func.func @random_normal_nan_mean() {
  // expected-error @below {{'trace.random_normal' op mean must be finite, got nan}}
  %r, %c = trace.random_normal {mean = 0x7FF8000000000000 : f64} : tensor<4xf32>
  return
}

// -----

func.func @random_normal_integer_result() {
  // expected-error @below {{'trace.random_normal' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi64>'}}
  %r, %c = trace.random_normal : tensor<4xi64>
  return
}

//===----------------------------------------------------------------------===//
// stateless_random_uniform, stateless_random_normal, stateless_random_bits
//===----------------------------------------------------------------------===//

// -----

func.func @stateless_key_shape(%key: tensor<3xi32>) {
  // expected-error @below {{'trace.stateless_random_uniform' op key must be a tensor<2xi32> (a random key), got 'tensor<3xi32>'}}
  %0 = trace.stateless_random_uniform %key : tensor<3xi32> -> tensor<4xf32>
  return
}

// -----

func.func @stateless_key_type(%key: tensor<2xi64>) {
  // expected-error @below {{'trace.stateless_random_normal' op key must be a tensor<2xi32> (a random key), got 'tensor<2xi64>'}}
  %0 = trace.stateless_random_normal %key : tensor<2xi64> -> tensor<4xf32>
  return
}

// -----

func.func @stateless_dynamic_result(%key: tensor<2xi32>) {
  // expected-error @below {{'trace.stateless_random_uniform' op result must have a static shape, got 'tensor<?xf32>'}}
  %0 = trace.stateless_random_uniform %key : tensor<2xi32> -> tensor<?xf32>
  return
}

// -----

func.func @stateless_uniform_range(%key: tensor<2xi32>) {
  // expected-error @below {{'trace.stateless_random_uniform' op low (2.000000e+00) must be less than high (1.000000e+00)}}
  %0 = trace.stateless_random_uniform %key {low = 2.0, high = 1.0} : tensor<2xi32> -> tensor<4xf32>
  return
}

// -----

func.func @stateless_normal_stddev(%key: tensor<2xi32>) {
  // expected-error @below {{'trace.stateless_random_normal' op stddev must be positive and finite, got 0}}
  %0 = trace.stateless_random_normal %key {stddev = 0.0} : tensor<2xi32> -> tensor<4xf32>
  return
}

// -----

func.func @stateless_bits_counter(%key: tensor<2xi32>, %c: tensor<2xi32>) {
  // expected-error @below {{'trace.stateless_random_bits' op counter must be a tensor<i32>, got 'tensor<2xi32>'}}
  %0 = trace.stateless_random_bits %key, %c : tensor<2xi32>, tensor<2xi32> -> tensor<4xi32>
  return
}

// -----

func.func @stateless_bits_result(%key: tensor<2xi32>, %c: tensor<i32>) {
  // expected-error @below {{'trace.stateless_random_bits' op result must have i32 elements, got 'tensor<4xi64>'}}
  %0 = trace.stateless_random_bits %key, %c : tensor<2xi32>, tensor<i32> -> tensor<4xi64>
  return
}
