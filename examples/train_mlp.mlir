// Training a classifier with variables updated in place: an MLP with two
// hidden layers (2 features -> 32 relu -> 32 relu -> 3 classes), trained on
// batches of 64 by compiled steps that compute the loss, its gradients
// with respect to the weight variables (trace.value_and_grad with the
// variables in `wrt`: the gradients of the values read from them) and
// apply an SGD or an Adam update to the variables in place.
//
// examples/train_mlp.cpp drives it through the C++ JIT API.

// The logits of a batch, from the variables' current values.
func.func private @logits(%x: tensor<64x2xf32>, %w1: !trace.resource<tensor<2x32xf32>>, %b1: !trace.resource<tensor<32xf32>>, %w2: !trace.resource<tensor<32x32xf32>>, %b2: !trace.resource<tensor<32xf32>>, %w3: !trace.resource<tensor<32x3xf32>>, %b3: !trace.resource<tensor<3xf32>>) -> tensor<64x3xf32> {
  %w1v, %w1c = trace.var.read %w1 : !trace.resource<tensor<2x32xf32>>
  %b1v, %b1c = trace.var.read %b1 : !trace.resource<tensor<32xf32>>
  %w2v, %w2c = trace.var.read %w2 : !trace.resource<tensor<32x32xf32>>
  %b2v, %b2c = trace.var.read %b2 : !trace.resource<tensor<32xf32>>
  %w3v, %w3c = trace.var.read %w3 : !trace.resource<tensor<32x3xf32>>
  %b3v, %b3c = trace.var.read %b3 : !trace.resource<tensor<3xf32>>
  %h1 = trace.matmul %x, %w1v : (tensor<64x2xf32>, tensor<2x32xf32>) -> tensor<64x32xf32>
  %h1b = trace.add %h1, %b1v : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %a1 = trace.relu %h1b : tensor<64x32xf32>
  %h2 = trace.matmul %a1, %w2v : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %h2b = trace.add %h2, %b2v : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %a2 = trace.relu %h2b : tensor<64x32xf32>
  %o = trace.matmul %a2, %w3v : (tensor<64x32xf32>, tensor<32x3xf32>) -> tensor<64x3xf32>
  %ob = trace.add %o, %b3v : (tensor<64x3xf32>, tensor<3xf32>) -> tensor<64x3xf32>
  return %ob : tensor<64x3xf32>
}

// Mean softmax cross-entropy of a batch.
func.func private @loss(%x: tensor<64x2xf32>, %labels: tensor<64xi32>, %w1: !trace.resource<tensor<2x32xf32>>, %b1: !trace.resource<tensor<32xf32>>, %w2: !trace.resource<tensor<32x32xf32>>, %b2: !trace.resource<tensor<32xf32>>, %w3: !trace.resource<tensor<32x3xf32>>, %b3: !trace.resource<tensor<3xf32>>) -> tensor<f32> {
  %z = func.call @logits(%x, %w1, %b1, %w2, %b2, %w3, %b3) : (tensor<64x2xf32>, !trace.resource<tensor<2x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x3xf32>>, !trace.resource<tensor<3xf32>>) -> tensor<64x3xf32>
  %logp = trace.log_softmax %z : tensor<64x3xf32>
  %onehot = trace.one_hot %labels {depth = 3} : tensor<64xi32> -> tensor<64x3xf32>
  %picked = trace.mul %logp, %onehot : (tensor<64x3xf32>, tensor<64x3xf32>) -> tensor<64x3xf32>
  %total = trace.reduce_sum %picked {axes = array<i64: 0, 1>} : tensor<64x3xf32> -> tensor<f32>
  %n = trace.constant dense<-64.0> : tensor<f32>
  %mean = trace.div %total, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %mean : tensor<f32>
}

// The most likely class of each example.
func.func @predict(%x: tensor<64x2xf32>, %w1: !trace.resource<tensor<2x32xf32>>, %b1: !trace.resource<tensor<32xf32>>, %w2: !trace.resource<tensor<32x32xf32>>, %b2: !trace.resource<tensor<32xf32>>, %w3: !trace.resource<tensor<32x3xf32>>, %b3: !trace.resource<tensor<3xf32>>) -> tensor<64xi64> {
  %z = func.call @logits(%x, %w1, %b1, %w2, %b2, %w3, %b3) : (tensor<64x2xf32>, !trace.resource<tensor<2x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x3xf32>>, !trace.resource<tensor<3xf32>>) -> tensor<64x3xf32>
  %classes = trace.argmax %z {axis = 1} : tensor<64x3xf32> -> tensor<64xi64>
  return %classes : tensor<64xi64>
}

