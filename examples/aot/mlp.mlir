// A two-layer MLP classifier (4 features -> 16 hidden units, relu -> 3
// classes, batch 8) for ahead-of-time compilation: its weights are
// variables, which the generated class owns.
//
//   tracec mlp.mlir --entry step --entry predict -o mlp.o --header mlp.h
//
// @step takes one SGD step (learning rate 0.5) on the mean softmax
// cross-entropy and returns the loss before the step; @predict returns the
// class probabilities and the most likely class. Arguments with the same
// name are the same variable in both entries.

func.func @step(%x: tensor<8x4xf32>, %labels: tensor<8xi32>,
                %w1: !trace.resource<tensor<4x16xf32>>, %b1: !trace.resource<tensor<16xf32>>,
                %w2: !trace.resource<tensor<16x3xf32>>, %b2: !trace.resource<tensor<3xf32>>)
    -> (tensor<f32> {trace.name = "loss"}) {
  %w1v, %c0 = trace.var.read %w1 : !trace.resource<tensor<4x16xf32>>
  %b1v, %c1 = trace.var.read %b1 : !trace.resource<tensor<16xf32>>
  %w2v, %c2 = trace.var.read %w2 : !trace.resource<tensor<16x3xf32>>
  %b2v, %c3 = trace.var.read %b2 : !trace.resource<tensor<3xf32>>
  %loss, %g:4 = trace.value_and_grad @loss(%x, %labels, %w1v, %b1v, %w2v, %b2v) {wrt = array<i64: 2, 3, 4, 5>}
      : (tensor<8x4xf32>, tensor<8xi32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>)
      -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>)
  %lr = trace.constant dense<0.5> : tensor<f32>
  %d1 = trace.mul %lr, %g#0 : (tensor<f32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %d2 = trace.mul %lr, %g#1 : (tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %d3 = trace.mul %lr, %g#2 : (tensor<f32>, tensor<16x3xf32>) -> tensor<16x3xf32>
  %d4 = trace.mul %lr, %g#3 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %c4 = trace.var.assign_sub %w1, %d1 : !trace.resource<tensor<4x16xf32>>
  %c5 = trace.var.assign_sub %b1, %d2 : !trace.resource<tensor<16xf32>>
  %c6 = trace.var.assign_sub %w2, %d3 : !trace.resource<tensor<16x3xf32>>
  %c7 = trace.var.assign_sub %b2, %d4 : !trace.resource<tensor<3xf32>>
  return %loss : tensor<f32>
}

func.func @predict(%x: tensor<8x4xf32>,
                   %w1: !trace.resource<tensor<4x16xf32>>, %b1: !trace.resource<tensor<16xf32>>,
                   %w2: !trace.resource<tensor<16x3xf32>>, %b2: !trace.resource<tensor<3xf32>>)
    -> (tensor<8x3xf32> {trace.name = "probs"}, tensor<8xi64> {trace.name = "classes"}) {
  %w1v, %c0 = trace.var.read %w1 : !trace.resource<tensor<4x16xf32>>
  %b1v, %c1 = trace.var.read %b1 : !trace.resource<tensor<16xf32>>
  %w2v, %c2 = trace.var.read %w2 : !trace.resource<tensor<16x3xf32>>
  %b2v, %c3 = trace.var.read %b2 : !trace.resource<tensor<3xf32>>
  %logits = func.call @logits(%x, %w1v, %b1v, %w2v, %b2v)
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

func.func private @loss(%x: tensor<8x4xf32>, %labels: tensor<8xi32>, %w1: tensor<4x16xf32>,
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
