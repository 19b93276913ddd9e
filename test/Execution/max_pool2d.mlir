// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
//
// trace.max_pool2d on the CPU pipeline against NumPy. Inputs and CHECK
// values: test/Execution/gen_expected_nn.py, max_pool_cases() (the max over
// the in-bounds window elements, cross-checked against
// torch.nn.functional.max_pool2d of the -inf-padded input).

func.func private @printMemrefF32(tensor<*xf32>)

// 2x2 windows, strides [2, 2], no padding.
// CHECK: rank = 4 offset = 0 sizes = [1, 2, 2, 1] strides = [4, 2, 1, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}2],
// CHECK-NEXT: [5]],
// CHECK-NEXT: {{\[\[}}3],
// CHECK-NEXT: [5]]]]
func.func private @max_pool_plain(%arg0: tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = trace.max_pool2d %arg0 {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x4x1xf32> -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// Every input is negative, so a padding zero would win: batch 2, 2 channels,
// 3x2 windows, strides [2, 1], padding [1, 1, 0, 1].
// CHECK: rank = 4 offset = 0 sizes = [2, 3, 4, 2] strides = [24, 8, 2, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}-1, -1],
// CHECK-NEXT: [-4, -1],
// CHECK-NEXT: [-7, -3],
// CHECK-NEXT: [-10, -6]],
// CHECK-NEXT: {{\[\[}}-2, -1],
// CHECK-NEXT: [-5, -1],
// CHECK-NEXT: [-1, -4],
// CHECK-NEXT: [-1, -7]],
// CHECK-NEXT: {{\[\[}}-4, -1],
// CHECK-NEXT: [-7, -3],
// CHECK-NEXT: [-2, -6],
// CHECK-NEXT: [-2, -9]]],
// CHECK-NEXT: {{\[\[\[}}-6, -2],
// CHECK-NEXT: [-1, -5],
// CHECK-NEXT: [-1, -1],
// CHECK-NEXT: [-4, -1]],
// CHECK-NEXT: {{\[\[}}-1, -3],
// CHECK-NEXT: [-1, -6],
// CHECK-NEXT: [-2, -1],
// CHECK-NEXT: [-5, -1]],
// CHECK-NEXT: {{\[\[}}-1, -5],
// CHECK-NEXT: [-1, -1],
// CHECK-NEXT: [-4, -1],
// CHECK-NEXT: [-7, -3]]]]
func.func private @max_pool_negative(%arg0: tensor<2x5x4x2xf32>) -> tensor<2x3x4x2xf32> {
  %0 = trace.max_pool2d %arg0 {window = array<i64: 3, 2>, strides = array<i64: 2, 1>, padding = array<i64: 1, 1, 0, 1>} : tensor<2x5x4x2xf32> -> tensor<2x3x4x2xf32>
  return %0 : tensor<2x3x4x2xf32>
}

// Overlapping 3x3 windows, stride 1, padding below and left only [0, 2, 2, 0].
// CHECK: rank = 4 offset = 0 sizes = [1, 3, 3, 2] strides = [18, 6, 2, 1] data =
// CHECK-NEXT: {{\[\[\[\[}}2, 4],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [4, 4]],
// CHECK-NEXT: {{\[\[}}2, 4],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [4, 4]],
// CHECK-NEXT: {{\[\[}}2, -2],
// CHECK-NEXT: [3, -1],
// CHECK-NEXT: [4, 0]]]]
func.func private @max_pool_overlap(%arg0: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %0 = trace.max_pool2d %arg0 {window = array<i64: 3, 3>, padding = array<i64: 0, 2, 2, 0>} : tensor<1x3x3x2xf32> -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

func.func @main() {
  %max_pool_plain_0 = arith.constant dense<[[[[-5.0], [2.0], [-2.0], [5.0]], [[1.0], [-3.0], [4.0], [0.0]], [[-4.0], [3.0], [-1.0], [-5.0]], [[2.0], [-2.0], [5.0], [1.0]]]]> : tensor<1x4x4x1xf32>
  %max_pool_plain = func.call @max_pool_plain(%max_pool_plain_0) : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  %max_pool_plain_u = tensor.cast %max_pool_plain : tensor<1x2x2x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%max_pool_plain_u) : (tensor<*xf32>) -> ()
  %max_pool_negative_0 = arith.constant dense<[[[[-1.0, -8.0], [-4.0, -11.0], [-7.0, -3.0], [-10.0, -6.0]], [[-2.0, -9.0], [-5.0, -1.0], [-8.0, -4.0], [-11.0, -7.0]], [[-3.0, -10.0], [-6.0, -2.0], [-9.0, -5.0], [-1.0, -8.0]], [[-4.0, -11.0], [-7.0, -3.0], [-10.0, -6.0], [-2.0, -9.0]], [[-5.0, -1.0], [-8.0, -4.0], [-11.0, -7.0], [-3.0, -10.0]]], [[[-6.0, -2.0], [-9.0, -5.0], [-1.0, -8.0], [-4.0, -11.0]], [[-7.0, -3.0], [-10.0, -6.0], [-2.0, -9.0], [-5.0, -1.0]], [[-8.0, -4.0], [-11.0, -7.0], [-3.0, -10.0], [-6.0, -2.0]], [[-9.0, -5.0], [-1.0, -8.0], [-4.0, -11.0], [-7.0, -3.0]], [[-10.0, -6.0], [-2.0, -9.0], [-5.0, -1.0], [-8.0, -4.0]]]]> : tensor<2x5x4x2xf32>
  %max_pool_negative = func.call @max_pool_negative(%max_pool_negative_0) : (tensor<2x5x4x2xf32>) -> tensor<2x3x4x2xf32>
  %max_pool_negative_u = tensor.cast %max_pool_negative : tensor<2x3x4x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%max_pool_negative_u) : (tensor<*xf32>) -> ()
  %max_pool_overlap_0 = arith.constant dense<[[[[-4.0, 1.0], [-3.0, 2.0], [-2.0, 3.0]], [[-1.0, 4.0], [0.0, -4.0], [1.0, -3.0]], [[2.0, -2.0], [3.0, -1.0], [4.0, 0.0]]]]> : tensor<1x3x3x2xf32>
  %max_pool_overlap = func.call @max_pool_overlap(%max_pool_overlap_0) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %max_pool_overlap_u = tensor.cast %max_pool_overlap : tensor<1x3x3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%max_pool_overlap_u) : (tensor<*xf32>) -> ()
  return
}
