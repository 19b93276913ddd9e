// bench/run: a transformer encoder layer as torch.nn.TransformerEncoderLayer
// computes it (post-norm, ReLU, no dropout): batch 16, sequence 128, model
// width 256, 4 heads of 64, MLP 1024; rows of x are batch-major tokens.
//   a = softmax(q k^T / 8) v per head, q = x wq + bq (k, v alike);
//   h = LN1(x + a wo + bo);  y = LN2(h + relu(h w1 + b1) w2 + b2);
//   loss = mean(y^2)
//   @train_step: value_and_grad of the loss wrt the 16 weights (forward +
//                backward; the peer is PyTorch autograd)
func.func private @heads(%t: tensor<2048x256xf32>) -> tensor<64x128x64xf32> {
  %r = trace.reshape %t : tensor<2048x256xf32> -> tensor<16x128x4x64xf32>
  %p = trace.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<16x128x4x64xf32> -> tensor<16x4x128x64xf32>
  %h = trace.reshape %p : tensor<16x4x128x64xf32> -> tensor<64x128x64xf32>
  return %h : tensor<64x128x64xf32>
}

func.func private @merge_heads(%h: tensor<64x128x64xf32>) -> tensor<2048x256xf32> {
  %r = trace.reshape %h : tensor<64x128x64xf32> -> tensor<16x4x128x64xf32>
  %p = trace.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<16x4x128x64xf32> -> tensor<16x128x4x64xf32>
  %t = trace.reshape %p : tensor<16x128x4x64xf32> -> tensor<2048x256xf32>
  return %t : tensor<2048x256xf32>
}

