// RUN: tracec-opt %s --trace-autodiff=remat=contractions --inline --canonicalize --cse | FileCheck %s --check-prefix=DOTS
// RUN: tracec-opt %s --trace-autodiff=remat=nothing --inline --canonicalize --cse | FileCheck %s --check-prefix=NONE
// RUN: tracec-opt %s --trace-autodiff=remat=everything --inline --canonicalize --cse | FileCheck %s --check-prefix=ALL

// A fused train step: forward and backward inlined into @step, then
// canonicalized and CSE'd, as the pipelines do. The recomputation reads
// the saved values through a trace.optimization_barrier, so CSE does not
// merge it with the forward ops it copies: tanh (and under `nothing` the
// first matmul) is computed twice, the second time late, in the backward
// code.

func.func private @mlp(%x: tensor<4x3xf32>, %w1: tensor<3x5xf32>, %w2: tensor<5x2xf32>) -> tensor<f32> {
  %h = trace.matmul %x, %w1 : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %a = trace.tanh %h : tensor<4x5xf32>
  %o = trace.matmul %a, %w2 : (tensor<4x5xf32>, tensor<5x2xf32>) -> tensor<4x2xf32>
  %s = trace.reduce_sum %o {axes = array<i64: 0, 1>} : tensor<4x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @step(%x: tensor<4x3xf32>, %w1: tensor<3x5xf32>, %w2: tensor<5x2xf32>) -> (tensor<f32>, tensor<3x5xf32>, tensor<5x2xf32>) {
  %l, %g1, %g2 = trace.value_and_grad @mlp(%x, %w1, %w2) {wrt = array<i64: 1, 2>} : (tensor<4x3xf32>, tensor<3x5xf32>, tensor<5x2xf32>) -> (tensor<f32>, tensor<3x5xf32>, tensor<5x2xf32>)
  return %l, %g1, %g2 : tensor<f32>, tensor<3x5xf32>, tensor<5x2xf32>
}

// DOTS-LABEL: func.func @step(
// DOTS-SAME: %[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[W1:[a-z0-9_]+]]: tensor<3x5xf32>, %[[W2:[a-z0-9_]+]]: tensor<5x2xf32>)
// DOTS:      %[[H:[a-z0-9_]+]] = trace.matmul %[[X]], %[[W1]] :
// DOTS-NEXT: %[[A:[a-z0-9_]+]] = trace.tanh %[[H]]
// DOTS:      trace.reduce_sum
// DOTS-NEXT: %[[B:[a-z0-9_]+]] = trace.optimization_barrier %[[H]] : tensor<4x5xf32>
// DOTS:      %[[RA:[a-z0-9_]+]] = trace.tanh %[[B]]
// DOTS:      trace.matmul %[[RA]], %{{[a-z0-9_]+}} {transpose_a}
// DOTS-NOT:  trace.matmul %[[A]]
// DOTS:      return

// NONE-LABEL: func.func @step(
// NONE-SAME: %[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[W1:[a-z0-9_]+]]: tensor<3x5xf32>, %[[W2:[a-z0-9_]+]]: tensor<5x2xf32>)
// NONE:      %[[H:[a-z0-9_]+]] = trace.matmul %[[X]], %[[W1]] :
// NONE-NEXT: trace.tanh %[[H]]
// NONE:      trace.reduce_sum
// NONE-NEXT: %[[B:[a-z0-9_]+]]:2 = trace.optimization_barrier %[[X]], %[[W1]] : tensor<4x3xf32>, tensor<3x5xf32>
// NONE:      %[[RH:[a-z0-9_]+]] = trace.matmul %[[B]]#0, %[[B]]#1 :
// NONE-NEXT: trace.tanh %[[RH]]
// NONE:      return

// ALL-LABEL: func.func @step(
// ALL-NOT:   trace.optimization_barrier
// ALL:       trace.tanh
// ALL-NOT:   trace.tanh
// ALL:       return
