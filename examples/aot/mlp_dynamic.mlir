// mlp.mlir's classifier (4 features -> 16 hidden units, relu -> 3 classes)
// with a dynamic batch: one compiled object serves every batch size.
//
//   tracec mlp_dynamic.mlir --entry evaluate -o mlp_dynamic.o --header mlp_dynamic.h
//
// @evaluate returns the class probabilities of each row of %x and the
// mean softmax cross-entropy against %labels. The C function takes the
// batch of every buffer (x_dim0, labels_dim0, probs_dim0);
// <prefix>_evaluate_shape checks that x and labels agree and gives the
// batch of probs.

func.func @evaluate(%x: tensor<?x4xf32>, %labels: tensor<?xi32>,
                    %w1: tensor<4x16xf32>, %b1: tensor<16xf32>,
                    %w2: tensor<16x3xf32>, %b2: tensor<3xf32>)
    -> (tensor<?x3xf32> {trace.name = "probs"}, tensor<f32> {trace.name = "loss"}) {
  %h = trace.matmul %x, %w1 : (tensor<?x4xf32>, tensor<4x16xf32>) -> tensor<?x16xf32>
  %hb = trace.add %h, %b1 : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %a = trace.relu %hb : tensor<?x16xf32>
  %o = trace.matmul %a, %w2 : (tensor<?x16xf32>, tensor<16x3xf32>) -> tensor<?x3xf32>
  %logits = trace.add %o, %b2 : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %probs = trace.softmax %logits : tensor<?x3xf32>
  %logp = trace.log_softmax %logits : tensor<?x3xf32>
  %onehot = trace.one_hot %labels {depth = 3} : tensor<?xi32> -> tensor<?x3xf32>
  %picked = trace.mul %logp, %onehot : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %nll = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<?x3xf32> -> tensor<?xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  %loss = trace.neg %mean : tensor<f32>
  return %probs, %loss : tensor<?x3xf32>, tensor<f32>
}
