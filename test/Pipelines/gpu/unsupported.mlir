// Ops that no pipeline lowers yet (random_*, print) are a diagnostic with
// the op's location on the GPU too, not a crash.
// RUN: tracec-opt %s --tracec-gpu-pipeline -verify-diagnostics -o /dev/null
func.func @noise() -> tensor<4xf32> {
  // expected-error @below {{failed to legalize operation 'trace.random_uniform'}}
  %r, %c = trace.random_uniform : tensor<4xf32>
  return %r : tensor<4xf32>
}
