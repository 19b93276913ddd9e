// RUN: tracec-opt %s --trace-vmap -split-input-file -verify-diagnostics

// An op with a batched operand and no batching rule is named.

func.func private @f(%x: tensor<4xf32>, %i: tensor<2xi32>, %u: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @below {{'trace.scatter_add' op has no batching rule: vmap cannot map it over a batched operand}}
  %g = trace.scatter_add %x, %i, %u : (tensor<4xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

func.func @caller(%xs: tensor<8x4xf32>, %i: tensor<2xi32>, %u: tensor<2xf32>) -> tensor<8x4xf32> {
  %g = trace.vmap @f(%xs, %i, %u) {in_axes = array<i64: 0, -1, -1>, out_axes = array<i64: 0>} : (tensor<8x4xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<8x4xf32>
  return %g : tensor<8x4xf32>
}

// -----

// gather with a table and indices per example has no rule yet.

func.func private @f(%x: tensor<4xf32>, %i: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @below {{'trace.gather' op cannot be batched (vmap) with both its params and its indices varying across the batch}}
  %g = trace.gather %x, %i : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}

func.func @caller(%xs: tensor<8x4xf32>, %i: tensor<8x2xi32>) -> tensor<8x2xf32> {
  %g = trace.vmap @f(%xs, %i) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>} : (tensor<8x4xf32>, tensor<8x2xi32>) -> tensor<8x2xf32>
  return %g : tensor<8x2xf32>
}

// -----

// A loop over a batched value has no rule yet: named too.

func.func private @f(%x: tensor<f32>, %n: index) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.for' op has no batching rule: vmap cannot map it over a batched operand (control flow whose operands or captured values vary across the batch)}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<f32> {
    %e = trace.exp %a : tensor<f32>
    scf.yield %e : tensor<f32>
  }
  return %r : tensor<f32>
}

func.func @caller(%xs: tensor<8xf32>) -> tensor<8xf32> {
  %n = arith.constant 3 : index
  %r = trace.vmap @f2(%xs) {in_axes = array<i64: 0>, out_axes = array<i64: 0>} : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func private @f2(%x: tensor<f32>) -> tensor<f32> {
  %n = arith.constant 3 : index
  %r = func.call @f(%x, %n) : (tensor<f32>, index) -> tensor<f32>
  return %r : tensor<f32>
}

