// RUN: tracec-opt %s --trace-to-linalg -split-input-file -verify-diagnostics

// Dynamic shapes are not lowered yet by the neural-network and argmax
// patterns: the ops are reported at their location, never dropped.
func.func @conv_dynamic(%x: tensor<?x5x5x3xf32>, %f: tensor<3x3x3x4xf32>) -> tensor<?x3x3x4xf32> {
  // expected-error @below {{failed to legalize operation 'trace.conv2d'}}
  %0 = trace.conv2d %x, %f : (tensor<?x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x3x3x4xf32>
  return %0 : tensor<?x3x3x4xf32>
}

// -----

func.func @avg_pool_dynamic(%x: tensor<1x?x4x2xf32>) -> tensor<1x?x2x2xf32> {
  // expected-error @below {{failed to legalize operation 'trace.avg_pool2d'}}
  %0 = trace.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x?x4x2xf32> -> tensor<1x?x2x2xf32>
  return %0 : tensor<1x?x2x2xf32>
}

// -----

func.func @argmax_dynamic(%x: tensor<?x4xf32>) -> tensor<?xi64> {
  // expected-error @below {{failed to legalize operation 'trace.argmax'}}
  %0 = trace.argmax %x {axis = 1} : tensor<?x4xf32> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
