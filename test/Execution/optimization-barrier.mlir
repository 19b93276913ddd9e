// trace.optimization_barrier is the identity, and so are its gradient and
// tangent: for f(x, y) = sum(exp(b0) * b1) with (b0, b1) = barrier(x, y),
// df/dx = exp(x) * y, df/dy = exp(x), the tangent along (tx, 0) is
// sum(exp(x) * y * tx), and the second derivative d/dx sum(df/dx) is
// exp(x) * y again. Expected values from NumPy with x = [0, 1, -1],
// y = [1, 2, 3], tx = [1, 1, 1].
// RUN: tracec-run %s --entry values --input x="[0, 1, -1]" --input y="[1, 2, 3]" | FileCheck %s --check-prefix=VALUES
// RUN: tracec-run %s --entry grads --input x="[0, 1, -1]" --input y="[1, 2, 3]" | FileCheck %s --check-prefix=GRADS
// RUN: tracec-run %s --entry tangent --input x="[0, 1, -1]" --input y="[1, 2, 3]" --input tx="[1, 1, 1]" | FileCheck %s --check-prefix=TANGENT
// RUN: tracec-run %s --entry second --input x="[0, 1, -1]" --input y="[1, 2, 3]" | FileCheck %s --check-prefix=SECOND

func.func private @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %b:2 = trace.optimization_barrier %x, %y : tensor<3xf32>, tensor<3xf32>
  %e = trace.exp %b#0 : tensor<3xf32>
  %p = trace.mul %e, %b#1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// VALUES: result 0: tensor<3xf32>
// VALUES-NEXT: [ 0.  1. -1.]
// VALUES-NEXT: result 1: tensor<3xf32>
// VALUES-NEXT: [1. 2. 3.]
func.func @values(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %b:2 = trace.optimization_barrier %x, %y : tensor<3xf32>, tensor<3xf32>
  return %b#0, %b#1 : tensor<3xf32>, tensor<3xf32>
}

// GRADS: result 0: tensor<3xf32>
// GRADS-NEXT: [1. {{ *}}5.43656{{[0-9]*}} {{ *}}1.10363{{[0-9]*}}]
// GRADS-NEXT: result 1: tensor<3xf32>
// GRADS-NEXT: [1. {{ *}}2.71828{{[0-9]*}} {{ *}}0.36787{{[0-9]*}}]
func.func @grads(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %gx, %gy = trace.grad @f(%x, %y) {wrt = array<i64: 0, 1>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %gx, %gy : tensor<3xf32>, tensor<3xf32>
}

// TANGENT: result 1: tensor<f32>
// TANGENT-NEXT: 7.5402
func.func @tangent(%x: tensor<3xf32>, %y: tensor<3xf32>, %tx: tensor<3xf32>) -> (tensor<f32>, tensor<f32>) {
  %v, %t = trace.jvp @f(%x, %y) tangents(%tx) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<f32>, tensor<f32>)
  return %v, %t : tensor<f32>, tensor<f32>
}

func.func private @sum_dfdx(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %gx = trace.grad @f(%x, %y) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = trace.reduce_sum %gx {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// SECOND: result 0: tensor<3xf32>
// SECOND-NEXT: [1. {{ *}}5.43656{{[0-9]*}} {{ *}}1.10363{{[0-9]*}}]
func.func @second(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @sum_dfdx(%x, %y) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}
