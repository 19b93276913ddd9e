// RUN: tracec-opt %s --trace-to-linalg -split-input-file -verify-diagnostics

// No index can be clamped into an empty axis.
func.func @gather_empty_axis(%p: tensor<0x3xf32>, %i: tensor<2xi32>) -> tensor<2x3xf32> {
  // expected-error @below {{failed to legalize operation 'trace.gather'}}
  %0 = trace.gather %p, %i : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
