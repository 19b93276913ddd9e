// A module annotated with the shard dialect compiles to one process's
// program: the entry point takes this process's shards (W1's columns and
// W2's rows of a Megatron-style MLP on two processes).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry mlp -o %t/mlp.o --header %t/mlp.h
// RUN: FileCheck %s < %t/mlp.h
// CHECK: @mlp(x: tensor<4x6xf64>, w1: tensor<6x4xf64>, w2: tensor<4x5xf64>) -> (result0: tensor<4x5xf64>)
// CHECK: int shard_mlp(const double *x, const double *w1, const double *w2, double *result0);
shard.grid @grid(shape = 2)
func.func @mlp(%x: tensor<4x6xf64>, %w1: tensor<6x8xf64>, %w2: tensor<8x5xf64>) -> tensor<4x5xf64> {
  %columns = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %w1s = shard.shard %w1 to %columns : tensor<6x8xf64>
  %w2s = shard.shard %w2 to %rows : tensor<8x5xf64>
  %zero = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<4x8xf64>
  %f1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %h = linalg.matmul ins(%x, %w1s : tensor<4x6xf64>, tensor<6x8xf64>) outs(%f1 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %e2 = tensor.empty() : tensor<4x5xf64>
  %f2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<4x5xf64>) -> tensor<4x5xf64>
  %y = linalg.matmul ins(%h, %w2s : tensor<4x8xf64>, tensor<8x5xf64>) outs(%f2 : tensor<4x5xf64>) -> tensor<4x5xf64>
  %out = shard.shard %y to %replicated annotate_for_users : tensor<4x5xf64>
  return %out : tensor<4x5xf64>
}
