// A matmul with K = 1 (an outer product: every gradient of a matmul whose
// other operand has one column) feeding a matmul: trace-cpu-fuse-rows once
// fused the outer product, which accumulates into its output, into the
// consumer's loops, and each element was added once per row the consumer
// read it: x^T (d b^T) came out multiplied by (row + 1).
// d b^T = [[1, 10], [2, 20], [3, 30]]; x = ones: each row of x^T (d b^T)
// is [6, 60].
// RUN: tracec-run %s --entry chain --input d="[[1], [2], [3]]" --input b="[[1], [10]]" --input x="[[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]" | FileCheck %s --check-prefix=CHAIN
// CHAIN:      result 0: tensor<4x2xf64>
// CHAIN-NEXT: {{\[\[}} 6. 60.]
// CHAIN-NEXT:  [ 6. 60.]
// CHAIN-NEXT:  [ 6. 60.]
// CHAIN-NEXT:  [ 6. 60.]]
func.func @chain(%d: tensor<3x1xf64>, %b: tensor<2x1xf64>, %x: tensor<3x4xf64>) -> tensor<4x2xf64> {
  %o = trace.matmul %d, %b {transpose_b} : (tensor<3x1xf64>, tensor<2x1xf64>) -> tensor<3x2xf64>
  %r = trace.matmul %x, %o {transpose_a} : (tensor<3x4xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
  return %r : tensor<4x2xf64>
}

// The gradient that showed it: d/da sum((x a) b) = x^T 1 b^T, with x = ones
// (3x4) and b = [1, 10]: every row [3, 30].
// RUN: tracec-run %s --entry grad --input x="[[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]" --input a="[[0, 0], [0, 0], [0, 0], [0, 0]]" --input b="[[1], [10]]" | FileCheck %s --check-prefix=GRAD
// GRAD:      result 0: tensor<4x2xf64>
// GRAD-NEXT: {{\[\[}} 3. 30.]
// GRAD-NEXT:  [ 3. 30.]
// GRAD-NEXT:  [ 3. 30.]
// GRAD-NEXT:  [ 3. 30.]]
func.func @loss(%x: tensor<3x4xf64>, %a: tensor<4x2xf64>, %b: tensor<2x1xf64>) -> tensor<f64> {
  %xa = trace.matmul %x, %a : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  %y = trace.matmul %xa, %b : (tensor<3x2xf64>, tensor<2x1xf64>) -> tensor<3x1xf64>
  %s = trace.reduce_sum %y {axes = array<i64: 0, 1>} : tensor<3x1xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @grad(%x: tensor<3x4xf64>, %a: tensor<4x2xf64>, %b: tensor<2x1xf64>) -> tensor<4x2xf64> {
  %g = trace.grad @loss(%x, %a, %b) {wrt = array<i64: 1>} : (tensor<3x4xf64>, tensor<4x2xf64>, tensor<2x1xf64>) -> tensor<4x2xf64>
  return %g : tensor<4x2xf64>
}
