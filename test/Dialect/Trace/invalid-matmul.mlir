// RUN: tracec-opt %s -split-input-file -verify-diagnostics

func.func @contraction_differs(%a: tensor<32x784xf32>, %b: tensor<783x10xf32>) -> tensor<32x10xf32> {
  // expected-error @below {{contraction dims differ: lhs 784 vs rhs 783}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<32x784xf32>, tensor<783x10xf32>) -> tensor<32x10xf32>
  return %0 : tensor<32x10xf32>
}

// -----

// transpose_a makes the contraction dim of lhs its first dim.
func.func @contraction_differs_transpose_a(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @below {{contraction dims differ: lhs 2 vs rhs 3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b {transpose_a} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// transpose_b makes the contraction dim of rhs its last dim.
func.func @contraction_differs_transpose_b(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{contraction dims differ: lhs 3 vs rhs 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @lhs_rank_1(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error @below {{operands must be at least 2-D: lhs 3, rhs 3x4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @rhs_scalar(%a: tensor<2x3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @below {{operands must be at least 2-D: lhs 2x3, rhs scalar}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @element_types_differ(%a: tensor<2x3xf32>, %b: tensor<3x4xf64>) -> tensor<2x4xf32> {
  // expected-error @below {{operand element types differ: lhs 'f32' vs rhs 'f64'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @int_float_mix(%a: tensor<2x3xi32>, %b: tensor<3x4xf32>) -> tensor<2x4xi32> {
  // expected-error @below {{operand element types differ: lhs 'i32' vs rhs 'f32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<2x3xi32>, tensor<3x4xf32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @batch_not_broadcastable(%a: tensor<5x2x3xf32>, %b: tensor<4x3x4xf32>) -> tensor<5x2x4xf32> {
  // expected-error @below {{batch dims are not broadcast-compatible: lhs 5 vs rhs 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<5x2x3xf32>, tensor<4x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

func.func @batch_not_broadcastable_rank4(%a: tensor<2x5x2x3xf32>, %b: tensor<3x1x3x4xf32>) -> tensor<2x5x2x4xf32> {
  // expected-error @below {{batch dims are not broadcast-compatible: lhs 2x5 vs rhs 3x1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<2x5x2x3xf32>, tensor<3x1x3x4xf32>) -> tensor<2x5x2x4xf32>
  return %0 : tensor<2x5x2x4xf32>
}

// -----

func.func @wrong_result_shape(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<4x2xf32> {
  // expected-error @below {{inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// The batch dims of the result are the broadcast ones, not lhs's.
func.func @wrong_result_batch(%a: tensor<1x2x3xf32>, %b: tensor<6x3x4xf32>) -> tensor<1x2x4xf32> {
  // expected-error @below {{inferred type(s) 'tensor<6x2x4xf32>' are incompatible with return type(s) of operation 'tensor<1x2x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<1x2x3xf32>, tensor<6x3x4xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @wrong_result_element(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi64> {
  // expected-error @below {{inferred type(s) 'tensor<2x4xi32>' are incompatible with return type(s) of operation 'tensor<2x4xi64>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi64>
  return %0 : tensor<2x4xi64>
}

// -----

func.func @bool_result(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi1> {
  // expected-error @below {{result #0 must be ranked tensor of}}
  %0 = trace.matmul %a, %b : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

func.func @bool_operands(%a: tensor<2x3xi1>, %b: tensor<3x4xi1>) -> tensor<2x4xi1> {
  // expected-error @below {{operand #0 must be ranked tensor of}}
  %0 = trace.matmul %a, %b : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

func.func @unranked(%a: tensor<*xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{operand #0 must be ranked tensor of}}
  %0 = trace.matmul %a, %b : (tensor<*xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
