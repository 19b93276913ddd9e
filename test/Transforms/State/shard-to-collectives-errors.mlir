// RUN: tracec-opt %s --split-input-file --verify-diagnostics --trace-shard-to-collectives

shard.grid @grid(shape = ?)
func.func @dynamic_grid(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{runs on a grid of dynamic shape: trace collectives need its processes' number}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2)
func.func @product(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{reduction 'product' has no trace collective (sum, average, max, min)}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] reduction = product : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2)
func.func @wider_accumulator(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{has no trace collective: it takes a memref or accumulates in another type than its operand's}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<4xf32> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

shard.grid @grid(shape = 2)
func.func @all_to_all(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{has no lowering to trace collectives}}
  %r = shard.all_to_all %x on @grid grid_axes = [0] split_axis = 0 concat_axis = 0 : tensor<4x2xf32> -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

shard.grid @grid(shape = 2)
func.func @dynamic_root(%x: tensor<4xf32>, %root: index) -> tensor<4xf32> {
  // expected-error @+1 {{has a dynamic root: trace.broadcast needs a constant one}}
  %r = shard.broadcast %x on @grid grid_axes = [0] root = [%root] : (tensor<4xf32>, index) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2)
func.func @integers_of_a_width_trace_has_not(%x: tensor<4xi8>) -> tensor<8xi8> {
  // expected-error @+1 {{'trace.all_gather' op}}
  %r = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<4xi8> -> tensor<8xi8>
  return %r : tensor<8xi8>
}

// -----

// MLIR 22's shard-partition gathers only axis 0 here: the result would be
// a column shard where the annotation promises the whole product.
shard.grid @grid(shape = 2x2)
// expected-error @+1 {{result 0 of @unreshardable is annotated to be 'tensor<6x4xf64>' on each process, but upstream's shard-partition cannot reshard it to that sharding (it gives 'tensor<6x2xf64>')}}
func.func @unreshardable(%x: tensor<6x3xf64>, %w: tensor<3x4xf64>) -> tensor<6x4xf64> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %columns = shard.sharding @grid split_axes = [[], [1]] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %xs = shard.shard %x to %rows : tensor<6x3xf64>
  %ws = shard.shard %w to %columns : tensor<3x4xf64>
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty() : tensor<6x4xf64>
  %init = linalg.fill ins(%zero : f64) outs(%empty : tensor<6x4xf64>) -> tensor<6x4xf64>
  %y = linalg.matmul ins(%xs, %ws : tensor<6x3xf64>, tensor<3x4xf64>) outs(%init : tensor<6x4xf64>) -> tensor<6x4xf64>
  %r = shard.shard %y to %replicated annotate_for_users : tensor<6x4xf64>
  return %r : tensor<6x4xf64>
}
