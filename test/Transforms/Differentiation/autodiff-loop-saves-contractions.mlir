// RUN: tracec-opt %s --trace-autodiff --canonicalize --cse | FileCheck %s
// RUN: tracec-opt %s --trace-autodiff=remat=contractions --canonicalize --cse | FileCheck %s
// RUN: tracec-opt %s --trace-autodiff=remat=nothing --canonicalize --cse | FileCheck %s --check-prefix=NONE

// An RNN step in scf.for: under a policy that saves contractions (the
// default saves everything) the primal loop tapes the two matmuls' results
// beside the carried state, and the adjoint loop reads them back instead of
// multiplying again; the elementwise ops around them are recomputed. Under
// remat=nothing only the carried state is taped and both matmuls run again.

func.func @rnn(%x: tensor<8x4x16xf32>, %w: tensor<16x16xf32>, %u: tensor<16x16xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %h0 = trace.constant dense<0.0> : tensor<4x16xf32>
  %h = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %h0) -> (tensor<4x16xf32>) {
    %xi = tensor.extract_slice %x[%i, 0, 0] [1, 4, 16] [1, 1, 1] : tensor<8x4x16xf32> to tensor<4x16xf32>
    %a = trace.matmul %xi, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %b = trace.matmul %s, %u : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %z = trace.add %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %t = trace.tanh %z : tensor<4x16xf32>
    scf.yield %t : tensor<4x16xf32>
  }
  %l = trace.reduce_sum %h {axes = array<i64: 0, 1>} : tensor<4x16xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func @grads(%x: tensor<8x4x16xf32>, %w: tensor<16x16xf32>, %u: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %g:2 = trace.grad @rnn(%x, %w, %u) {wrt = array<i64: 1, 2>} : (tensor<8x4x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>)
  return %g#0, %g#1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// CHECK-LABEL: func.func private @__forward_rnn
// CHECK:         scf.for {{.*}} -> (tensor<4x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>)
// CHECK:           tensor.insert_slice
// CHECK-COUNT-2:   trace.matmul
// CHECK-COUNT-2:   tensor.insert_slice
// CHECK-LABEL: func.func private @__backward_rnn
// CHECK:         scf.for
// CHECK-COUNT-3:   tensor.extract_slice {{.*}} : tensor<?x4x16xf32> to tensor<4x16xf32>
// CHECK-NOT:       trace.matmul {{.*}} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
// CHECK:           trace.tanh
// CHECK:           scf.yield

// NONE-LABEL: func.func private @__forward_rnn
// NONE:         scf.for {{.*}} -> (tensor<4x16xf32>, tensor<8x4x16xf32>)
// NONE-LABEL: func.func private @__backward_rnn
// NONE:         scf.for
// NONE:           tensor.extract_slice {{.*}} : tensor<?x4x16xf32> to tensor<4x16xf32>
// NONE:           trace.matmul {{.*}} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
// NONE:           trace.matmul {{.*}} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
// NONE:           trace.tanh
