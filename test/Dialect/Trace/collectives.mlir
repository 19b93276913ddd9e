// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// CHECK-LABEL: func.func @collectives
// CHECK: %{{.*}}, %[[C:.*]] = trace.all_reduce %arg0 : tensor<4x3xf32>
// CHECK: trace.all_reduce %arg1 after(%[[C]]) {reduction = "max"} : tensor<2xi64>
// CHECK: trace.broadcast %arg0 after(%{{.*}}) {root = 1 : i64} : tensor<4x3xf32>
// CHECK: trace.broadcast %arg1 : tensor<2xi64>
// CHECK: trace.all_gather %arg0 {axis = 1 : i64, world_size = 2 : i64} : tensor<4x3xf32> -> tensor<4x6xf32>
// CHECK: trace.reduce_scatter %arg0 {axis = 0 : i64, reduction = "mean", world_size = 2 : i64} : tensor<4x3xf32> -> tensor<2x3xf32>
// CHECK: trace.all_reduce %arg0 {groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, reduction = "mean"} : tensor<4x3xf32>
// CHECK: trace.broadcast %arg0 {groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, root = 1 : i64} : tensor<4x3xf32>
// CHECK: trace.all_gather %arg0 {axis = 0 : i64, groups = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>, world_size = 3 : i64} : tensor<4x3xf32> -> tensor<12x3xf32>
// CHECK: trace.reduce_scatter %arg0 {axis = 0 : i64, groups = dense<{{\[\[}}1], [0]]> : tensor<2x1xi64>, world_size = 1 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
// CHECK: trace.comm_rank : tensor<i32>
// CHECK: trace.comm_rank {groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>} : tensor<i32>
// CHECK: trace.comm_size : tensor<i32>
func.func @collectives(%x: tensor<4x3xf32>, %i: tensor<2xi64>) {
  %0, %c0 = trace.all_reduce %x : tensor<4x3xf32>
  %1, %c1 = trace.all_reduce %i after(%c0) {reduction = "max"} : tensor<2xi64>
  %2, %c2 = trace.broadcast %x after(%c1) {root = 1} : tensor<4x3xf32>
  %3, %c3 = trace.broadcast %i : tensor<2xi64>
  %4, %c4 = trace.all_gather %x {axis = 1, world_size = 2} : tensor<4x3xf32> -> tensor<4x6xf32>
  %5, %c5 = trace.reduce_scatter %x {axis = 0, world_size = 2, reduction = "mean"} : tensor<4x3xf32> -> tensor<2x3xf32>
  %6, %c6 = trace.all_reduce %x {reduction = "mean", groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<4x3xf32>
  %7, %c7 = trace.broadcast %x {root = 1, groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4x3xf32>
  %8, %c8 = trace.all_gather %x {axis = 0, world_size = 3, groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : tensor<4x3xf32> -> tensor<12x3xf32>
  %9, %c9 = trace.reduce_scatter %x {axis = 0, world_size = 1, groups = dense<[[1], [0]]> : tensor<2x1xi64>} : tensor<4x3xf32> -> tensor<4x3xf32>
  %r = trace.comm_rank : tensor<i32>
  %rg = trace.comm_rank {groups = dense<[[1, 0]]> : tensor<1x2xi64>} : tensor<i32>
  %s = trace.comm_size : tensor<i32>
  return
}
