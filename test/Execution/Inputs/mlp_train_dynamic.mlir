// The bench MLP (bench/workloads/mlp.mlir) with a `?` batch: @train_step is
// value_and_grad of @forward, differentiated by trace-autodiff at `?` (the
// mean's count is read at run time with trace.size, cotangents broadcast
// back over the batch with broadcast_to ... like).
func.func @forward(%x: tensor<?x784xf32>, %labels: tensor<?xi32>, %w1: tensor<784x512xf32>, %b1: tensor<512xf32>, %w2: tensor<512x512xf32>, %b2: tensor<512xf32>, %w3: tensor<512x10xf32>, %b3: tensor<10xf32>) -> tensor<f32> {
  %h1 = trace.matmul %x, %w1 : (tensor<?x784xf32>, tensor<784x512xf32>) -> tensor<?x512xf32>
  %h1b = trace.add %h1, %b1 : (tensor<?x512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %a1 = trace.relu %h1b : tensor<?x512xf32>
  %h2 = trace.matmul %a1, %w2 : (tensor<?x512xf32>, tensor<512x512xf32>) -> tensor<?x512xf32>
  %h2b = trace.add %h2, %b2 : (tensor<?x512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %a2 = trace.relu %h2b : tensor<?x512xf32>
  %o = trace.matmul %a2, %w3 : (tensor<?x512xf32>, tensor<512x10xf32>) -> tensor<?x10xf32>
  %ob = trace.add %o, %b3 : (tensor<?x10xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  %logp = trace.log_softmax %ob : tensor<?x10xf32>
  %onehot = trace.one_hot %labels {depth = 10} : tensor<?xi32> -> tensor<?x10xf32>
  %picked = trace.mul %logp, %onehot : (tensor<?x10xf32>, tensor<?x10xf32>) -> tensor<?x10xf32>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<?x10xf32> -> tensor<?xf32>
  %nll = trace.neg %per : tensor<?xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @train_step(%x: tensor<?x784xf32>, %labels: tensor<?xi32>, %w1: tensor<784x512xf32>, %b1: tensor<512xf32>, %w2: tensor<512x512xf32>, %b2: tensor<512xf32>, %w3: tensor<512x10xf32>, %b3: tensor<10xf32>) -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>) {
  %l, %g:6 = trace.value_and_grad @forward(%x, %labels, %w1, %b1, %w2, %b2, %w3, %b3) {wrt = array<i64: 2, 3, 4, 5, 6, 7>}
      : (tensor<?x784xf32>, tensor<?xi32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>) -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3, %g#4, %g#5 : tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>
}
