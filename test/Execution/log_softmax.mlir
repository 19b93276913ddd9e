// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
//
// trace.log_softmax on the CPU pipeline against NumPy. Inputs and CHECK values:
// test/Execution/gen_expected_nn.py, SOFTMAX_INPUTS and log_softmax() (float64,
// cross-checked against torch.log_softmax); float32 results are matched within
// LOG_SOFTMAX_TOLERANCE.

func.func private @printMemrefF32(tensor<*xf32>)

// Default axis (-1). Row 2 overflows float32 exp without the max subtraction;
// row 3 holds -inf.
// CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}-3.44019, -2.44019, -1.44019, {{-0\.44019|-0\.440189}}],
// CHECK-NEXT: [-3.44019, -2.44019, -1.44019, {{-0\.44019|-0\.440189}}],
// CHECK-NEXT: [-inf, {{-0\.693147|-0\.693148|-0\.693146}}, {{-0\.693147|-0\.693148|-0\.693146}}, -inf]]
func.func private @log_softmax_last(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = trace.log_softmax %arg0 : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// Rank 3, axis -3 (= 0), values near +-1000.
// CHECK: rank = 3 offset = 0 sizes = [3, 2, 2] strides = [4, 2, 1] data =
// CHECK-NEXT: {{\[\[\[}}-1.34901, {{-1\.40761|-1\.4076}}],
// CHECK-NEXT: [-1.09861, {{-2\.40761|-2\.4076}}]],
// CHECK-NEXT: {{\[\[}}{{-3\.34901|-3\.34902}}, {{-2\.40761|-2\.4076}}],
// CHECK-NEXT: [-1.09861, {{-1\.40761|-1\.4076}}]],
// CHECK-NEXT: {{\[\[}}{{-0\.349012|-0\.349013}}, {{-0\.407606|-0\.407607|-0\.407605}}],
// CHECK-NEXT: [-1.09861, {{-0\.407606|-0\.407607|-0\.407605}}]]]
func.func private @log_softmax_first(%arg0: tensor<3x2x2xf32>) -> tensor<3x2x2xf32> {
  %0 = trace.log_softmax %arg0 {axis = -3} : tensor<3x2x2xf32>
  return %0 : tensor<3x2x2xf32>
}

// Rank 3, axis -2 (= 1), values near 700.
// CHECK: rank = 3 offset = 0 sizes = [2, 3, 2] strides = [6, 2, 1] data =
// CHECK-NEXT: {{\[\[\[}}{{-2\.02798|-2\.02797}}, {{-1\.22481|-1\.2248}}],
// CHECK-NEXT: [{{-1\.27798|-1\.27797}}, {{-0\.474806|-0\.474807|-0\.474805}}],
// CHECK-NEXT: [{{-0\.527976|-0\.527977|-0\.527975}}, {{-2\.47481|-2\.4748}}]],
// CHECK-NEXT: {{\[\[}}{{-0\.351952|-0\.351953|-0\.351951}}, {{-1\.22481|-1\.2248}}],
// CHECK-NEXT: [-2.35195, {{-0\.474806|-0\.474807|-0\.474805}}],
// CHECK-NEXT: [-1.60195, {{-2\.47481|-2\.4748}}]]]
func.func private @log_softmax_middle(%arg0: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> {
  %0 = trace.log_softmax %arg0 {axis = -2} : tensor<2x3x2xf32>
  return %0 : tensor<2x3x2xf32>
}

func.func @main() {
  %log_softmax_last_0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1000.0, 1001.0, 1002.0, 1003.0], [0xFF800000, 0.0, 0.0, 0xFF800000]]> : tensor<3x4xf32>
  %log_softmax_last = func.call @log_softmax_last(%log_softmax_last_0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %log_softmax_last_u = tensor.cast %log_softmax_last : tensor<3x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%log_softmax_last_u) : (tensor<*xf32>) -> ()
  %log_softmax_first_0 = arith.constant dense<[[[1000.0, -1000.0], [0.0, 5.0]], [[998.0, -1001.0], [0.0, 6.0]], [[1001.0, -999.0], [0.0, 7.0]]]> : tensor<3x2x2xf32>
  %log_softmax_first = func.call @log_softmax_first(%log_softmax_first_0) : (tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %log_softmax_first_u = tensor.cast %log_softmax_first : tensor<3x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%log_softmax_first_u) : (tensor<*xf32>) -> ()
  %log_softmax_middle_0 = arith.constant dense<[[[698.75, 700.5], [699.5, 701.25], [700.25, 699.25]], [[701.0, 700.0], [699.0, 700.75], [699.75, 698.75]]]> : tensor<2x3x2xf32>
  %log_softmax_middle = func.call @log_softmax_middle(%log_softmax_middle_0) : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %log_softmax_middle_u = tensor.cast %log_softmax_middle : tensor<2x3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%log_softmax_middle_u) : (tensor<*xf32>) -> ()
  return
}
