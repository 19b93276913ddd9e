// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s --check-prefix=ALL
// RUN: tracec-opt %s --trace-autodiff=remat=everything -split-input-file | FileCheck %s --check-prefix=ALL
// RUN: tracec-opt %s --trace-autodiff=remat=contractions -split-input-file | FileCheck %s --check-prefix=DOTS
// RUN: tracec-opt %s --trace-autodiff=remat=nothing -split-input-file | FileCheck %s --check-prefix=NONE

// Rematerialization: what __forward_mlp saves under each policy, and what
// __backward_mlp computes again. The backward code reads x (for d w1),
// w2 (for d a), a = tanh(h) (for tanh's rule and d w2).
//   everything:   x, w2, a are saved (no recomputation).
//   contractions: h = x @ w1 is saved; a = tanh(h) is recomputed.
//   nothing:      only arguments are saved: h and a are recomputed.

func.func @mlp(%x: tensor<4x3xf32>, %w1: tensor<3x5xf32>, %w2: tensor<5x2xf32>) -> tensor<f32> {
  %h = trace.matmul %x, %w1 : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %a = trace.tanh %h : tensor<4x5xf32>
  %o = trace.matmul %a, %w2 : (tensor<4x5xf32>, tensor<5x2xf32>) -> tensor<4x2xf32>
  %s = trace.reduce_sum %o {axes = array<i64: 0, 1>} : tensor<4x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dmlp(%x: tensor<4x3xf32>, %w1: tensor<3x5xf32>, %w2: tensor<5x2xf32>) -> (tensor<3x5xf32>, tensor<5x2xf32>) {
  %g1, %g2 = trace.grad @mlp(%x, %w1, %w2) {wrt = array<i64: 1, 2>} : (tensor<4x3xf32>, tensor<3x5xf32>, tensor<5x2xf32>) -> (tensor<3x5xf32>, tensor<5x2xf32>)
  return %g1, %g2 : tensor<3x5xf32>, tensor<5x2xf32>
}

// ALL-LABEL: func.func private @__forward_mlp_wrt_1_2(
// ALL:      %[[A:[a-z0-9_]+]] = trace.tanh
// ALL:      return %{{[a-z0-9_]+}}, {{.*}}%[[A]]
// ALL-LABEL: func.func private @__backward_mlp_wrt_1_2(
// Nothing recomputed: no barrier either.
// ALL-NOT:  trace.optimization_barrier
// ALL-NOT:  trace.tanh
// ALL-NOT:  trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} :
// ALL:      return

// DOTS-LABEL: func.func private @__forward_mlp_wrt_1_2(
// DOTS:      %[[H:[a-z0-9_]+]] = trace.matmul
// DOTS:      return %{{[a-z0-9_]+}}, {{.*}}%[[H]]
// DOTS-LABEL: func.func private @__backward_mlp_wrt_1_2(
// DOTS-SAME: %[[RH:[a-z0-9_]+]]: tensor<4x5xf32>
// The saved h goes through an optimization barrier (so that CSE does not
// merge the recomputation with the forward tanh once forward and backward
// are inlined into one function); a is computed again from it just before
// the first adjoint op that reads it.
// DOTS-NEXT: %[[B:[a-z0-9_]+]] = trace.optimization_barrier %[[RH]] : tensor<4x5xf32>
// DOTS-NOT:  trace.tanh
// DOTS:      trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {transpose_b}
// DOTS-NEXT: %[[RA:[a-z0-9_]+]] = trace.tanh %[[B]] : tensor<4x5xf32>
// DOTS-NEXT: trace.matmul %[[RA]], %{{[a-z0-9_]+}} {transpose_a}
// DOTS-NOT:  trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} :
// DOTS:      return

// NONE-LABEL: func.func private @__forward_mlp_wrt_1_2(
// NONE-SAME: %[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[W1:[a-z0-9_]+]]: tensor<3x5xf32>, %[[W2:[a-z0-9_]+]]: tensor<5x2xf32>)
// Only arguments are residuals.
// NONE:      return %{{[a-z0-9_]+}}, %{{(arg[0-2])}}, %{{(arg[0-2])}}, %{{(arg[0-2])}} :
// NONE-LABEL: func.func private @__backward_mlp_wrt_1_2(
// NONE-SAME: %{{[a-z0-9_]+}}: tensor<5x2xf32>, %[[RX:[a-z0-9_]+]]: tensor<4x3xf32>, %[[RW1:[a-z0-9_]+]]: tensor<3x5xf32>,
// The saved inputs of the recomputation (x and w1) through one barrier;
// the forward ops, in their order, where the adjoint first needs them.
// NONE-NEXT: %[[B:[a-z0-9_]+]]:2 = trace.optimization_barrier %[[RX]], %[[RW1]] : tensor<4x3xf32>, tensor<3x5xf32>
// NONE:      trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {transpose_b}
// NONE-NEXT: %[[RH:[a-z0-9_]+]] = trace.matmul %[[B]]#0, %[[B]]#1 : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// NONE-NEXT: %[[RA:[a-z0-9_]+]] = trace.tanh %[[RH]] : tensor<4x5xf32>

// -----

// trace.checkpoint on the function wins over the pass option: @layer saves
// nothing under every option, @mlp2 follows the option. A call saves what
// its callee's forward function returns: @layer's arguments (the
// residuals of the call are those of __forward_layer).

func.func private @layer(%x: tensor<4x5xf32>, %w: tensor<5x5xf32>) -> tensor<4x5xf32>
    attributes {trace.checkpoint} {
  %h = trace.matmul %x, %w : (tensor<4x5xf32>, tensor<5x5xf32>) -> tensor<4x5xf32>
  %a = trace.tanh %h : tensor<4x5xf32>
  return %a : tensor<4x5xf32>
}
func.func @mlp2(%x: tensor<4x5xf32>, %w1: tensor<5x5xf32>, %w2: tensor<5x5xf32>) -> tensor<f32> {
  %a1 = func.call @layer(%x, %w1) : (tensor<4x5xf32>, tensor<5x5xf32>) -> tensor<4x5xf32>
  %a2 = func.call @layer(%a1, %w2) : (tensor<4x5xf32>, tensor<5x5xf32>) -> tensor<4x5xf32>
  %e = trace.exp %a2 : tensor<4x5xf32>
  %s = trace.reduce_sum %e {axes = array<i64: 0, 1>} : tensor<4x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dmlp2(%x: tensor<4x5xf32>, %w1: tensor<5x5xf32>, %w2: tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>) {
  %g1, %g2 = trace.grad @mlp2(%x, %w1, %w2) {wrt = array<i64: 1, 2>} : (tensor<4x5xf32>, tensor<5x5xf32>, tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>)
  return %g1, %g2 : tensor<5x5xf32>, tensor<5x5xf32>
}

// @layer's forward returns its result, then its two arguments.
// ALL-LABEL: func.func private @__forward_layer(
// ALL-SAME: %[[X:[a-z0-9_]+]]: tensor<4x5xf32>, %[[W:[a-z0-9_]+]]: tensor<5x5xf32>) -> (tensor<4x5xf32>, tensor<5x5xf32>, tensor<4x5xf32>)
// ALL:      return %{{[a-z0-9_]+}}, %[[W]], %[[X]] :
// ALL-LABEL: func.func private @__backward_layer(
// ALL-NEXT: %[[LB:[a-z0-9_]+]]:2 = trace.optimization_barrier
// ALL:      trace.matmul %[[LB]]#0, %[[LB]]#1 :
// ALL-NEXT: trace.tanh
// Under everything, @mlp2 saves exp(a2) for exp's rule, then the two
// calls' residuals.
// ALL-LABEL: func.func private @__forward_mlp2_wrt_1_2(
// ALL-SAME: -> (tensor<f32>, tensor<4x5xf32>, tensor<5x5xf32>, tensor<4x5xf32>, tensor<5x5xf32>, tensor<4x5xf32>)
// ALL-LABEL: func.func private @__backward_mlp2_wrt_1_2(
// ALL-NOT:  trace.optimization_barrier
// ALL:      return

// DOTS-LABEL: func.func private @__forward_layer(
// DOTS-SAME: -> (tensor<4x5xf32>, tensor<5x5xf32>, tensor<4x5xf32>)
// Under contractions, exp(a2) is recomputed from a2, the second call's
// result (a call is never recomputed).
// DOTS-LABEL: func.func private @__forward_mlp2_wrt_1_2(
// DOTS-SAME: -> (tensor<f32>, tensor<5x5xf32>, tensor<4x5xf32>, tensor<5x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>)
// DOTS-LABEL: func.func private @__backward_mlp2_wrt_1_2(
// DOTS-NEXT: %[[EB:[a-z0-9_]+]] = trace.optimization_barrier
// DOTS:      trace.exp %[[EB]]