// One SGD step: every weight -= lr * its gradient. Returns the batch's
// loss before the step.
func.func @sgd_step(%x: tensor<64x2xf32>, %labels: tensor<64xi32>, %lr: tensor<f32>,
                    %w1: !trace.resource<tensor<2x32xf32>>, %b1: !trace.resource<tensor<32xf32>>, %w2: !trace.resource<tensor<32x32xf32>>, %b2: !trace.resource<tensor<32xf32>>, %w3: !trace.resource<tensor<32x3xf32>>, %b3: !trace.resource<tensor<3xf32>>) -> tensor<f32> {
  %loss, %g:6 = trace.value_and_grad @loss(%x, %labels, %w1, %b1, %w2, %b2, %w3, %b3) {wrt = array<i64: 2, 3, 4, 5, 6, 7>}
      : (tensor<64x2xf32>, tensor<64xi32>, !trace.resource<tensor<2x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x3xf32>>, !trace.resource<tensor<3xf32>>)
      -> (tensor<f32>, tensor<2x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x3xf32>, tensor<3xf32>)
  %d0 = trace.mul %lr, %g#0 : (tensor<f32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %c0 = trace.var.assign_sub %w1, %d0 : !trace.resource<tensor<2x32xf32>>
  %d1 = trace.mul %lr, %g#1 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %c1 = trace.var.assign_sub %b1, %d1 : !trace.resource<tensor<32xf32>>
  %d2 = trace.mul %lr, %g#2 : (tensor<f32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %c2 = trace.var.assign_sub %w2, %d2 : !trace.resource<tensor<32x32xf32>>
  %d3 = trace.mul %lr, %g#3 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %c3 = trace.var.assign_sub %b2, %d3 : !trace.resource<tensor<32xf32>>
  %d4 = trace.mul %lr, %g#4 : (tensor<f32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %c4 = trace.var.assign_sub %w3, %d4 : !trace.resource<tensor<32x3xf32>>
  %d5 = trace.mul %lr, %g#5 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %c5 = trace.var.assign_sub %b3, %d5 : !trace.resource<tensor<3xf32>>
  return %loss : tensor<f32>
}

