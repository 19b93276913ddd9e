// RUN: tracec-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// scatter_add
//===----------------------------------------------------------------------===//

func.func @scatter_axis_out_of_range(%t: tensor<5x3xf32>, %i: tensor<4xi32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @below {{axis 2 is out of range for an operand of rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.scatter_add %t, %i, %u {axis = 2} : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_scalar_operand(%t: tensor<f32>, %i: tensor<4xi32>, %u: tensor<4xf32>) -> tensor<f32> {
  // expected-error @below {{operand must have rank >= 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.scatter_add %t, %i, %u : (tensor<f32>, tensor<4xi32>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @scatter_updates_shape(%t: tensor<5x3xf32>, %i: tensor<4xi32>, %u: tensor<4x2xf32>) -> tensor<5x3xf32> {
  // expected-error @below {{updates shape 4x2 does not match 4x3, gather's result shape (operand dims before axis 0, the indices' dims, operand dims after it)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.scatter_add %t, %i, %u : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x2xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_updates_rank(%t: tensor<5x3xf32>, %i: tensor<2x2xi32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @below {{updates shape 4x3 does not match 2x2x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.scatter_add %t, %i, %u : (tensor<5x3xf32>, tensor<2x2xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_element_types(%t: tensor<5x3xf32>, %i: tensor<4xi32>, %u: tensor<4x3xf64>) -> tensor<5x3xf32> {
  // expected-error @below {{updates element type 'f64' differs from the operand's 'f32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.scatter_add %t, %i, %u : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x3xf64>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_float_indices(%t: tensor<5x3xf32>, %i: tensor<4xf32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @below {{operand #1 must be ranked tensor of}}
  %0 = trace.scatter_add %t, %i, %u : (tensor<5x3xf32>, tensor<4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @scatter_result_type(%t: tensor<5x3xf32>, %i: tensor<4xi32>, %u: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<5x3xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.scatter_add %t, %i, %u : (tensor<5x3xf32>, tensor<4xi32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// max_pool2d_select
//===----------------------------------------------------------------------===//

func.func @select_t_shape(%x: tensor<1x4x4x3xf32>, %t: tensor<1x4x5x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @below {{t shape 1x4x5x3 does not match the input shape 1x4x4x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x5x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @select_t_rank(%x: tensor<1x4x4x3xf32>, %t: tensor<4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @below {{t must be a 4-D NHWC tensor, got 'tensor<4x4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @select_element_types(%x: tensor<1x4x4x3xf32>, %t: tensor<1x4x4x3xf64>) -> tensor<1x2x2x3xf32> {
  // expected-error @below {{operand element types differ: input 'f32' vs t 'f64'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf64>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @select_window(%x: tensor<1x4x4x3xf32>, %t: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @below {{window must be 2 positive sizes [kh, kw], got [2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @select_result(%x: tensor<1x4x4x3xf32>, %t: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<1x2x2x3xf32>' are incompatible with return type(s) of operation 'tensor<1x4x4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}
