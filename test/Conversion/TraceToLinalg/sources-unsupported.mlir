// RUN: tracec-opt %s --trace-to-linalg -split-input-file -verify-diagnostics

// Control tokens and stateful sources belong to trace-lower-state, which
// runs first in the pipelines: left to this pass they are reported, never
// dropped.
func.func @identity_after(%x: tensor<4xf32>, %c: !trace.control) -> tensor<4xf32> {
  // expected-error @below {{failed to legalize operation 'trace.identity'}}
  %0 = trace.identity %x after(%c) : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @random() -> tensor<4xf32> {
  // expected-error @below {{failed to legalize operation 'trace.random_uniform'}}
  %0, %c = trace.random_uniform {seed = 3} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