// One Adam step (Kingma & Ba, with PyTorch's epsilon placement):
//   t += 1;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   w -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
// with b1 = 0.9, b2 = 0.999, eps = 1e-8. The moments and the step count
// are variables too. Returns the batch's loss before the step.
func.func @adam_step(%x: tensor<64x2xf32>, %labels: tensor<64xi32>, %lr: tensor<f32>,
                     %w1: !trace.resource<tensor<2x32xf32>>, %b1: !trace.resource<tensor<32xf32>>, %w2: !trace.resource<tensor<32x32xf32>>, %b2: !trace.resource<tensor<32xf32>>, %w3: !trace.resource<tensor<32x3xf32>>, %b3: !trace.resource<tensor<3xf32>>,
                     %m_w1: !trace.resource<tensor<2x32xf32>>, %m_b1: !trace.resource<tensor<32xf32>>, %m_w2: !trace.resource<tensor<32x32xf32>>, %m_b2: !trace.resource<tensor<32xf32>>, %m_w3: !trace.resource<tensor<32x3xf32>>, %m_b3: !trace.resource<tensor<3xf32>>,
                     %v_w1: !trace.resource<tensor<2x32xf32>>, %v_b1: !trace.resource<tensor<32xf32>>, %v_w2: !trace.resource<tensor<32x32xf32>>, %v_b2: !trace.resource<tensor<32xf32>>, %v_w3: !trace.resource<tensor<32x3xf32>>, %v_b3: !trace.resource<tensor<3xf32>>,
                     %t: !trace.resource<tensor<f32>>) -> tensor<f32> {
  %loss, %g:6 = trace.value_and_grad @loss(%x, %labels, %w1, %b1, %w2, %b2, %w3, %b3) {wrt = array<i64: 2, 3, 4, 5, 6, 7>}
      : (tensor<64x2xf32>, tensor<64xi32>, !trace.resource<tensor<2x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x32xf32>>, !trace.resource<tensor<32xf32>>, !trace.resource<tensor<32x3xf32>>, !trace.resource<tensor<3xf32>>)
      -> (tensor<f32>, tensor<2x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x3xf32>, tensor<3xf32>)
  %one = trace.constant dense<1.0> : tensor<f32>
  %beta1 = trace.constant dense<0.9> : tensor<f32>
  %beta2 = trace.constant dense<0.999> : tensor<f32>
  %rest1 = trace.constant dense<0.1> : tensor<f32>
  %rest2 = trace.constant dense<0.001> : tensor<f32>
  %eps = trace.constant dense<1.0e-8> : tensor<f32>
  %ct = trace.var.assign_add %t, %one : !trace.resource<tensor<f32>>
  %step, %cs = trace.var.read %t : !trace.resource<tensor<f32>>
  // The bias corrections in f64, as PyTorch computes them: 1 - 0.999^t
  // cancels, and f32 would lose five digits of it on the first steps.
  %one64 = trace.constant dense<1.0> : tensor<f64>
  %beta1_64 = trace.constant dense<0.9> : tensor<f64>
  %beta2_64 = trace.constant dense<0.999> : tensor<f64>
  %step64 = trace.cast %step : tensor<f32> to tensor<f64>
  %p1 = trace.pow %beta1_64, %step64 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %p2 = trace.pow %beta2_64, %step64 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %bc1 = trace.sub %one64, %p1 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %bc2 = trace.sub %one64, %p2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %lr64 = trace.cast %lr : tensor<f32> to tensor<f64>
  %rate64 = trace.div %lr64, %bc1 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %rate = trace.cast %rate64 : tensor<f64> to tensor<f32>
  %sbc2_64 = trace.sqrt %bc2 : tensor<f64>
  %sbc2 = trace.cast %sbc2_64 : tensor<f64> to tensor<f32>
  // w1
  %m0, %mc0 = trace.var.read %m_w1 : !trace.resource<tensor<2x32xf32>>
  %m0a = trace.mul %beta1, %m0 : (tensor<f32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %m0b = trace.mul %rest1, %g#0 : (tensor<f32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %m0n = trace.add %m0a, %m0b : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %mw0 = trace.var.assign %m_w1, %m0n : !trace.resource<tensor<2x32xf32>>
  %v0, %vc0 = trace.var.read %v_w1 : !trace.resource<tensor<2x32xf32>>
  %gg0 = trace.mul %g#0, %g#0 : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %v0a = trace.mul %beta2, %v0 : (tensor<f32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %v0b = trace.mul %rest2, %gg0 : (tensor<f32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %v0n = trace.add %v0a, %v0b : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %vw0 = trace.var.assign %v_w1, %v0n : !trace.resource<tensor<2x32xf32>>
  %r0 = trace.sqrt %v0n : tensor<2x32xf32>
  %q0 = trace.div %r0, %sbc2 : (tensor<2x32xf32>, tensor<f32>) -> tensor<2x32xf32>
  %den0 = trace.add %q0, %eps : (tensor<2x32xf32>, tensor<f32>) -> tensor<2x32xf32>
  %num0 = trace.mul %rate, %m0n : (tensor<f32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %u0 = trace.div %num0, %den0 : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
  %uw0 = trace.var.assign_sub %w1, %u0 : !trace.resource<tensor<2x32xf32>>
  // b1
  %m1, %mc1 = trace.var.read %m_b1 : !trace.resource<tensor<32xf32>>
  %m1a = trace.mul %beta1, %m1 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %m1b = trace.mul %rest1, %g#1 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %m1n = trace.add %m1a, %m1b : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %mw1 = trace.var.assign %m_b1, %m1n : !trace.resource<tensor<32xf32>>
  %v1, %vc1 = trace.var.read %v_b1 : !trace.resource<tensor<32xf32>>
  %gg1 = trace.mul %g#1, %g#1 : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %v1a = trace.mul %beta2, %v1 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %v1b = trace.mul %rest2, %gg1 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %v1n = trace.add %v1a, %v1b : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %vw1 = trace.var.assign %v_b1, %v1n : !trace.resource<tensor<32xf32>>
  %r1 = trace.sqrt %v1n : tensor<32xf32>
  %q1 = trace.div %r1, %sbc2 : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %den1 = trace.add %q1, %eps : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %num1 = trace.mul %rate, %m1n : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %u1 = trace.div %num1, %den1 : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %uw1 = trace.var.assign_sub %b1, %u1 : !trace.resource<tensor<32xf32>>
  // w2
  %m2, %mc2 = trace.var.read %m_w2 : !trace.resource<tensor<32x32xf32>>
  %m2a = trace.mul %beta1, %m2 : (tensor<f32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %m2b = trace.mul %rest1, %g#2 : (tensor<f32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %m2n = trace.add %m2a, %m2b : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %mw2 = trace.var.assign %m_w2, %m2n : !trace.resource<tensor<32x32xf32>>
  %v2, %vc2 = trace.var.read %v_w2 : !trace.resource<tensor<32x32xf32>>
  %gg2 = trace.mul %g#2, %g#2 : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %v2a = trace.mul %beta2, %v2 : (tensor<f32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %v2b = trace.mul %rest2, %gg2 : (tensor<f32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %v2n = trace.add %v2a, %v2b : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %vw2 = trace.var.assign %v_w2, %v2n : !trace.resource<tensor<32x32xf32>>
  %r2 = trace.sqrt %v2n : tensor<32x32xf32>
  %q2 = trace.div %r2, %sbc2 : (tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
  %den2 = trace.add %q2, %eps : (tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
  %num2 = trace.mul %rate, %m2n : (tensor<f32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %u2 = trace.div %num2, %den2 : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %uw2 = trace.var.assign_sub %w2, %u2 : !trace.resource<tensor<32x32xf32>>
  // b2
  %m3, %mc3 = trace.var.read %m_b2 : !trace.resource<tensor<32xf32>>
  %m3a = trace.mul %beta1, %m3 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %m3b = trace.mul %rest1, %g#3 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %m3n = trace.add %m3a, %m3b : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %mw3 = trace.var.assign %m_b2, %m3n : !trace.resource<tensor<32xf32>>
  %v3, %vc3 = trace.var.read %v_b2 : !trace.resource<tensor<32xf32>>
  %gg3 = trace.mul %g#3, %g#3 : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %v3a = trace.mul %beta2, %v3 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %v3b = trace.mul %rest2, %gg3 : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %v3n = trace.add %v3a, %v3b : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %vw3 = trace.var.assign %v_b2, %v3n : !trace.resource<tensor<32xf32>>
  %r3 = trace.sqrt %v3n : tensor<32xf32>
  %q3 = trace.div %r3, %sbc2 : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %den3 = trace.add %q3, %eps : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %num3 = trace.mul %rate, %m3n : (tensor<f32>, tensor<32xf32>) -> tensor<32xf32>
  %u3 = trace.div %num3, %den3 : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %uw3 = trace.var.assign_sub %b2, %u3 : !trace.resource<tensor<32xf32>>
  // w3
  %m4, %mc4 = trace.var.read %m_w3 : !trace.resource<tensor<32x3xf32>>
  %m4a = trace.mul %beta1, %m4 : (tensor<f32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %m4b = trace.mul %rest1, %g#4 : (tensor<f32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %m4n = trace.add %m4a, %m4b : (tensor<32x3xf32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %mw4 = trace.var.assign %m_w3, %m4n : !trace.resource<tensor<32x3xf32>>
  %v4, %vc4 = trace.var.read %v_w3 : !trace.resource<tensor<32x3xf32>>
  %gg4 = trace.mul %g#4, %g#4 : (tensor<32x3xf32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %v4a = trace.mul %beta2, %v4 : (tensor<f32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %v4b = trace.mul %rest2, %gg4 : (tensor<f32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %v4n = trace.add %v4a, %v4b : (tensor<32x3xf32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %vw4 = trace.var.assign %v_w3, %v4n : !trace.resource<tensor<32x3xf32>>
  %r4 = trace.sqrt %v4n : tensor<32x3xf32>
  %q4 = trace.div %r4, %sbc2 : (tensor<32x3xf32>, tensor<f32>) -> tensor<32x3xf32>
  %den4 = trace.add %q4, %eps : (tensor<32x3xf32>, tensor<f32>) -> tensor<32x3xf32>
  %num4 = trace.mul %rate, %m4n : (tensor<f32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %u4 = trace.div %num4, %den4 : (tensor<32x3xf32>, tensor<32x3xf32>) -> tensor<32x3xf32>
  %uw4 = trace.var.assign_sub %w3, %u4 : !trace.resource<tensor<32x3xf32>>
  // b3
  %m5, %mc5 = trace.var.read %m_b3 : !trace.resource<tensor<3xf32>>
  %m5a = trace.mul %beta1, %m5 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %m5b = trace.mul %rest1, %g#5 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %m5n = trace.add %m5a, %m5b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %mw5 = trace.var.assign %m_b3, %m5n : !trace.resource<tensor<3xf32>>
  %v5, %vc5 = trace.var.read %v_b3 : !trace.resource<tensor<3xf32>>
  %gg5 = trace.mul %g#5, %g#5 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %v5a = trace.mul %beta2, %v5 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %v5b = trace.mul %rest2, %gg5 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %v5n = trace.add %v5a, %v5b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %vw5 = trace.var.assign %v_b3, %v5n : !trace.resource<tensor<3xf32>>
  %r5 = trace.sqrt %v5n : tensor<3xf32>
  %q5 = trace.div %r5, %sbc2 : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %den5 = trace.add %q5, %eps : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %num5 = trace.mul %rate, %m5n : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %u5 = trace.div %num5, %den5 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %uw5 = trace.var.assign_sub %b3, %u5 : !trace.resource<tensor<3xf32>>
  return %loss : tensor<f32>
}
