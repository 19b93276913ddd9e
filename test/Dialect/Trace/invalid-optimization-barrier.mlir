// RUN: tracec-opt %s -split-input-file -verify-diagnostics

func.func @empty() {
  // expected-error @+1 {{'trace.optimization_barrier' op expects at least one operand}}
  "trace.optimization_barrier"() : () -> ()
  return
}

// -----

func.func @not_a_tensor(%x: memref<4xf32>) {
  // expected-error @+1 {{operand #0 must be variadic of ranked tensor}}
  %r = trace.optimization_barrier %x : memref<4xf32>
  return
}

// -----

func.func @result_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'trace.optimization_barrier' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  // expected-error @+1 {{'trace.optimization_barrier' op failed to infer returned types}}
  %r = "trace.optimization_barrier"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return
}