func.func private @dense(%x: tensor<2048x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<2048x256xf32> {
  %m = trace.matmul %x, %w : (tensor<2048x256xf32>, tensor<256x256xf32>) -> tensor<2048x256xf32>
  %y = trace.add %m, %b : (tensor<2048x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  return %y : tensor<2048x256xf32>
}

// Layer norm over the last axis, eps 1e-5, as torch.nn.LayerNorm.
func.func private @layer_norm(%x: tensor<2048x256xf32>, %gamma: tensor<256xf32>, %beta: tensor<256xf32>) -> tensor<2048x256xf32> {
  %mean = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<2048x256xf32> -> tensor<2048x1xf32>
  %d = trace.sub %x, %mean : (tensor<2048x256xf32>, tensor<2048x1xf32>) -> tensor<2048x256xf32>
  %d2 = trace.mul %d, %d : (tensor<2048x256xf32>, tensor<2048x256xf32>) -> tensor<2048x256xf32>
  %var = trace.reduce_mean %d2 {axes = array<i64: 1>, keepdims} : tensor<2048x256xf32> -> tensor<2048x1xf32>
  %eps = trace.constant dense<1.0e-5> : tensor<f32>
  %ve = trace.add %var, %eps : (tensor<2048x1xf32>, tensor<f32>) -> tensor<2048x1xf32>
  %inv = trace.rsqrt %ve : tensor<2048x1xf32>
  %n = trace.mul %d, %inv : (tensor<2048x256xf32>, tensor<2048x1xf32>) -> tensor<2048x256xf32>
  %s = trace.mul %n, %gamma : (tensor<2048x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %y = trace.add %s, %beta : (tensor<2048x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  return %y : tensor<2048x256xf32>
}

func.func @layer(%x: tensor<2048x256xf32>,
                 %wq: tensor<256x256xf32>, %bq: tensor<256xf32>,
                 %wk: tensor<256x256xf32>, %bk: tensor<256xf32>,
                 %wv: tensor<256x256xf32>, %bv: tensor<256xf32>,
                 %wo: tensor<256x256xf32>, %bo: tensor<256xf32>,
                 %g1: tensor<256xf32>, %n1: tensor<256xf32>,
                 %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
                 %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>,
                 %g2: tensor<256xf32>, %n2: tensor<256xf32>) -> tensor<f32> {
  %q0 = func.call @dense(%x, %wq, %bq) : (tensor<2048x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %k0 = func.call @dense(%x, %wk, %bk) : (tensor<2048x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %v0 = func.call @dense(%x, %wv, %bv) : (tensor<2048x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %q = func.call @heads(%q0) : (tensor<2048x256xf32>) -> tensor<64x128x64xf32>
  %k = func.call @heads(%k0) : (tensor<2048x256xf32>) -> tensor<64x128x64xf32>
  %v = func.call @heads(%v0) : (tensor<2048x256xf32>) -> tensor<64x128x64xf32>
  %s = trace.matmul %q, %k {transpose_b} : (tensor<64x128x64xf32>, tensor<64x128x64xf32>) -> tensor<64x128x128xf32>
  %scale = trace.constant dense<0.125> : tensor<f32>
  %ss = trace.mul %s, %scale : (tensor<64x128x128xf32>, tensor<f32>) -> tensor<64x128x128xf32>
  %p = trace.softmax %ss : tensor<64x128x128xf32>
  %c = trace.matmul %p, %v : (tensor<64x128x128xf32>, tensor<64x128x64xf32>) -> tensor<64x128x64xf32>
  %cm = func.call @merge_heads(%c) : (tensor<64x128x64xf32>) -> tensor<2048x256xf32>
  %o = func.call @dense(%cm, %wo, %bo) : (tensor<2048x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %r1 = trace.add %x, %o : (tensor<2048x256xf32>, tensor<2048x256xf32>) -> tensor<2048x256xf32>
  %h = func.call @layer_norm(%r1, %g1, %n1) : (tensor<2048x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %f0 = trace.matmul %h, %w1 : (tensor<2048x256xf32>, tensor<256x1024xf32>) -> tensor<2048x1024xf32>
  %f1 = trace.add %f0, %b1 : (tensor<2048x1024xf32>, tensor<1024xf32>) -> tensor<2048x1024xf32>
  %f = trace.relu %f1 : tensor<2048x1024xf32>
  %m0 = trace.matmul %f, %w2 : (tensor<2048x1024xf32>, tensor<1024x256xf32>) -> tensor<2048x256xf32>
  %m = trace.add %m0, %b2 : (tensor<2048x256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %r2 = trace.add %h, %m : (tensor<2048x256xf32>, tensor<2048x256xf32>) -> tensor<2048x256xf32>
  %y = func.call @layer_norm(%r2, %g2, %n2) : (tensor<2048x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<2048x256xf32>
  %y2 = trace.mul %y, %y : (tensor<2048x256xf32>, tensor<2048x256xf32>) -> tensor<2048x256xf32>
  %l = trace.reduce_mean %y2 {axes = array<i64: 0, 1>} : tensor<2048x256xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func @train_step(%x: tensor<2048x256xf32>,
                      %wq: tensor<256x256xf32>, %bq: tensor<256xf32>,
                      %wk: tensor<256x256xf32>, %bk: tensor<256xf32>,
                      %wv: tensor<256x256xf32>, %bv: tensor<256xf32>,
                      %wo: tensor<256x256xf32>, %bo: tensor<256xf32>,
                      %g1: tensor<256xf32>, %n1: tensor<256xf32>,
                      %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
                      %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>,
                      %g2: tensor<256xf32>, %n2: tensor<256xf32>)
    -> (tensor<f32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
        tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
        tensor<256xf32>, tensor<256xf32>, tensor<256x1024xf32>, tensor<1024xf32>,
        tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) {
  %l, %g:16 = trace.value_and_grad @layer(%x, %wq, %bq, %wk, %bk, %wv, %bv, %wo, %bo, %g1, %n1, %w1, %b1, %w2, %b2, %g2, %n2)
      {wrt = array<i64: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>}
      : (tensor<2048x256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
         tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
         tensor<256xf32>, tensor<256xf32>, tensor<256x1024xf32>, tensor<1024xf32>,
         tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>)
      -> (tensor<f32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
          tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
          tensor<256xf32>, tensor<256xf32>, tensor<256x1024xf32>, tensor<1024xf32>,
          tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3, %g#4, %g#5, %g#6, %g#7, %g#8, %g#9, %g#10, %g#11, %g#12, %g#13, %g#14, %g#15
      : tensor<f32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
        tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>,
        tensor<256xf32>, tensor<256xf32>, tensor<256x1024xf32>, tensor<1024xf32>,
        tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>
}
