// RUN: tracec-opt %s --trace-lower-state -split-input-file -verify-diagnostics

// The print callback needs static shapes. (A random op with a `?` result
// is rejected by its verifier: nothing gives its size.)
func.func @print_dynamic(%x: tensor<?xf32>) {
  // expected-error @below {{'trace.print' op needs a statically shaped operand to be lowered, got 'tensor<?xf32>'}}
  %c = trace.print %x : tensor<?xf32>
  return
}

// -----

func.func @dynamic_variable(
    // expected-error @below {{argument 0 of @dynamic_variable: '!trace.resource<tensor<?xf32>>' needs a statically shaped tensor value to become a buffer}}
    %v: !trace.resource<tensor<?xf32>>) -> tensor<?xf32> {
  %r, %c = trace.var.read %v : !trace.resource<tensor<?xf32>>
  return %r : tensor<?xf32>
}
