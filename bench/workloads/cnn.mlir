// bench/run: a small CNN on 28x28x1 images at batch 32 (NHWC, HWCF):
// conv 3x3 1->16 (padding 1) + bias, relu, max-pool 2x2; conv 3x3 16->32
// + bias, relu, max-pool 2x2; dense 1568 -> 10; mean softmax cross-entropy.
//   @loss:       the loss alone
//   @train_step: value_and_grad of the loss wrt every weight and bias
func.func @loss(%x: tensor<32x28x28x1xf32>, %labels: tensor<32xi32>, %k1: tensor<3x3x1x16xf32>, %b1: tensor<16xf32>, %k2: tensor<3x3x16x32xf32>, %b2: tensor<32xf32>, %w: tensor<1568x10xf32>, %b3: tensor<10xf32>) -> tensor<f32> {
  %c1 = trace.conv2d %x, %k1 {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x28x28x1xf32>, tensor<3x3x1x16xf32>) -> tensor<32x28x28x16xf32>
  %c1b = trace.add %c1, %b1 : (tensor<32x28x28x16xf32>, tensor<16xf32>) -> tensor<32x28x28x16xf32>
  %r1 = trace.relu %c1b : tensor<32x28x28x16xf32>
  %p1 = trace.max_pool2d %r1 {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<32x28x28x16xf32> -> tensor<32x14x14x16xf32>
  %c2 = trace.conv2d %p1, %k2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x14x14x16xf32>, tensor<3x3x16x32xf32>) -> tensor<32x14x14x32xf32>
  %c2b = trace.add %c2, %b2 : (tensor<32x14x14x32xf32>, tensor<32xf32>) -> tensor<32x14x14x32xf32>
  %r2 = trace.relu %c2b : tensor<32x14x14x32xf32>
  %p2 = trace.max_pool2d %r2 {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<32x14x14x32xf32> -> tensor<32x7x7x32xf32>
  %f = trace.reshape %p2 : tensor<32x7x7x32xf32> -> tensor<32x1568xf32>
  %o = trace.matmul %f, %w : (tensor<32x1568xf32>, tensor<1568x10xf32>) -> tensor<32x10xf32>
  %ob = trace.add %o, %b3 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %logp = trace.log_softmax %ob : tensor<32x10xf32>
  %onehot = trace.one_hot %labels {depth = 10} : tensor<32xi32> -> tensor<32x10xf32>
  %picked = trace.mul %logp, %onehot : (tensor<32x10xf32>, tensor<32x10xf32>) -> tensor<32x10xf32>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<32x10xf32> -> tensor<32xf32>
  %nll = trace.neg %per : tensor<32xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<32xf32> -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @train_step(%x: tensor<32x28x28x1xf32>, %labels: tensor<32xi32>, %k1: tensor<3x3x1x16xf32>, %b1: tensor<16xf32>, %k2: tensor<3x3x16x32xf32>, %b2: tensor<32xf32>, %w: tensor<1568x10xf32>, %b3: tensor<10xf32>) -> (tensor<f32>, tensor<3x3x1x16xf32>, tensor<16xf32>, tensor<3x3x16x32xf32>, tensor<32xf32>, tensor<1568x10xf32>, tensor<10xf32>) {
  %l, %g:6 = trace.value_and_grad @loss(%x, %labels, %k1, %b1, %k2, %b2, %w, %b3) {wrt = array<i64: 2, 3, 4, 5, 6, 7>}
      : (tensor<32x28x28x1xf32>, tensor<32xi32>, tensor<3x3x1x16xf32>, tensor<16xf32>, tensor<3x3x16x32xf32>, tensor<32xf32>, tensor<1568x10xf32>, tensor<10xf32>) -> (tensor<f32>, tensor<3x3x1x16xf32>, tensor<16xf32>, tensor<3x3x16x32xf32>, tensor<32xf32>, tensor<1568x10xf32>, tensor<10xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3, %g#4, %g#5 : tensor<f32>, tensor<3x3x1x16xf32>, tensor<16xf32>, tensor<3x3x16x32xf32>, tensor<32xf32>, tensor<1568x10xf32>, tensor<10xf32>
}
