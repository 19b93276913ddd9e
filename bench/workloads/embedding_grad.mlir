// bench/run: the backward pass of an embedding lookup. The table's gradient
// of sum(gather(table, idx) * w) for a 50000x128 f32 table and 256x32 =
// 8192 indices is scatter_add(zeros, idx, w): a zero fill of the table's
// size plus 8192 row adds (the one-hot matmul it replaced cost 8192 x
// 50000 x 128 multiply-adds). The peer is PyTorch's nn.Embedding backward
// (embedding_dense_backward), dense as well.
func.func private @loss(%table: tensor<50000x128xf32>, %idx: tensor<256x32xi32>, %w: tensor<256x32x128xf32>) -> tensor<f32> {
  %e = trace.gather %table, %idx : (tensor<50000x128xf32>, tensor<256x32xi32>) -> tensor<256x32x128xf32>
  %m = trace.mul %e, %w : (tensor<256x32x128xf32>, tensor<256x32x128xf32>) -> tensor<256x32x128xf32>
  %s = trace.reduce_sum %m {axes = array<i64: 0, 1, 2>} : tensor<256x32x128xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @embedding_backward(%table: tensor<50000x128xf32>, %idx: tensor<256x32xi32>, %w: tensor<256x32x128xf32>) -> tensor<50000x128xf32> {
  %g = trace.grad @loss(%table, %idx, %w) {wrt = array<i64: 0>} : (tensor<50000x128xf32>, tensor<256x32xi32>, tensor<256x32x128xf32>) -> tensor<50000x128xf32>
  return %g : tensor<50000x128xf32>
}
