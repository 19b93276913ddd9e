// bench/run: a self-attention block, batch 4, sequence 128, model width
// 256, 4 heads of 64 (rows of x are batch-major tokens):
//   q, k, v = x wq, x wk, x wv, split into heads;
//   p = softmax(q k^T / 8); y = x + (p v, heads merged) wo;  loss = mean(y^2)
//   @block:      the loss alone (forward)
//   @train_step: value_and_grad of the loss wrt x, wq, wk, wv, wo
//                (forward + backward; the peer is PyTorch autograd)
func.func private @heads(%t: tensor<512x256xf32>) -> tensor<16x128x64xf32> {
  %r = trace.reshape %t : tensor<512x256xf32> -> tensor<4x128x4x64xf32>
  %p = trace.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<4x128x4x64xf32> -> tensor<4x4x128x64xf32>
  %h = trace.reshape %p : tensor<4x4x128x64xf32> -> tensor<16x128x64xf32>
  return %h : tensor<16x128x64xf32>
}

func.func @block(%x: tensor<512x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>, %wo: tensor<256x256xf32>) -> tensor<f32> {
  %q0 = trace.matmul %x, %wq : (tensor<512x256xf32>, tensor<256x256xf32>) -> tensor<512x256xf32>
  %k0 = trace.matmul %x, %wk : (tensor<512x256xf32>, tensor<256x256xf32>) -> tensor<512x256xf32>
  %v0 = trace.matmul %x, %wv : (tensor<512x256xf32>, tensor<256x256xf32>) -> tensor<512x256xf32>
  %q = func.call @heads(%q0) : (tensor<512x256xf32>) -> tensor<16x128x64xf32>
  %k = func.call @heads(%k0) : (tensor<512x256xf32>) -> tensor<16x128x64xf32>
  %v = func.call @heads(%v0) : (tensor<512x256xf32>) -> tensor<16x128x64xf32>
  %s = trace.matmul %q, %k {transpose_b} : (tensor<16x128x64xf32>, tensor<16x128x64xf32>) -> tensor<16x128x128xf32>
  %scale = trace.constant dense<0.125> : tensor<f32>
  %ss = trace.mul %s, %scale : (tensor<16x128x128xf32>, tensor<f32>) -> tensor<16x128x128xf32>
  %p = trace.softmax %ss : tensor<16x128x128xf32>
  %c = trace.matmul %p, %v : (tensor<16x128x128xf32>, tensor<16x128x64xf32>) -> tensor<16x128x64xf32>
  %c4 = trace.reshape %c : tensor<16x128x64xf32> -> tensor<4x4x128x64xf32>
  %ct = trace.transpose %c4 {perm = array<i64: 0, 2, 1, 3>} : tensor<4x4x128x64xf32> -> tensor<4x128x4x64xf32>
  %cm = trace.reshape %ct : tensor<4x128x4x64xf32> -> tensor<512x256xf32>
  %o = trace.matmul %cm, %wo : (tensor<512x256xf32>, tensor<256x256xf32>) -> tensor<512x256xf32>
  %y = trace.add %x, %o : (tensor<512x256xf32>, tensor<512x256xf32>) -> tensor<512x256xf32>
  %y2 = trace.mul %y, %y : (tensor<512x256xf32>, tensor<512x256xf32>) -> tensor<512x256xf32>
  %l = trace.reduce_mean %y2 {axes = array<i64: 0, 1>} : tensor<512x256xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func @train_step(%x: tensor<512x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>, %wo: tensor<256x256xf32>) -> (tensor<f32>, tensor<512x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) {
  %l, %g:5 = trace.value_and_grad @block(%x, %wq, %wk, %wv, %wo) {wrt = array<i64: 0, 1, 2, 3, 4>}
      : (tensor<512x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) -> (tensor<f32>, tensor<512x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3, %g#4 : tensor<f32>, tensor<512x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>
}
