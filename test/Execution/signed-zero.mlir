// Folds must keep the sign of zero: only -0.0 is the identity of float
// addition (-0.0 + +0.0 = +0.0), so neither `x + 0.0` nor a sum over a
// size-1 dim is x. Expected values from NumPy (np.add, np.sum, np.mean with
// keepdims on x = [-0.0, 1, -2]): zeros come out positive.
// RUN: tracec-run %s --entry add_zero --input x="[-0.0, 1, -2]" | FileCheck %s --check-prefix=ADD
// RUN: tracec-run %s --entry add_minus_zero --input x="[-0.0, 0.0, -2]" | FileCheck %s --check-prefix=ADD-MINUS
// RUN: tracec-run %s --entry sum_unit_dim --input x="[[-0.0], [1], [-2]]" | FileCheck %s --check-prefix=SUM

// ADD: result 0: tensor<3xf32>
// ADD-NEXT: [ 0.  1. -2.]
// ADD-NEXT: result 1: tensor<3xf32>
// ADD-NEXT: [ 0.  1. -2.]
func.func @add_zero(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %z = trace.constant dense<0.0> : tensor<3xf32>
  %0 = trace.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = trace.add %z, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// x + -0.0 is x, zeros of both signs included.
// ADD-MINUS: result 0: tensor<3xf32>
// ADD-MINUS-NEXT: [-0.  0. -2.]
func.func @add_minus_zero(%x: tensor<3xf32>) -> tensor<3xf32> {
  %z = trace.constant dense<-0.0> : tensor<3xf32>
  %0 = trace.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// SUM: result 0: tensor<3x1xf32>
// SUM-NEXT: {{\[}}[ 0.]
// SUM-NEXT: [ 1.]
// SUM-NEXT: [-2.]]
// SUM-NEXT: result 1: tensor<3x1xf32>
// SUM-NEXT: {{\[}}[ 0.]
// SUM-NEXT: [ 1.]
// SUM-NEXT: [-2.]]
func.func @sum_unit_dim(%x: tensor<3x1xf32>) -> (tensor<3x1xf32>, tensor<3x1xf32>) {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>, keepdims} : tensor<3x1xf32> -> tensor<3x1xf32>
  %1 = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<3x1xf32> -> tensor<3x1xf32>
  return %0, %1 : tensor<3x1xf32>, tensor<3x1xf32>
}
