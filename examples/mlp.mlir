// A two-layer MLP classifier, as a tracer records it: 4 features -> 16
// hidden units (relu) -> 3 classes, on a batch of 8, with its mean softmax
// cross-entropy loss and the loss's gradients with respect to the weights.
//
//   build/bin/tracec-run examples/mlp.mlir --entry predict --input x=@x.npy ...
//   build/bin/tracec-run examples/mlp.mlir --entry loss_and_gradients ...

func.func @predict(%x: tensor<8x4xf32>, %w1: tensor<4x16xf32>, %b1: tensor<16xf32>,
                   %w2: tensor<16x3xf32>, %b2: tensor<3xf32>)
    -> (tensor<8x3xf32>, tensor<8xi64>) {
  %logits = func.call @logits(%x, %w1, %b1, %w2, %b2)
      : (tensor<8x4xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  %probs = trace.softmax %logits : tensor<8x3xf32>
  %classes = trace.argmax %logits {axis = 1} : tensor<8x3xf32> -> tensor<8xi64>
  return %probs, %classes : tensor<8x3xf32>, tensor<8xi64>
}

func.func private @logits(%x: tensor<8x4xf32>, %w1: tensor<4x16xf32>, %b1: tensor<16xf32>,
                          %w2: tensor<16x3xf32>, %b2: tensor<3xf32>) -> tensor<8x3xf32> {
  %h = trace.matmul %x, %w1 : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %hb = trace.add %h, %b1 : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %a = trace.relu %hb : tensor<8x16xf32>
  %o = trace.matmul %a, %w2 : (tensor<8x16xf32>, tensor<16x3xf32>) -> tensor<8x3xf32>
  %ob = trace.add %o, %b2 : (tensor<8x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  return %ob : tensor<8x3xf32>
}

func.func @loss(%x: tensor<8x4xf32>, %labels: tensor<8xi32>, %w1: tensor<4x16xf32>,
                %b1: tensor<16xf32>, %w2: tensor<16x3xf32>, %b2: tensor<3xf32>) -> tensor<f32> {
  %logits = func.call @logits(%x, %w1, %b1, %w2, %b2)
      : (tensor<8x4xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  %logp = trace.log_softmax %logits : tensor<8x3xf32>
  %onehot = trace.one_hot %labels {depth = 3} : tensor<8xi32> -> tensor<8x3xf32>
  %picked = trace.mul %logp, %onehot : (tensor<8x3xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
  %total = trace.reduce_sum %picked {axes = array<i64: 0, 1>} : tensor<8x3xf32> -> tensor<f32>
  %n = trace.constant dense<-8.0> : tensor<f32>
  %mean = trace.div %total, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @loss_and_gradients(%x: tensor<8x4xf32>, %labels: tensor<8xi32>, %w1: tensor<4x16xf32>,
                              %b1: tensor<16xf32>, %w2: tensor<16x3xf32>, %b2: tensor<3xf32>)
    -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>) {
  %loss, %g:4 = trace.value_and_grad @loss(%x, %labels, %w1, %b1, %w2, %b2) {wrt = array<i64: 2, 3, 4, 5>}
      : (tensor<8x4xf32>, tensor<8xi32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>)
      -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>)
  return %loss, %g#0, %g#1, %g#2, %g#3 : tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>
}
