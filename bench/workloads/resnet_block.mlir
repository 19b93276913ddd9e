// bench/run: a ResNet basic block on a CIFAR stage, batch 64, 32x32x16
// (NHWC, HWCF): conv 3x3 16->16 (padding 1), batch norm (batch statistics,
// scale and shift), relu, conv 3x3 16->16, batch norm, + the input (the
// skip), relu; global average pool, dense 16 -> 10, mean softmax
// cross-entropy.
//   @loss:       the loss alone
//   @train_step: value_and_grad of the loss wrt the block's and the head's
//                weights (both convolutions, both batch norms, the dense)
func.func @loss(%x: tensor<64x32x32x16xf32>, %labels: tensor<64xi32>, %k1: tensor<3x3x16x16xf32>, %g1: tensor<16xf32>, %b1: tensor<16xf32>, %k2: tensor<3x3x16x16xf32>, %g2: tensor<16xf32>, %b2: tensor<16xf32>, %w: tensor<16x10xf32>, %bw: tensor<10xf32>) -> tensor<f32> {
  %eps = trace.constant dense<1.0e-05> : tensor<f32>
  %c1 = trace.conv2d %x, %k1 {padding = array<i64: 1, 1, 1, 1>} : (tensor<64x32x32x16xf32>, tensor<3x3x16x16xf32>) -> tensor<64x32x32x16xf32>
  %m1 = trace.reduce_mean %c1 {axes = array<i64: 0, 1, 2>} : tensor<64x32x32x16xf32> -> tensor<16xf32>
  %d1 = trace.sub %c1, %m1 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %sq1 = trace.mul %d1, %d1 : (tensor<64x32x32x16xf32>, tensor<64x32x32x16xf32>) -> tensor<64x32x32x16xf32>
  %v1 = trace.reduce_mean %sq1 {axes = array<i64: 0, 1, 2>} : tensor<64x32x32x16xf32> -> tensor<16xf32>
  %ve1 = trace.add %v1, %eps : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %r1 = trace.rsqrt %ve1 : tensor<16xf32>
  %n1 = trace.mul %d1, %r1 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %s1 = trace.mul %n1, %g1 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %t1 = trace.add %s1, %b1 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %a1 = trace.relu %t1 : tensor<64x32x32x16xf32>
  %c2 = trace.conv2d %a1, %k2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<64x32x32x16xf32>, tensor<3x3x16x16xf32>) -> tensor<64x32x32x16xf32>
  %m2 = trace.reduce_mean %c2 {axes = array<i64: 0, 1, 2>} : tensor<64x32x32x16xf32> -> tensor<16xf32>
  %d2 = trace.sub %c2, %m2 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %sq2 = trace.mul %d2, %d2 : (tensor<64x32x32x16xf32>, tensor<64x32x32x16xf32>) -> tensor<64x32x32x16xf32>
  %v2 = trace.reduce_mean %sq2 {axes = array<i64: 0, 1, 2>} : tensor<64x32x32x16xf32> -> tensor<16xf32>
  %ve2 = trace.add %v2, %eps : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %r2 = trace.rsqrt %ve2 : tensor<16xf32>
  %n2 = trace.mul %d2, %r2 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %s2 = trace.mul %n2, %g2 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %t2 = trace.add %s2, %b2 : (tensor<64x32x32x16xf32>, tensor<16xf32>) -> tensor<64x32x32x16xf32>
  %sum = trace.add %t2, %x : (tensor<64x32x32x16xf32>, tensor<64x32x32x16xf32>) -> tensor<64x32x32x16xf32>
  %a2 = trace.relu %sum : tensor<64x32x32x16xf32>
  %pool = trace.reduce_mean %a2 {axes = array<i64: 1, 2>} : tensor<64x32x32x16xf32> -> tensor<64x16xf32>
  %o = trace.matmul %pool, %w : (tensor<64x16xf32>, tensor<16x10xf32>) -> tensor<64x10xf32>
  %ob = trace.add %o, %bw : (tensor<64x10xf32>, tensor<10xf32>) -> tensor<64x10xf32>
  %logp = trace.log_softmax %ob : tensor<64x10xf32>
  %onehot = trace.one_hot %labels {depth = 10} : tensor<64xi32> -> tensor<64x10xf32>
  %picked = trace.mul %logp, %onehot : (tensor<64x10xf32>, tensor<64x10xf32>) -> tensor<64x10xf32>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<64x10xf32> -> tensor<64xf32>
  %nll = trace.neg %per : tensor<64xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<64xf32> -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @train_step(%x: tensor<64x32x32x16xf32>, %labels: tensor<64xi32>, %k1: tensor<3x3x16x16xf32>, %g1: tensor<16xf32>, %b1: tensor<16xf32>, %k2: tensor<3x3x16x16xf32>, %g2: tensor<16xf32>, %b2: tensor<16xf32>, %w: tensor<16x10xf32>, %bw: tensor<10xf32>) -> (tensor<f32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x10xf32>, tensor<10xf32>) {
  %l, %g:8 = trace.value_and_grad @loss(%x, %labels, %k1, %g1, %b1, %k2, %g2, %b2, %w, %bw) {wrt = array<i64: 2, 3, 4, 5, 6, 7, 8, 9>}
      : (tensor<64x32x32x16xf32>, tensor<64xi32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x10xf32>, tensor<10xf32>) -> (tensor<f32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x10xf32>, tensor<10xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3, %g#4, %g#5, %g#6, %g#7 : tensor<f32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<3x3x16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x10xf32>, tensor<10xf32>
}
