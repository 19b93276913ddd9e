// Rows of no elements: softmax, log_softmax and layer norm over an empty
// last dim crashed the compiler (row fusion tiled a loop of size 0), in
// every tool and through the gradient. Reductions over an empty axis give
// NumPy's values: a sum of 0, a mean of NaN; over the other axis, an
// empty result. 1 and 2 threads.
// RUN: tracec-run %s --entry rows --input 'x=[[], []]' | FileCheck %s --check-prefix=ROWS
// RUN: tracec-run %s --entry rows --threads 2 --input 'x=[[], []]' | FileCheck %s --check-prefix=ROWS
// RUN: tracec-run %s --entry reductions --input 'x=[[], []]' | FileCheck %s --check-prefix=REDUCE
// RUN: tracec-run %s --entry dsoftmax --input 'x=[[], []]' | FileCheck %s --check-prefix=GRAD
// RUN: tracec-run %s --entry dsoftmax --threads 2 --input 'x=[[], []]' | FileCheck %s --check-prefix=GRAD

// ROWS: result 0: tensor<2x0xf32>
// ROWS-NEXT: []
// ROWS: result 1: tensor<2x0xf32>
// ROWS-NEXT: []
// ROWS: result 2: tensor<2x0xf32>
// ROWS-NEXT: []
func.func @rows(%x: tensor<2x0xf32>) -> (tensor<2x0xf32>, tensor<2x0xf32>, tensor<2x0xf32>) {
  %s = trace.softmax %x : tensor<2x0xf32>
  %l = trace.log_softmax %x : tensor<2x0xf32>
  %mean = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<2x0xf32> -> tensor<2x1xf32>
  %d = trace.sub %x, %mean : (tensor<2x0xf32>, tensor<2x1xf32>) -> tensor<2x0xf32>
  %d2 = trace.mul %d, %d : (tensor<2x0xf32>, tensor<2x0xf32>) -> tensor<2x0xf32>
  %var = trace.reduce_mean %d2 {axes = array<i64: 1>, keepdims} : tensor<2x0xf32> -> tensor<2x1xf32>
  %r = trace.rsqrt %var : tensor<2x1xf32>
  %n = trace.mul %d, %r : (tensor<2x0xf32>, tensor<2x1xf32>) -> tensor<2x0xf32>
  return %s, %l, %n : tensor<2x0xf32>, tensor<2x0xf32>, tensor<2x0xf32>
}

// REDUCE: result 0: tensor<2xf32>
// REDUCE-NEXT: [0. 0.]
// REDUCE: result 1: tensor<2xf32>
// REDUCE-NEXT: [nan nan]
// REDUCE: result 2: tensor<0xf32>
// REDUCE-NEXT: []
func.func @reductions(%x: tensor<2x0xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) {
  %s = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<2x0xf32> -> tensor<2xf32>
  %m = trace.reduce_mean %x {axes = array<i64: 1>} : tensor<2x0xf32> -> tensor<2xf32>
  %t = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<2x0xf32> -> tensor<0xf32>
  return %s, %m, %t : tensor<2xf32>, tensor<2xf32>, tensor<0xf32>
}

func.func private @loss(%x: tensor<2x0xf32>) -> tensor<f32> {
  %y = trace.softmax %x : tensor<2x0xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 0, 1>} : tensor<2x0xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// GRAD: result 0: tensor<2x0xf32>
// GRAD-NEXT: []
func.func @dsoftmax(%x: tensor<2x0xf32>) -> tensor<2x0xf32> {
  %g = trace.grad @loss(%x) {wrt = array<i64: 0>} : (tensor<2x0xf32>) -> tensor<2x0xf32>
  return %g : tensor<2x0xf32>
}
