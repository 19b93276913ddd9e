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

// Tokens are erased: an op that takes one and is not lowered here would be
// left dangling.
func.func private @sink(!trace.control)
func.func @token_to_call(%x: tensor<2xf32>) {
  %c = trace.print %x : tensor<2xf32>
  // expected-error @below {{'func.call' op takes a control token, which trace-lower-state cannot lower}}
  func.call @sink(%c) : (!trace.control) -> ()
  return
}
