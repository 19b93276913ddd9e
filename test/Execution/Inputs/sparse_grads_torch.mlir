// Entries of sparse-grads-torch.test, checked against torch.autograd.

// An embedding model: mean of the looked-up rows of each sequence (`?`
// batch, `?` table rows), a dense layer, softmax cross-entropy. The table's
// gradient goes through gather's rule (trace.scatter_add).
func.func private @embedding_loss(%table: tensor<?x8xf64>, %ids: tensor<?x5xi32>, %labels: tensor<?xi32>,
                                  %w: tensor<8x4xf64>, %b: tensor<4xf64>) -> tensor<f64> {
  %e = trace.gather %table, %ids : (tensor<?x8xf64>, tensor<?x5xi32>) -> tensor<?x5x8xf64>
  %m = trace.reduce_mean %e {axes = array<i64: 1>} : tensor<?x5x8xf64> -> tensor<?x8xf64>
  %o = trace.matmul %m, %w : (tensor<?x8xf64>, tensor<8x4xf64>) -> tensor<?x4xf64>
  %ob = trace.add %o, %b : (tensor<?x4xf64>, tensor<4xf64>) -> tensor<?x4xf64>
  %logp = trace.log_softmax %ob : tensor<?x4xf64>
  %onehot = trace.one_hot %labels {depth = 4} : tensor<?xi32> -> tensor<?x4xf64>
  %picked = trace.mul %logp, %onehot : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<?x4xf64> -> tensor<?xf64>
  %nll = trace.neg %per : tensor<?xf64>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<?xf64> -> tensor<f64>
  return %mean : tensor<f64>
}

func.func @embedding_grads(%table: tensor<?x8xf64>, %ids: tensor<?x5xi32>, %labels: tensor<?xi32>,
                           %w: tensor<8x4xf64>, %b: tensor<4xf64>)
    -> (tensor<f64>, tensor<?x8xf64>, tensor<8x4xf64>, tensor<4xf64>) {
  %v, %g:3 = trace.value_and_grad @embedding_loss(%table, %ids, %labels, %w, %b) {wrt = array<i64: 0, 3, 4>}
      : (tensor<?x8xf64>, tensor<?x5xi32>, tensor<?xi32>, tensor<8x4xf64>, tensor<4xf64>)
      -> (tensor<f64>, tensor<?x8xf64>, tensor<8x4xf64>, tensor<4xf64>)
  return %v, %g#0, %g#1, %g#2 : tensor<f64>, tensor<?x8xf64>, tensor<8x4xf64>, tensor<4xf64>
}

// A third derivative through max_pool2d (3x3 windows, strides 2, padding
// 1): f(x) = sum(max_pool2d(x)^4), h(x, v) = <f'(x), v>, k(x, v, u) =
// <dh/dx, u>; the gradients of k. Through max_pool2d_grad's rule
// (max_pool2d_select) and max_pool2d_select's (max_pool2d_grad).
func.func private @f(%x: tensor<2x5x5x3xf64>) -> tensor<f64> {
  %p = trace.max_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : tensor<2x5x5x3xf64> -> tensor<2x3x3x3xf64>
  %p2 = trace.mul %p, %p : (tensor<2x3x3x3xf64>, tensor<2x3x3x3xf64>) -> tensor<2x3x3x3xf64>
  %p4 = trace.mul %p2, %p2 : (tensor<2x3x3x3xf64>, tensor<2x3x3x3xf64>) -> tensor<2x3x3x3xf64>
  %s = trace.reduce_sum %p4 {axes = array<i64: 0, 1, 2, 3>} : tensor<2x3x3x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func private @h(%x: tensor<2x5x5x3xf64>, %v: tensor<2x5x5x3xf64>) -> tensor<f64> {
  %g = trace.grad @f(%x) {wrt = array<i64: 0>} : (tensor<2x5x5x3xf64>) -> tensor<2x5x5x3xf64>
  %m = trace.mul %g, %v : (tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>) -> tensor<2x5x5x3xf64>
  %s = trace.reduce_sum %m {axes = array<i64: 0, 1, 2, 3>} : tensor<2x5x5x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func private @k(%x: tensor<2x5x5x3xf64>, %v: tensor<2x5x5x3xf64>, %u: tensor<2x5x5x3xf64>) -> tensor<f64> {
  %g:2 = trace.grad @h(%x, %v) {wrt = array<i64: 0, 1>} : (tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>) -> (tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>)
  %m = trace.mul %g#0, %u : (tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>) -> tensor<2x5x5x3xf64>
  %s = trace.reduce_sum %m {axes = array<i64: 0, 1, 2, 3>} : tensor<2x5x5x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @third(%x: tensor<2x5x5x3xf64>, %v: tensor<2x5x5x3xf64>, %u: tensor<2x5x5x3xf64>)
    -> (tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>) {
  %g:3 = trace.grad @k(%x, %v, %u) {wrt = array<i64: 0, 1, 2>} : (tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>) -> (tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>)
  return %g#0, %g#1, %g#2 : tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>, tensor<2x5x5x3xf64>
}
