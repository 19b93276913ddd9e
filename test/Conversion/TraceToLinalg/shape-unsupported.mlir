// RUN: tracec-opt %s --trace-to-linalg -split-input-file -verify-diagnostics

// Dynamic shapes that are not lowered yet: reported, never dropped. A
// reshape with a `?` that is not a collapse or expand of contiguous dims:
func.func @reshape_dynamic(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error @below {{failed to legalize operation 'trace.reshape'}}
  %0 = trace.reshape %x : tensor<?x4xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// No index can be clamped into an empty axis.
func.func @gather_empty_axis(%p: tensor<0x3xf32>, %i: tensor<2xi32>) -> tensor<2x3xf32> {
  // expected-error @below {{failed to legalize operation 'trace.gather'}}
  %0 = trace.gather %p, %i : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
