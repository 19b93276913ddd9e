// RUN: tracec-opt %s --trace-to-linalg -split-input-file -verify-diagnostics

// Ops that are not lowered are reported at their location, never dropped.
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{failed to legalize operation 'trace.exp'}}
  %0 = trace.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
