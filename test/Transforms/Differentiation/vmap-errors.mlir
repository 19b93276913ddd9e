// RUN: tracec-opt %s --trace-vmap -split-input-file -verify-diagnostics

// An op without a batching rule runs once per example, which needs its
// results stacked: a result of dynamic shape cannot be.

func.func private @f(%x: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @below {{'tensor.cast' op cannot be batched (vmap): no batching rule covers it, and run once per example, its result of type 'tensor<?xf32>' cannot be stacked}}
  %c = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  return %c : tensor<?xf32>
}

func.func @caller(%xs: tensor<8x4xf32>) -> tensor<8x?xf32> {
  %c = trace.vmap @f(%xs) {in_axes = array<i64: 0>, out_axes = array<i64: 0>} : (tensor<8x4xf32>) -> tensor<8x?xf32>
  return %c : tensor<8x?xf32>
}

