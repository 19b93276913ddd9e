// RUN: tracec-opt %s --trace-lower-state -split-input-file -verify-diagnostics

// The print callback and the random numbers' element numbering need static
// shapes.
func.func @print_dynamic(%x: tensor<?xf32>) {
  // expected-error @below {{'trace.print' op needs a statically shaped operand to be lowered, got 'tensor<?xf32>'}}
  %c = trace.print %x : tensor<?xf32>
  return
}

// -----

func.func @random_dynamic() -> tensor<?xf32> {
  // expected-error @below {{'trace.random_uniform' op needs a statically shaped result to be lowered, got 'tensor<?xf32>'}}
  %u, %c = trace.random_uniform : tensor<?xf32>
  return %u : tensor<?xf32>
}

// -----

func.func @dynamic_variable(
    // expected-error @below {{argument 0 of @dynamic_variable: '!trace.resource<tensor<?xf32>>' needs a statically shaped tensor value to become a buffer}}
    %v: !trace.resource<tensor<?xf32>>) -> tensor<?xf32> {
  %r, %c = trace.var.read %v : !trace.resource<tensor<?xf32>>
  return %r : tensor<?xf32>
}
