// RUN: tracec-opt %s --tracec-cpu-pipeline --mlir-print-ir-before=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s --check-prefix=TENSORS
// RUN: tracec-opt %s --tracec-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// The CPU pipeline on a fused train step with rematerialization: the
// optimization barrier survives every tensor-level CSE up to one-shot
// bufferization, so the recomputed tanh (a vectorized loop that reads the
// barrier's result) is still there next to the forward one; bufferization
// erases the barrier.

func.func private @mlp(%x: tensor<4x3xf32>, %w1: tensor<3x5xf32>, %w2: tensor<5x2xf32>) -> tensor<f32>
    attributes {trace.checkpoint = "contractions"} {
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

// TENSORS-LABEL: func.func @step(
// TENSORS:       math.tanh
// TENSORS:       %[[B:[a-z0-9_]+]] = trace.optimization_barrier %{{[a-z0-9_]+}} : tensor<4x5xf32>
// TENSORS:       vector.transfer_read %[[B]]
// TENSORS-NEXT:  math.tanh

// LLVM-NOT: trace.optimization_barrier
// LLVM: llvm.func @step(
