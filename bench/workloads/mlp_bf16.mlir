// bench/run: the MLP of mlp.mlir in bf16 mixed precision, as
// torch.autocast(dtype=torch.bfloat16) runs it: f32 weights, each matmul's
// operands cast to bf16 and its products summed in f32, rounded to bf16 and
// cast back; biases, activations and the loss in f32.
//   @forward:    the loss alone
//   @train_step: value_and_grad of the loss wrt every weight and bias
//                (gradients through the casts; the peer is PyTorch autograd
//                under autocast)
func.func @forward(%x: tensor<256x784xf32>, %labels: tensor<256xi32>, %w1: tensor<784x512xf32>, %b1: tensor<512xf32>, %w2: tensor<512x512xf32>, %b2: tensor<512xf32>, %w3: tensor<512x10xf32>, %b3: tensor<10xf32>) -> tensor<f32> {
  %x_bf = trace.cast %x : tensor<256x784xf32> to tensor<256x784xbf16>
  %w1_bf = trace.cast %w1 : tensor<784x512xf32> to tensor<784x512xbf16>
  %h1_bf = trace.matmul %x_bf, %w1_bf : (tensor<256x784xbf16>, tensor<784x512xbf16>) -> tensor<256x512xbf16>
  %h1 = trace.cast %h1_bf : tensor<256x512xbf16> to tensor<256x512xf32>
  %h1b = trace.add %h1, %b1 : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32>
  %a1 = trace.relu %h1b : tensor<256x512xf32>
  %a1_bf = trace.cast %a1 : tensor<256x512xf32> to tensor<256x512xbf16>
  %w2_bf = trace.cast %w2 : tensor<512x512xf32> to tensor<512x512xbf16>
  %h2_bf = trace.matmul %a1_bf, %w2_bf : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16>
  %h2 = trace.cast %h2_bf : tensor<256x512xbf16> to tensor<256x512xf32>
  %h2b = trace.add %h2, %b2 : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32>
  %a2 = trace.relu %h2b : tensor<256x512xf32>
  %a2_bf = trace.cast %a2 : tensor<256x512xf32> to tensor<256x512xbf16>
  %w3_bf = trace.cast %w3 : tensor<512x10xf32> to tensor<512x10xbf16>
  %o_bf = trace.matmul %a2_bf, %w3_bf : (tensor<256x512xbf16>, tensor<512x10xbf16>) -> tensor<256x10xbf16>
  %o = trace.cast %o_bf : tensor<256x10xbf16> to tensor<256x10xf32>
  %ob = trace.add %o, %b3 : (tensor<256x10xf32>, tensor<10xf32>) -> tensor<256x10xf32>
  %logp = trace.log_softmax %ob : tensor<256x10xf32>
  %onehot = trace.one_hot %labels {depth = 10} : tensor<256xi32> -> tensor<256x10xf32>
  %picked = trace.mul %logp, %onehot : (tensor<256x10xf32>, tensor<256x10xf32>) -> tensor<256x10xf32>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<256x10xf32> -> tensor<256xf32>
  %nll = trace.neg %per : tensor<256xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<256xf32> -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @train_step(%x: tensor<256x784xf32>, %labels: tensor<256xi32>, %w1: tensor<784x512xf32>, %b1: tensor<512xf32>, %w2: tensor<512x512xf32>, %b2: tensor<512xf32>, %w3: tensor<512x10xf32>, %b3: tensor<10xf32>) -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>) {
  %l, %g:6 = trace.value_and_grad @forward(%x, %labels, %w1, %b1, %w2, %b2, %w3, %b3) {wrt = array<i64: 2, 3, 4, 5, 6, 7>}
      : (tensor<256x784xf32>, tensor<256xi32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>) -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3, %g#4, %g#5 : tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>
}
