// Reductions over a `?` dim that is empty at run time: a sum is 0 and a
// logsumexp -inf, as in NumPy; a maximum, minimum or argmax of no elements
// is an error naming the op and where it is, exit 1 (they gave -inf and
// index 0, which is not an index). Static empty dims are verifier errors
// (test/Dialect/Trace/invalid-reductions.mlir).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/e.npy', np.zeros((0, 3), np.float32)); np.save('%t/x.npy', np.array([[1, 5, 2], [4, 0, 3]], np.float32))"
// RUN: tracec-run %s --entry sums --input x=@%t/e.npy | FileCheck %s --check-prefix=SUMS
// RUN: not tracec-run %s --entry max --input x=@%t/e.npy 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: not tracec-run %s --entry argmax --input x=@%t/e.npy 2>&1 | FileCheck %s --check-prefix=ARGMAX
// RUN: tracec-run %s --entry argmax --input x=@%t/x.npy | FileCheck %s --check-prefix=NONEMPTY

// SUMS: result 0: tensor<3xf32>
// SUMS-NEXT: [0. 0. 0.]
// SUMS: result 1: tensor<3xf32>
// SUMS-NEXT: [-inf -inf -inf]
func.func @sums(%x: tensor<?x3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<?x3xf32> -> tensor<3xf32>
  %l = trace.reduce_logsumexp %x {axes = array<i64: 0>} : tensor<?x3xf32> -> tensor<3xf32>
  return %s, %l : tensor<3xf32>, tensor<3xf32>
}

// MAX: error: @max: {{.*}}empty-reductions.mlir:[[@LINE+2]]:8: 'trace.reduce_max': reduces dim 0, which is empty: a maximum, minimum or argmax of no elements is undefined
func.func @max(%x: tensor<?x3xf32>) -> tensor<3xf32> {
  %m = trace.reduce_max %x {axes = array<i64: 0>} : tensor<?x3xf32> -> tensor<3xf32>
  return %m : tensor<3xf32>
}

// ARGMAX: error: @argmax: {{.*}}'trace.argmax': reduces dim 0, which is empty
// NONEMPTY: [1 0 1]
func.func @argmax(%x: tensor<?x3xf32>) -> tensor<3xi64> {
  %i = trace.argmax %x {axis = 0 : i64} : tensor<?x3xf32> -> tensor<3xi64>
  return %i : tensor<3xi64>
}
