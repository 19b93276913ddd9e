// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// CHECK-LABEL: func.func @collectives
// CHECK: %{{.*}}, %[[C:.*]] = trace.all_reduce %arg0 : tensor<4x3xf32>
// CHECK: trace.all_reduce %arg1 after(%[[C]]) {reduction = "max"} : tensor<2xi64>
// CHECK: trace.broadcast %arg0 after(%{{.*}}) {root = 1 : i64} : tensor<4x3xf32>
// CHECK: trace.broadcast %arg1 : tensor<2xi64>
// CHECK: trace.comm_rank : tensor<i32>
// CHECK: trace.comm_size : tensor<i32>
func.func @collectives(%x: tensor<4x3xf32>, %i: tensor<2xi64>) {
  %0, %c0 = trace.all_reduce %x : tensor<4x3xf32>
  %1, %c1 = trace.all_reduce %i after(%c0) {reduction = "max"} : tensor<2xi64>
  %2, %c2 = trace.broadcast %x after(%c1) {root = 1} : tensor<4x3xf32>
  %3, %c3 = trace.broadcast %i : tensor<2xi64>
  %r = trace.comm_rank : tensor<i32>
  %s = trace.comm_size : tensor<i32>
  return
}
