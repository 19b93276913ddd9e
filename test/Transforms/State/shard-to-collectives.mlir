// RUN: tracec-opt %s --split-input-file --trace-shard-to-collectives | FileCheck %s

// A matmul whose weight is split by columns over two processes: each
// computes its columns, which an all-gather over the grid's axis joins.
// CHECK-LABEL: func.func @columns
// CHECK-SAME: (%[[X:.+]]: tensor<8x16xf32>, %[[W:.+]]: tensor<16x4xf32>) -> tensor<8x8xf32>
// CHECK: %[[LOCAL:.+]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<8x16xf32>, tensor<16x4xf32>)
// CHECK: %[[ALL:.+]], %{{.+}} = trace.all_gather %[[LOCAL]] {axis = 1 : i64, groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, world_size = 2 : i64} : tensor<8x4xf32> -> tensor<8x8xf32>
// CHECK: return %[[ALL]]
// CHECK-NOT: shard.
shard.grid @grid(shape = 2)
func.func @columns(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %split = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %ws = shard.shard %w to %split : tensor<16x8xf32>
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%x, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = shard.shard %m to %replicated annotate_for_users : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Split along k, each process has partial sums, which an all-reduce adds;
// only process 0 of the group adds the initial value (the accumulator's
// other shares start at zero): which one it is, is trace.comm_rank's
// position in the world's group.
// CHECK-LABEL: func.func @partial_sums
// CHECK-SAME: (%{{.+}}: tensor<8x8xf32>, %{{.+}}: tensor<8x8xf32>, %{{.+}}: tensor<8x8xf32>)
// CHECK: %[[RANK:.+]] = trace.comm_rank {groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : tensor<i32>
// CHECK: %[[SCALAR:.+]] = tensor.extract %[[RANK]][] : tensor<i32>
// CHECK: arith.index_cast %[[SCALAR]] : i32 to index
// CHECK: %[[SUM:.+]] = linalg.matmul
// CHECK: %[[ALL:.+]], %{{.+}} = trace.all_reduce %[[SUM]] {groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : tensor<8x8xf32>
// CHECK: return %[[ALL]]
shard.grid @grid(shape = 2)
func.func @partial_sums(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %ws = shard.shard %w to %rows : tensor<16x8xf32>
  %columns = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %columns : tensor<8x16xf32>
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %m = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = shard.shard %m to %replicated annotate_for_users : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// On a 2x3 grid (process (i, j) is rank 3i + j), a collective on axis 0
// runs in the columns' groups, on axis 1 in the rows', on both (listed
// 1, 0) in one group ordered row-major over (axis 1, axis 0).
// CHECK-LABEL: func.func @grid_axes
// CHECK: trace.all_reduce %arg0 {groups = dense<{{\[\[}}0, 3], [1, 4], [2, 5]]> : tensor<3x2xi64>, reduction = "max"}
// CHECK: trace.all_reduce %{{.+}} {groups = dense<{{\[\[}}0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>, reduction = "mean"}
// CHECK-DAG: trace.reduce_scatter %{{.+}} {axis = 0 : i64, groups = dense<{{\[\[}}0, 3, 1, 4, 2, 5]]> : tensor<1x6xi64>, reduction = "min", world_size = 6 : i64} : tensor<12xf32> -> tensor<2xf32>
// The root (1, 2) of a broadcast on axes [0, 1] is position 1 * 3 + 2.
// CHECK-DAG: trace.broadcast %{{.+}} {groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, root = 5 : i64}
// A collective on no axes is each process alone: its operand.
// CHECK-NOT: trace.all_reduce
// CHECK: return
shard.grid @grid2x3(shape = 2x3)
func.func @grid_axes(%x: tensor<12xf32>) -> (tensor<12xf32>, tensor<2xf32>) {
  %a = shard.all_reduce %x on @grid2x3 grid_axes = [0] reduction = max : tensor<12xf32> -> tensor<12xf32>
  %b = shard.all_reduce %a on @grid2x3 grid_axes = [1] reduction = average : tensor<12xf32> -> tensor<12xf32>
  %s = shard.reduce_scatter %b on @grid2x3 grid_axes = [1, 0] reduction = min scatter_axis = 0 : tensor<12xf32> -> tensor<2xf32>
  %c = shard.broadcast %b on @grid2x3 grid_axes = [0, 1] root = [1, 2] : (tensor<12xf32>) -> tensor<12xf32>
  %d = shard.all_reduce %c on @grid2x3 grid_axes = [] : tensor<12xf32> -> tensor<12xf32>
  return %d, %s : tensor<12xf32>, tensor<2xf32>
}

// -----

// The size of the grid along an axis is a constant; the index along it,
// upstream's delinearization of the linear index, the rank (the position
// in the world's group, which checks the world's size).
// CHECK-LABEL: func.func @indices
// CHECK-DAG: %[[THREE:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[RANK:.+]] = trace.comm_rank {groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>}
// CHECK: %[[SCALAR:.+]] = tensor.extract %[[RANK]][] : tensor<i32>
// CHECK: %[[LINEAR:.+]] = arith.index_cast %[[SCALAR]] : i32 to index
// CHECK: %[[MULTI:.+]]:2 = affine.delinearize_index %[[LINEAR]] into
// CHECK: return %[[THREE]], %[[MULTI]]#1
shard.grid @grid2x3(shape = 2x3)
func.func @indices() -> (index, index) {
  %size = shard.grid_shape @grid2x3 axes = [1] : index
  %i = shard.process_multi_index on @grid2x3 axes = [1] : index
  return %size, %i : index, index
}

// -----

// Data and tensor parallel on a 2x2 grid (process (i, j) is rank 2i + j):
// the batch split along axis 0, W1's columns and W2's rows along axis 1;
// the partial sums of the second matmul add up within each row of the
// grid, and only the row's first process (j = 0) adds the initial value.
// CHECK-LABEL: func.func @data_and_tensor_parallel
// CHECK-SAME: (%{{.+}}: tensor<3x3xf64>, %{{.+}}: tensor<3x2xf64>, %{{.+}}: tensor<2x5xf64>) -> tensor<3x5xf64>
// CHECK: %[[RANK:.+]] = trace.comm_rank {groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>}
// CHECK: %[[IJ:.+]]:2 = affine.delinearize_index
// CHECK: arith.cmpi eq, %[[IJ]]#1
// CHECK: %[[PARTIAL:.+]] = linalg.matmul
// CHECK: trace.all_reduce %[[PARTIAL]] {groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<3x5xf64>
shard.grid @grid(shape = 2x2)
func.func @data_and_tensor_parallel(%x: tensor<6x3xf64>, %w1: tensor<3x4xf64>, %w2: tensor<4x5xf64>) -> tensor<6x5xf64> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %columns = shard.sharding @grid split_axes = [[], [1]] : !shard.sharding
  %rows1 = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %xs = shard.shard %x to %rows : tensor<6x3xf64>
  %w1s = shard.shard %w1 to %columns : tensor<3x4xf64>
  %w2s = shard.shard %w2 to %rows1 : tensor<4x5xf64>
  %zero = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<6x4xf64>
  %f1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<6x4xf64>) -> tensor<6x4xf64>
  %h = linalg.matmul ins(%xs, %w1s : tensor<6x3xf64>, tensor<3x4xf64>) outs(%f1 : tensor<6x4xf64>) -> tensor<6x4xf64>
  %e2 = tensor.empty() : tensor<6x5xf64>
  %f2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<6x5xf64>) -> tensor<6x5xf64>
  %y = linalg.matmul ins(%h, %w2s : tensor<6x4xf64>, tensor<4x5xf64>) outs(%f2 : tensor<6x5xf64>) -> tensor<6x5xf64>
  %r = shard.shard %y to %rows annotate_for_users : tensor<6x5xf64>
  return %r : tensor<6x5xf64>
}

// -----

// A module without a grid is left alone.
// CHECK-LABEL: func.func @unsharded
// CHECK-NEXT: trace.add
func.func @unsharded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
