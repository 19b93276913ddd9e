// Every buffer the compiled code allocates is freed: the intermediates of
// @f (the matmul, the callee's result) live in heap buffers that valgrind
// would report as definitely lost if the pipeline forgot a deallocation
// (50 runs, so the blocks of early runs cannot hide in stale stack slots).
// Expected values: NumPy, relu(x @ w).sum(1) and (x @ w).max(0).
// Valgrind cannot run a sanitized build; ASan checks the same there.
// UNSUPPORTED: sanitizer
// RUN: valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=99 tracec-run %s --repeat=50 --entry f --input x="[[1,2,3],[4,5,6]]" --input w="[[1,0,2,1],[0,1,1,0],[1,1,0,2]]" 2>&1 | FileCheck %s
// CHECK-NOT: definitely lost
// CHECK:      result 0: tensor<2xf32>
// CHECK-NEXT: [20. 50.]
// CHECK-NEXT: result 1: tensor<4xf32>
// CHECK-NEXT: [10. 11. 13. 16.]
// CHECK-NOT: definitely lost
func.func private @project(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = trace.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
func.func @f(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> (tensor<2xf32>, tensor<4xf32>) {
  %y = func.call @project(%x, %w) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %r = trace.relu %y : tensor<2x4xf32>
  %s = trace.reduce_sum %r {axes = array<i64: 1>} : tensor<2x4xf32> -> tensor<2xf32>
  %m = trace.reduce_max %y {axes = array<i64: 0>} : tensor<2x4xf32> -> tensor<4xf32>
  return %s, %m : tensor<2xf32>, tensor<4xf32>
}
