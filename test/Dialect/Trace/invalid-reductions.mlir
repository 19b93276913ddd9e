// RUN: tracec-opt %s -split-input-file -verify-diagnostics

func.func @axis_too_large(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_sum %x {axes = array<i64: 2>} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @axis_too_negative(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @below {{axis -3 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_mean %x {axes = array<i64: -3>} : tensor<2x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @scalar_has_no_axes(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{axis 0 is out of range for rank 0}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_max %x {axes = array<i64: 0>} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @axis_repeated(%x: tensor<2x3xi32>) -> tensor<3xi32> {
  // expected-error @below {{axes [0, 0] name dim 0 more than once}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_min %x {axes = array<i64: 0, 0>} : tensor<2x3xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// A negative axis and its positive spelling are the same dim.
func.func @axis_repeated_negative(%x: tensor<2x3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @below {{axes [0, -3] name dim 0 more than once}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_sum %x {axes = array<i64: 0, -3>} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @missing_keepdims(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @below {{inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<2x3xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @keepdims_result_too_small(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @below {{inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_max %x {axes = array<i64: 1>, keepdims} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @wrong_reduced_dim(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_sum %x {axes = array<i64: -1>} : tensor<2x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @mean_of_integers(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error @below {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = trace.reduce_mean %x {axes = array<i64: 1>} : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @sum_of_bools(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  // expected-error @below {{operand #0 must be ranked tensor of}}
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @missing_axes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{requires attribute 'axes'}}
  %0 = trace.reduce_sum %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @argmax_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.argmax %x {axis = 2} : tensor<2x3xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @argmax_negative_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<3xi64> {
  // expected-error @below {{axis -3 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.argmax %x {axis = -3} : tensor<2x3xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @argmax_of_scalar(%x: tensor<f32>) -> tensor<i64> {
  // expected-error @below {{axis 0 is out of range for rank 0}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.argmax %x {axis = 0} : tensor<f32> -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @argmax_wrong_shape(%x: tensor<2x3xf32>) -> tensor<3xi64> {
  // expected-error @below {{inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.argmax %x {axis = 1} : tensor<2x3xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @argmax_i32_result(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @below {{result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = trace.argmax %x {axis = 1} : tensor<2x3xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @argmax_missing_axis(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  // expected-error @below {{requires attribute 'axis'}}
  %0 = trace.argmax %x : tensor<2x3xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @softmax_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  %0 = trace.softmax %x {axis = 2} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @log_softmax_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{axis -3 is out of range for rank 2}}
  %0 = trace.log_softmax %x {axis = -3} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_of_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{operand must have rank >= 1, got a scalar}}
  %0 = trace.softmax %x : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @log_softmax_of_scalar(%x: tensor<f64>) -> tensor<f64> {
  // expected-error @below {{operand must have rank >= 1, got a scalar}}
  %0 = trace.log_softmax %x : tensor<f64>
  return %0 : tensor<f64>
}

// -----

func.func @softmax_of_integers(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @below {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = trace.softmax %x : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// reduce_prod infers its type like the other reductions.
func.func @prod_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_prod %x {axes = array<i64: 2>} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @prod_wrong_result(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @below {{'trace.reduce_prod' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_prod %x {axes = array<i64: 1>} : tensor<2x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A maximum, minimum or argmax of no elements has no value (NumPy raises);
// a sum is 0 (valid, not tested here).
func.func @max_of_empty_dim(%x: tensor<2x0xf32>) -> tensor<2xf32> {
  // expected-error @below {{reduces dim 1 of 'tensor<2x0xf32>', which is empty: a maximum, minimum or argmax of no elements is undefined}}
  %0 = trace.reduce_max %x {axes = array<i64: -1>} : tensor<2x0xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Even where the result is empty too, as NumPy's maximum of a (0, 0) array
// along an axis.
func.func @min_of_empty_dim(%x: tensor<0x0xi32>) -> tensor<0xi32> {
  // expected-error @below {{reduces dim 0 of 'tensor<0x0xi32>', which is empty}}
  %0 = trace.reduce_min %x {axes = array<i64: 0>} : tensor<0x0xi32> -> tensor<0xi32>
  return %0 : tensor<0xi32>
}

// -----

func.func @argmax_of_empty_dim(%x: tensor<0x3xf32>) -> tensor<3xi64> {
  // expected-error @below {{reduces dim 0 of 'tensor<0x3xf32>', which is empty}}
  %0 = trace.argmax %x {axis = 0 : i64} : tensor<0x3xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}
