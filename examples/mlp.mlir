// A two-layer MLP and its softmax cross-entropy loss, as a tracer records it:
// the recorded graph keeps the tracer's no-op steps (a multiply by one, a
// double transpose, a reshape chain) that canonicalization removes.

func.func @loss(%w1: tensor<784x128xf32>, %b1: tensor<128xf32>,
                %w2: tensor<128x10xf32>, %b2: tensor<10xf32>,
                %x: tensor<32x784xf32>, %labels: tensor<32xi32>) -> tensor<f32> {
  %h = trace.matmul %x, %w1 : (tensor<32x784xf32>, tensor<784x128xf32>) -> tensor<32x128xf32>
  %hb = trace.add %h, %b1 : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = trace.relu %hb : tensor<32x128xf32>
  %one = trace.constant dense<1.0> : tensor<32x128xf32>
  %a1 = trace.mul %a, %one : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  %w2t = trace.transpose %w2 {perm = array<i64: 1, 0>} : tensor<128x10xf32> -> tensor<10x128xf32>
  %w2tt = trace.transpose %w2t {perm = array<i64: 1, 0>} : tensor<10x128xf32> -> tensor<128x10xf32>
  %logits = trace.matmul %a1, %w2tt : (tensor<32x128xf32>, tensor<128x10xf32>) -> tensor<32x10xf32>
  %lb = trace.add %logits, %b2 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %logp = trace.log_softmax %lb : tensor<32x10xf32>
  %onehot = trace.one_hot %labels {depth = 10} : tensor<32xi32> -> tensor<32x10xf32>
  %flat = trace.reshape %onehot : tensor<32x10xf32> -> tensor<320xf32>
  %back = trace.reshape %flat : tensor<320xf32> -> tensor<32x10xf32>
  %picked = trace.mul %logp, %back : (tensor<32x10xf32>, tensor<32x10xf32>) -> tensor<32x10xf32>
  %total = trace.reduce_sum %picked {axes = array<i64: 0, 1>} : tensor<32x10xf32> -> tensor<f32>
  %n = trace.constant dense<-32.0> : tensor<f32>
  %mean = trace.div %total, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %mean : tensor<f32>
}

// The gradients with respect to the weights and biases (arguments 0-3).
func.func @gradients(%w1: tensor<784x128xf32>, %b1: tensor<128xf32>,
                     %w2: tensor<128x10xf32>, %b2: tensor<10xf32>,
                     %x: tensor<32x784xf32>, %labels: tensor<32xi32>)
    -> (tensor<f32>, tensor<784x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>) {
  %loss, %g:4 = trace.value_and_grad @loss(%w1, %b1, %w2, %b2, %x, %labels) {wrt = array<i64: 0, 1, 2, 3>}
      : (tensor<784x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>, tensor<32x784xf32>, tensor<32xi32>)
      -> (tensor<f32>, tensor<784x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>)
  return %loss, %g#0, %g#1, %g#2, %g#3 : tensor<f32>, tensor<784x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>
}
