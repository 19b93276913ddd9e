// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
//
// trace.conv2d on the CPU pipeline against NumPy. Inputs and CHECK values:
// test/Execution/gen_expected_nn.py, conv_cases() (an explicit NumPy loop,
// cross-checked against torch.nn.functional.conv2d).

func.func private @printMemrefF32(tensor<*xf32>)

// 1x4x4x1 input, 3x3x1x1 filter, no padding, unit strides.
// CHECK: rank = 4 offset = 0 sizes = [1, 2, 2, 1] strides = [4, 2, 1, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}5],
// CHECK-NEXT: [-2]],
// CHECK-NEXT: {{\[\[}}21],
// CHECK-NEXT: [-8]]]]
func.func private @conv_plain(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = trace.conv2d %arg0, %arg1 : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// Batch 2, 3 -> 4 channels, strides [2, 2], asymmetric padding
// [top 1, bottom 0, left 0, right 1], dilations [1, 2].
// CHECK: rank = 4 offset = 0 sizes = [2, 2, 3, 4] strides = [24, 12, 4, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}10, -14, -38, 36],
// CHECK-NEXT: [-36, 20, 27, 27],
// CHECK-NEXT: [18, 26, -8, -14]],
// CHECK-NEXT: {{\[\[}}-22, -1, -1, 48],
// CHECK-NEXT: [-17, 17, 44, 15],
// CHECK-NEXT: [45, 13, -12, -9]]],
// CHECK-NEXT: {{\[\[\[}}2, -21, -9, -11],
// CHECK-NEXT: [-11, -9, -21, 2],
// CHECK-NEXT: [-17, 6, 1, 3]],
// CHECK-NEXT: {{\[\[}}-57, -6, 3, -51],
// CHECK-NEXT: [3, -10, -51, 48],
// CHECK-NEXT: [-39, 24, 10, 24]]]]
func.func private @conv_strided(%arg0: tensor<2x5x6x3xf32>, %arg1: tensor<3x2x3x4xf32>) -> tensor<2x2x3x4xf32> {
  %0 = trace.conv2d %arg0, %arg1 {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<2x5x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  return %0 : tensor<2x2x3x4xf32>
}

// 2 -> 3 channels, dilations [2, 2], padding 2 on every side (same size).
// CHECK: rank = 4 offset = 0 sizes = [1, 4, 4, 3] strides = [48, 12, 3, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}-12, -9, 43],
// CHECK-NEXT: [18, -1, -20],
// CHECK-NEXT: [-9, 43, -3],
// CHECK-NEXT: [-1, -20, 10]],
// CHECK-NEXT: {{\[\[}}-22, 36, 38],
// CHECK-NEXT: [21, -34, -12],
// CHECK-NEXT: [36, 38, -16],
// CHECK-NEXT: [-34, -12, 10]],
// CHECK-NEXT: {{\[\[}}-3, 0, -25],
// CHECK-NEXT: [10, -2, -7],
// CHECK-NEXT: [0, -25, 6],
// CHECK-NEXT: [-2, -7, 2]],
// CHECK-NEXT: {{\[\[}}-16, -21, -5],
// CHECK-NEXT: [10, -10, 26],
// CHECK-NEXT: [-21, -5, -10],
// CHECK-NEXT: [-10, 26, -1]]]]
func.func private @conv_dilated(%arg0: tensor<1x4x4x2xf32>, %arg1: tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = trace.conv2d %arg0, %arg1 {padding = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

func.func @main() {
  %conv_plain_0 = arith.constant dense<[[[[-5.0], [2.0], [-2.0], [5.0]], [[1.0], [-3.0], [4.0], [0.0]], [[-4.0], [3.0], [-1.0], [-5.0]], [[2.0], [-2.0], [5.0], [1.0]]]]> : tensor<1x4x4x1xf32>
  %conv_plain_1 = arith.constant dense<[[[[-3.0]], [[2.0]], [[0.0]]], [[[-2.0]], [[3.0]], [[1.0]]], [[[-1.0]], [[-3.0]], [[2.0]]]]> : tensor<3x3x1x1xf32>
  %conv_plain = func.call @conv_plain(%conv_plain_0, %conv_plain_1) : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  %conv_plain_u = tensor.cast %conv_plain : tensor<1x2x2x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%conv_plain_u) : (tensor<*xf32>) -> ()
  %conv_strided_0 = arith.constant dense<[[[[-5.0, 2.0, -2.0], [5.0, 1.0, -3.0], [4.0, 0.0, -4.0], [3.0, -1.0, -5.0], [2.0, -2.0, 5.0], [1.0, -3.0, 4.0]], [[0.0, -4.0, 3.0], [-1.0, -5.0, 2.0], [-2.0, 5.0, 1.0], [-3.0, 4.0, 0.0], [-4.0, 3.0, -1.0], [-5.0, 2.0, -2.0]], [[5.0, 1.0, -3.0], [4.0, 0.0, -4.0], [3.0, -1.0, -5.0], [2.0, -2.0, 5.0], [1.0, -3.0, 4.0], [0.0, -4.0, 3.0]], [[-1.0, -5.0, 2.0], [-2.0, 5.0, 1.0], [-3.0, 4.0, 0.0], [-4.0, 3.0, -1.0], [-5.0, 2.0, -2.0], [5.0, 1.0, -3.0]], [[4.0, 0.0, -4.0], [3.0, -1.0, -5.0], [2.0, -2.0, 5.0], [1.0, -3.0, 4.0], [0.0, -4.0, 3.0], [-1.0, -5.0, 2.0]]], [[[-2.0, 5.0, 1.0], [-3.0, 4.0, 0.0], [-4.0, 3.0, -1.0], [-5.0, 2.0, -2.0], [5.0, 1.0, -3.0], [4.0, 0.0, -4.0]], [[3.0, -1.0, -5.0], [2.0, -2.0, 5.0], [1.0, -3.0, 4.0], [0.0, -4.0, 3.0], [-1.0, -5.0, 2.0], [-2.0, 5.0, 1.0]], [[-3.0, 4.0, 0.0], [-4.0, 3.0, -1.0], [-5.0, 2.0, -2.0], [5.0, 1.0, -3.0], [4.0, 0.0, -4.0], [3.0, -1.0, -5.0]], [[2.0, -2.0, 5.0], [1.0, -3.0, 4.0], [0.0, -4.0, 3.0], [-1.0, -5.0, 2.0], [-2.0, 5.0, 1.0], [-3.0, 4.0, 0.0]], [[-4.0, 3.0, -1.0], [-5.0, 2.0, -2.0], [5.0, 1.0, -3.0], [4.0, 0.0, -4.0], [3.0, -1.0, -5.0], [2.0, -2.0, 5.0]]]]> : tensor<2x5x6x3xf32>
  %conv_strided_1 = arith.constant dense<[[[[-3.0, 2.0, 0.0, -2.0], [3.0, 1.0, -1.0, -3.0], [2.0, 0.0, -2.0, 3.0]], [[1.0, -1.0, -3.0, 2.0], [0.0, -2.0, 3.0, 1.0], [-1.0, -3.0, 2.0, 0.0]]], [[[-2.0, 3.0, 1.0, -1.0], [-3.0, 2.0, 0.0, -2.0], [3.0, 1.0, -1.0, -3.0]], [[2.0, 0.0, -2.0, 3.0], [1.0, -1.0, -3.0, 2.0], [0.0, -2.0, 3.0, 1.0]]], [[[-1.0, -3.0, 2.0, 0.0], [-2.0, 3.0, 1.0, -1.0], [-3.0, 2.0, 0.0, -2.0]], [[3.0, 1.0, -1.0, -3.0], [2.0, 0.0, -2.0, 3.0], [1.0, -1.0, -3.0, 2.0]]]]> : tensor<3x2x3x4xf32>
  %conv_strided = func.call @conv_strided(%conv_strided_0, %conv_strided_1) : (tensor<2x5x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  %conv_strided_u = tensor.cast %conv_strided : tensor<2x2x3x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%conv_strided_u) : (tensor<*xf32>) -> ()
  %conv_dilated_0 = arith.constant dense<[[[[-6.0, -3.0], [0.0, 3.0], [6.0, -4.0], [-1.0, 2.0]], [[5.0, -5.0], [-2.0, 1.0], [4.0, -6.0], [-3.0, 0.0]], [[3.0, 6.0], [-4.0, -1.0], [2.0, 5.0], [-5.0, -2.0]], [[1.0, 4.0], [-6.0, -3.0], [0.0, 3.0], [6.0, -4.0]]]]> : tensor<1x4x4x2xf32>
  %conv_dilated_1 = arith.constant dense<[[[[-3.0, 2.0, 0.0], [-2.0, 3.0, 1.0]], [[-1.0, -3.0, 2.0], [0.0, -2.0, 3.0]], [[1.0, -1.0, -3.0], [2.0, 0.0, -2.0]]], [[[3.0, 1.0, -1.0], [-3.0, 2.0, 0.0]], [[-2.0, 3.0, 1.0], [-1.0, -3.0, 2.0]], [[0.0, -2.0, 3.0], [1.0, -1.0, -3.0]]], [[[2.0, 0.0, -2.0], [3.0, 1.0, -1.0]], [[-3.0, 2.0, 0.0], [-2.0, 3.0, 1.0]], [[-1.0, -3.0, 2.0], [0.0, -2.0, 3.0]]]]> : tensor<3x3x2x3xf32>
  %conv_dilated = func.call @conv_dilated(%conv_dilated_0, %conv_dilated_1) : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32>
  %conv_dilated_u = tensor.cast %conv_dilated : tensor<1x4x4x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%conv_dilated_u) : (tensor<*xf32>) -> ()
  return
}
