// RUN: tracec-opt %s --trace-to-linalg -split-input-file -verify-diagnostics

// Ops that are not lowered are reported at their location, never dropped.
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error @below {{failed to legalize operation 'trace.reshape'}}
  %0 = trace.reshape %x : tensor<?x4xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
