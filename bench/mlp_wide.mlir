// The MLP of issue 12's measurements: 784 -> 512 (relu) -> 512 (relu) -> 10,
// batch 256, mean softmax cross-entropy of integer labels.
//   @loss:            the forward pass (the loss)
//   @loss_and_grads:  value_and_grad wrt every weight and bias (the
//                     training step's forward + backward)
// bench/run_threads.sh times both with 1 and 2 threads.

func.func @loss(%x: tensor<256x784xf32>, %labels: tensor<256xi32>,
                %w1: tensor<784x512xf32>, %b1: tensor<512xf32>,
                %w2: tensor<512x512xf32>, %b2: tensor<512xf32>,
                %w3: tensor<512x10xf32>, %b3: tensor<10xf32>) -> tensor<f32> {
  %h1 = trace.matmul %x, %w1 : (tensor<256x784xf32>, tensor<784x512xf32>) -> tensor<256x512xf32>
  %h1b = trace.add %h1, %b1 : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32>
  %a1 = trace.relu %h1b : tensor<256x512xf32>
  %h2 = trace.matmul %a1, %w2 : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
  %h2b = trace.add %h2, %b2 : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32>
  %a2 = trace.relu %h2b : tensor<256x512xf32>
  %o = trace.matmul %a2, %w3 : (tensor<256x512xf32>, tensor<512x10xf32>) -> tensor<256x10xf32>
  %ob = trace.add %o, %b3 : (tensor<256x10xf32>, tensor<10xf32>) -> tensor<256x10xf32>
  %logp = trace.log_softmax %ob : tensor<256x10xf32>
  %onehot = trace.one_hot %labels {depth = 10} : tensor<256xi32> -> tensor<256x10xf32>
  %picked = trace.mul %logp, %onehot : (tensor<256x10xf32>, tensor<256x10xf32>) -> tensor<256x10xf32>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<256x10xf32> -> tensor<256xf32>
  %nll = trace.neg %per : tensor<256xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<256xf32> -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @loss_and_grads(%x: tensor<256x784xf32>, %labels: tensor<256xi32>,
                          %w1: tensor<784x512xf32>, %b1: tensor<512xf32>,
                          %w2: tensor<512x512xf32>, %b2: tensor<512xf32>,
                          %w3: tensor<512x10xf32>, %b3: tensor<10xf32>)
    -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>,
        tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>) {
  %l, %g:6 = trace.value_and_grad @loss(%x, %labels, %w1, %b1, %w2, %b2, %w3, %b3)
      {wrt = array<i64: 2, 3, 4, 5, 6, 7>}
      : (tensor<256x784xf32>, tensor<256xi32>, tensor<784x512xf32>, tensor<512xf32>,
         tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>)
      -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>,
          tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3, %g#4, %g#5
      : tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>,
        tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>
}
