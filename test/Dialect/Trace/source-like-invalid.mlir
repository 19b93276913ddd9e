// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// What the verifiers of the `like` forms of fill, iota and random reject:
// a result shape other than `like`'s, and `?` dims with no `like`.

func.func @fill_like_wrong_result(%v: tensor<f32>, %x: tensor<?x4xf32>) -> tensor<3x4xf32> {
  // expected-error @below {{'trace.fill' op result shape 3x4 must be the shape of 'like' ?x4}}
  %0 = trace.fill %v like %x : tensor<f32>, tensor<?x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @fill_like_rank(%v: tensor<f32>, %x: tensor<?x4xf32>) -> tensor<?xf32> {
  // expected-error @below {{'trace.fill' op result shape ? must be the shape of 'like' ?x4}}
  %0 = trace.fill %v like %x : tensor<f32>, tensor<?x4xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @fill_dynamic(%v: tensor<f32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.fill' op result dim 0 is dynamic, but no operand gives its size at run time; the result shape must be static, got ?x4}}
  %0 = trace.fill %v : tensor<f32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @iota_like_wrong_result(%x: tensor<?x4xf32>) -> tensor<?x5xi32> {
  // expected-error @below {{'trace.iota' op result shape ?x5 must be the shape of 'like' ?x4}}
  %0 = trace.iota like %x : tensor<?x4xf32> -> tensor<?x5xi32>
  return %0 : tensor<?x5xi32>
}

// -----

func.func @iota_like_axis(%x: tensor<?x4xf32>) -> tensor<?x4xi32> {
  // expected-error @below {{'trace.iota' op axis 2 is out of range for rank 2}}
  %0 = trace.iota like %x {axis = 2} : tensor<?x4xf32> -> tensor<?x4xi32>
  return %0 : tensor<?x4xi32>
}

// -----

func.func @iota_dynamic() -> tensor<?xi32> {
  // expected-error @below {{'trace.iota' op result dim 0 is dynamic, but no operand gives its size at run time}}
  %0 = trace.iota : tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

func.func @uniform_like_wrong_result(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error @below {{'trace.random_uniform' op result shape 4x? must be the shape of 'like' ?x4}}
  %0, %t = trace.random_uniform like %x : tensor<?x4xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @uniform_dynamic() -> tensor<?xf32> {
  // expected-error @below {{'trace.random_uniform' op result dim 0 is dynamic, but no operand gives its size at run time}}
  %0, %t = trace.random_uniform : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @normal_like_wrong_result(%x: tensor<?xf32>) -> tensor<?x1xf32> {
  // expected-error @below {{'trace.random_normal' op result shape ?x1 must be the shape of 'like' ?}}
  %0, %t = trace.random_normal like %x : tensor<?xf32> -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

func.func @normal_like_bounds(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{'trace.random_normal' op stddev must be positive and finite, got 0}}
  %0, %t = trace.random_normal like %x {stddev = 0.0} : tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// The `like` type and the `like` operand come together.
func.func @iota_like_type_without_operand() -> tensor<3xi32> {
  // expected-error @below {{custom op 'trace.iota' number of operands and types do not match: got 0 operands and 1 types}}
  %0 = trace.iota : tensor<3xf32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @uniform_like_without_type(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{custom op 'trace.random_uniform' number of operands and types do not match: got 1 operands and 0 types}}
  %0, %t = trace.random_uniform like %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
