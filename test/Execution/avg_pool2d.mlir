// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
//
// trace.avg_pool2d on the CPU pipeline against NumPy: the mean of the
// NON-padding elements of each window. Inputs and CHECK values:
// test/Execution/gen_expected_nn.py, avg_pool_cases() (cross-checked against
// torch.nn.functional.avg_pool2d with count_include_pad=False where the
// padding is symmetric).

func.func private @printMemrefF32(tensor<*xf32>)

// 2x2 windows, strides [2, 2], no padding: a constant divisor.
// CHECK: rank = 4 offset = 0 sizes = [1, 2, 2, 1] strides = [4, 2, 1, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}-1.25],
// CHECK-NEXT: [1.75]],
// CHECK-NEXT: {{\[\[}}-0.25],
// CHECK-NEXT: [0]]]]
func.func private @avg_pool_plain(%arg0: tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = trace.avg_pool2d %arg0 {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x4x1xf32> -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// Batch 2, 2 channels, 3x3 windows, strides [2, 2], padding 1 on every side:
// border windows average 4 or 6 elements, not 9.
// CHECK: rank = 4 offset = 0 sizes = [2, 3, 3, 2] strides = [18, 6, 2, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}-1.5, 0],
// CHECK-NEXT: [1.16667, 0.833333],
// CHECK-NEXT: [-0.75, 0.75]],
// CHECK-NEXT: {{\[\[}}-1, -1.33333],
// CHECK-NEXT: [0.444444, 0.111111],
// CHECK-NEXT: [0.666667, 0.333333]],
// CHECK-NEXT: {{\[\[}}-0.5, -1.75],
// CHECK-NEXT: [0.333333, 0],
// CHECK-NEXT: [0.25, 1.75]]],
// CHECK-NEXT: {{\[\[\[}}-0.75, 0.75],
// CHECK-NEXT: [-0.833333, -1.16667],
// CHECK-NEXT: [0, 1.5]],
// CHECK-NEXT: {{\[\[}}0.666667, 0.333333],
// CHECK-NEXT: [-0.333333, -0.666667],
// CHECK-NEXT: [-1.33333, 0.166667]],
// CHECK-NEXT: {{\[\[}}0.25, 1.75],
// CHECK-NEXT: [0.166667, -0.166667],
// CHECK-NEXT: [-1.75, -0.25]]]]
func.func private @avg_pool_same(%arg0: tensor<2x5x5x2xf32>) -> tensor<2x3x3x2xf32> {
  %0 = trace.avg_pool2d %arg0 {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : tensor<2x5x5x2xf32> -> tensor<2x3x3x2xf32>
  return %0 : tensor<2x3x3x2xf32>
}

// 3 channels, 2x3 windows, strides [1, 2], padding [1, 0, 2, 1].
// CHECK: rank = 4 offset = 0 sizes = [1, 4, 3, 3] strides = [36, 9, 3, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}-6, -1, 4],
// CHECK-NEXT: [-4, 1, 1.66667],
// CHECK-NEXT: [0, 0.666667, -3]],
// CHECK-NEXT: {{\[\[}}-1, -2.5, 2.5],
// CHECK-NEXT: [-1.16667, -0.5, 2.33333],
// CHECK-NEXT: [-1.5, 1.33333, -2.33333]],
// CHECK-NEXT: {{\[\[}}2.5, 1, -0.5],
// CHECK-NEXT: [2.33333, -1.33333, 1.5],
// CHECK-NEXT: [-2.33333, 0.5, 1.16667]],
// CHECK-NEXT: {{\[\[}}-0.5, 4.5, -3.5],
// CHECK-NEXT: [1.5, 0, -1.5],
// CHECK-NEXT: [1.16667, -2.5, 2.5]]]]
func.func private @avg_pool_asymmetric(%arg0: tensor<1x4x5x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = trace.avg_pool2d %arg0 {window = array<i64: 2, 3>, strides = array<i64: 1, 2>, padding = array<i64: 1, 0, 2, 1>} : tensor<1x4x5x3xf32> -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

func.func @main() {
  %avg_pool_plain_0 = arith.constant dense<[[[[-5.0], [2.0], [-2.0], [5.0]], [[1.0], [-3.0], [4.0], [0.0]], [[-4.0], [3.0], [-1.0], [-5.0]], [[2.0], [-2.0], [5.0], [1.0]]]]> : tensor<1x4x4x1xf32>
  %avg_pool_plain = func.call @avg_pool_plain(%avg_pool_plain_0) : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  %avg_pool_plain_u = tensor.cast %avg_pool_plain : tensor<1x2x2x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%avg_pool_plain_u) : (tensor<*xf32>) -> ()
  %avg_pool_same_0 = arith.constant dense<[[[[-5.0, 2.0], [-2.0, 5.0], [1.0, -3.0], [4.0, 0.0], [-4.0, 3.0]], [[-1.0, -5.0], [2.0, -2.0], [5.0, 1.0], [-3.0, 4.0], [0.0, -4.0]], [[3.0, -1.0], [-5.0, 2.0], [-2.0, 5.0], [1.0, -3.0], [4.0, 0.0]], [[-4.0, 3.0], [-1.0, -5.0], [2.0, -2.0], [5.0, 1.0], [-3.0, 4.0]], [[0.0, -4.0], [3.0, -1.0], [-5.0, 2.0], [-2.0, 5.0], [1.0, -3.0]]], [[[4.0, 0.0], [-4.0, 3.0], [-1.0, -5.0], [2.0, -2.0], [5.0, 1.0]], [[-3.0, 4.0], [0.0, -4.0], [3.0, -1.0], [-5.0, 2.0], [-2.0, 5.0]], [[1.0, -3.0], [4.0, 0.0], [-4.0, 3.0], [-1.0, -5.0], [2.0, -2.0]], [[5.0, 1.0], [-3.0, 4.0], [0.0, -4.0], [3.0, -1.0], [-5.0, 2.0]], [[-2.0, 5.0], [1.0, -3.0], [4.0, 0.0], [-4.0, 3.0], [-1.0, -5.0]]]]> : tensor<2x5x5x2xf32>
  %avg_pool_same = func.call @avg_pool_same(%avg_pool_same_0) : (tensor<2x5x5x2xf32>) -> tensor<2x3x3x2xf32>
  %avg_pool_same_u = tensor.cast %avg_pool_same : tensor<2x3x3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%avg_pool_same_u) : (tensor<*xf32>) -> ()
  %avg_pool_asymmetric_0 = arith.constant dense<[[[[-6.0, -1.0, 4.0], [-4.0, 1.0, 6.0], [-2.0, 3.0, -5.0], [0.0, 5.0, -3.0], [2.0, -6.0, -1.0]], [[4.0, -4.0, 1.0], [6.0, -2.0, 3.0], [-5.0, 0.0, 5.0], [-3.0, 2.0, -6.0], [-1.0, 4.0, -4.0]], [[1.0, 6.0, -2.0], [3.0, -5.0, 0.0], [5.0, -3.0, 2.0], [-6.0, -1.0, 4.0], [-4.0, 1.0, 6.0]], [[-2.0, 3.0, -5.0], [0.0, 5.0, -3.0], [2.0, -6.0, -1.0], [4.0, -4.0, 1.0], [6.0, -2.0, 3.0]]]]> : tensor<1x4x5x3xf32>
  %avg_pool_asymmetric = func.call @avg_pool_asymmetric(%avg_pool_asymmetric_0) : (tensor<1x4x5x3xf32>) -> tensor<1x4x3x3xf32>
  %avg_pool_asymmetric_u = tensor.cast %avg_pool_asymmetric : tensor<1x4x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%avg_pool_asymmetric_u) : (tensor<*xf32>) -> ()
  return
}
