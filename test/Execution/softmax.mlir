// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
//
// trace.softmax on the CPU pipeline against NumPy. Inputs and CHECK values:
// test/Execution/gen_expected_nn.py, SOFTMAX_INPUTS and softmax() (float64,
// cross-checked against torch.softmax); float32 results are matched within
// SOFTMAX_TOLERANCE.

func.func private @printMemrefF32(tensor<*xf32>)

// Default axis (-1). Row 2 overflows float32 exp without the max subtraction;
// row 3 holds -inf.
// CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}0.0320586, {{0\.0871443|0\.0871442|0\.0871444}}, 0.236883, {{0\.643914|0\.643915}}],
// CHECK-NEXT: [0.0320586, {{0\.0871443|0\.0871442|0\.0871444}}, 0.236883, {{0\.643914|0\.643915}}],
// CHECK-NEXT: [0, {{0\.5|0\.499999}}, {{0\.5|0\.499999}}, 0]]
func.func private @softmax_last(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = trace.softmax %arg0 : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// Rank 3, axis -3 (= 0), values near +-1000.
// CHECK: rank = 3 offset = 0 sizes = [3, 2, 2] strides = [4, 2, 1] data =
// CHECK-NEXT: {{\[\[\[}}{{0\.259496|0\.259497}}, {{0\.244728|0\.244729}}],
// CHECK-NEXT: [{{0\.333333|0\.333334}}, {{0\.0900306|0\.0900305|0\.0900307}}]],
// CHECK-NEXT: {{\[\[}}{{0\.035119|0\.0351191}}, {{0\.0900306|0\.0900305|0\.0900307}}],
// CHECK-NEXT: [{{0\.333333|0\.333334}}, {{0\.244728|0\.244729}}]],
// CHECK-NEXT: {{\[\[}}{{0\.705384|0\.705385}}, {{0\.665241|0\.66524|0\.665242}}],
// CHECK-NEXT: [{{0\.333333|0\.333334}}, {{0\.665241|0\.66524|0\.665242}}]]]
func.func private @softmax_first(%arg0: tensor<3x2x2xf32>) -> tensor<3x2x2xf32> {
  %0 = trace.softmax %arg0 {axis = -3} : tensor<3x2x2xf32>
  return %0 : tensor<3x2x2xf32>
}

// Rank 3, axis -2 (= 1), values near 700.
// CHECK: rank = 3 offset = 0 sizes = [2, 3, 2] strides = [6, 2, 1] data =
// CHECK-NEXT: {{\[\[\[}}0.131602, {{0\.293815|0\.293814}}],
// CHECK-NEXT: [{{0\.278601|0\.2786}}, {{0\.622006|0\.622005|0\.622007}}],
// CHECK-NEXT: [{{0\.589798|0\.589797}}, {{0\.0841793|0\.0841794}}]],
// CHECK-NEXT: {{\[\[}}{{0\.703314|0\.703313|0\.703315}}, {{0\.293815|0\.293814}}],
// CHECK-NEXT: [{{0\.0951832|0\.0951831|0\.0951833}}, {{0\.622006|0\.622005|0\.622007}}],
// CHECK-NEXT: [0.201503, {{0\.0841793|0\.0841794}}]]]
func.func private @softmax_middle(%arg0: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> {
  %0 = trace.softmax %arg0 {axis = -2} : tensor<2x3x2xf32>
  return %0 : tensor<2x3x2xf32>
}

func.func @main() {
  %softmax_last_0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1000.0, 1001.0, 1002.0, 1003.0], [0xFF800000, 0.0, 0.0, 0xFF800000]]> : tensor<3x4xf32>
  %softmax_last = func.call @softmax_last(%softmax_last_0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %softmax_last_u = tensor.cast %softmax_last : tensor<3x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%softmax_last_u) : (tensor<*xf32>) -> ()
  %softmax_first_0 = arith.constant dense<[[[1000.0, -1000.0], [0.0, 5.0]], [[998.0, -1001.0], [0.0, 6.0]], [[1001.0, -999.0], [0.0, 7.0]]]> : tensor<3x2x2xf32>
  %softmax_first = func.call @softmax_first(%softmax_first_0) : (tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %softmax_first_u = tensor.cast %softmax_first : tensor<3x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%softmax_first_u) : (tensor<*xf32>) -> ()
  %softmax_middle_0 = arith.constant dense<[[[698.75, 700.5], [699.5, 701.25], [700.25, 699.25]], [[701.0, 700.0], [699.0, 700.75], [699.75, 698.75]]]> : tensor<2x3x2xf32>
  %softmax_middle = func.call @softmax_middle(%softmax_middle_0) : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %softmax_middle_u = tensor.cast %softmax_middle : tensor<2x3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%softmax_middle_u) : (tensor<*xf32>) -> ()
  return
}
