// The MLP training step the benchmark times (bench/run_mlp.sh): batch 64,
// 784 -> 256 (relu) -> 10, mean softmax cross-entropy of integer labels.
//   @loss:            the forward pass alone (the loss)
//   @loss_and_grads:  value_and_grad wrt w1, b1, w2, b2 (forward + backward)
// bench/mlp_torch.py builds the same computation in PyTorch.

func.func @loss(%x: tensor<64x784xf32>, %labels: tensor<64xi32>, %w1: tensor<784x256xf32>,
                %b1: tensor<256xf32>, %w2: tensor<256x10xf32>, %b2: tensor<10xf32>) -> tensor<f32> {
  %h = trace.matmul %x, %w1 : (tensor<64x784xf32>, tensor<784x256xf32>) -> tensor<64x256xf32>
  %hb = trace.add %h, %b1 : (tensor<64x256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  %a = trace.relu %hb : tensor<64x256xf32>
  %o = trace.matmul %a, %w2 : (tensor<64x256xf32>, tensor<256x10xf32>) -> tensor<64x10xf32>
  %ob = trace.add %o, %b2 : (tensor<64x10xf32>, tensor<10xf32>) -> tensor<64x10xf32>
  %logp = trace.log_softmax %ob : tensor<64x10xf32>
  %onehot = trace.one_hot %labels {depth = 10} : tensor<64xi32> -> tensor<64x10xf32>
  %picked = trace.mul %logp, %onehot : (tensor<64x10xf32>, tensor<64x10xf32>) -> tensor<64x10xf32>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<64x10xf32> -> tensor<64xf32>
  %nll = trace.neg %per : tensor<64xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<64xf32> -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @loss_and_grads(%x: tensor<64x784xf32>, %labels: tensor<64xi32>, %w1: tensor<784x256xf32>,
                          %b1: tensor<256xf32>, %w2: tensor<256x10xf32>, %b2: tensor<10xf32>)
    -> (tensor<f32>, tensor<784x256xf32>, tensor<256xf32>, tensor<256x10xf32>, tensor<10xf32>) {
  %l, %g:4 = trace.value_and_grad @loss(%x, %labels, %w1, %b1, %w2, %b2) {wrt = array<i64: 2, 3, 4, 5>}
      : (tensor<64x784xf32>, tensor<64xi32>, tensor<784x256xf32>, tensor<256xf32>, tensor<256x10xf32>, tensor<10xf32>)
      -> (tensor<f32>, tensor<784x256xf32>, tensor<256xf32>, tensor<256x10xf32>, tensor<10xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3 : tensor<f32>, tensor<784x256xf32>, tensor<256xf32>, tensor<256x10xf32>, tensor<10xf32>
}
