// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
//
// trace.argmax on the CPU pipeline against NumPy's np.argmax (the first
// maximum; NaN counts as the maximum, the first NaN wins). Inputs and CHECK
// values: test/Execution/gen_expected_nn.py, ARGMAX_INPUTS.

func.func private @printMemrefI64(tensor<*xi64>)

// Axis -1; ties keep the first maximum.
// CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [0, 1]
func.func private @argmax_ties(%arg0: tensor<2x5xf32>) -> tensor<2xi64> {
  %0 = trace.argmax %arg0 {axis = -1} : tensor<2x5xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// NaN is the maximum (the first one wins); all -inf gives 0; +inf ties.
// CHECK: rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [1, 0, 3, 0]
func.func private @argmax_nan(%arg0: tensor<4x4xf32>) -> tensor<4xi64> {
  %0 = trace.argmax %arg0 {axis = 1} : tensor<4x4xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// Rank 3, axis -3 (= 0), with ties.
// CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [0, 2]]
func.func private @argmax_first_axis(%arg0: tensor<3x2x2xf32>) -> tensor<2x2xi64> {
  %0 = trace.argmax %arg0 {axis = -3} : tensor<3x2x2xf32> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// i32; one column is INT_MIN throughout (the accumulator start value).
// CHECK: rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [0, 1, 0]
func.func private @argmax_int(%arg0: tensor<3x3xi32>) -> tensor<3xi64> {
  %0 = trace.argmax %arg0 {axis = 0} : tensor<3x3xi32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// Rank 1 -> rank 0.
// CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
// CHECK-NEXT: [2]
func.func private @argmax_vector(%arg0: tensor<4xf32>) -> tensor<i64> {
  %0 = trace.argmax %arg0 {axis = 0} : tensor<4xf32> -> tensor<i64>
  return %0 : tensor<i64>
}

func.func @main() {
  %argmax_ties_0 = arith.constant dense<[[3.0, 1.0, 3.0, 2.0, 3.0], [-1.0, 5.0, 5.0, -2.0, 5.0]]> : tensor<2x5xf32>
  %argmax_ties = func.call @argmax_ties(%argmax_ties_0) : (tensor<2x5xf32>) -> tensor<2xi64>
  %argmax_ties_u = tensor.cast %argmax_ties : tensor<2xi64> to tensor<*xi64>
  func.call @printMemrefI64(%argmax_ties_u) : (tensor<*xi64>) -> ()
  %argmax_nan_0 = arith.constant dense<[[1.0, 0x7FC00000, 5.0, 0x7FC00000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [2.0, 7.0, 7.0, 0x7FC00000], [0x7F800000, 1.0, 0x7F800000, 0.0]]> : tensor<4x4xf32>
  %argmax_nan = func.call @argmax_nan(%argmax_nan_0) : (tensor<4x4xf32>) -> tensor<4xi64>
  %argmax_nan_u = tensor.cast %argmax_nan : tensor<4xi64> to tensor<*xi64>
  func.call @printMemrefI64(%argmax_nan_u) : (tensor<*xi64>) -> ()
  %argmax_first_axis_0 = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[1.0, 5.0], [3.0, 0.0]], [[0.0, 5.0], [3.0, 9.0]]]> : tensor<3x2x2xf32>
  %argmax_first_axis = func.call @argmax_first_axis(%argmax_first_axis_0) : (tensor<3x2x2xf32>) -> tensor<2x2xi64>
  %argmax_first_axis_u = tensor.cast %argmax_first_axis : tensor<2x2xi64> to tensor<*xi64>
  func.call @printMemrefI64(%argmax_first_axis_u) : (tensor<*xi64>) -> ()
  %argmax_int_0 = arith.constant dense<[[-2147483648, 4, 7], [-2147483648, 9, 7], [-2147483648, 9, -3]]> : tensor<3x3xi32>
  %argmax_int = func.call @argmax_int(%argmax_int_0) : (tensor<3x3xi32>) -> tensor<3xi64>
  %argmax_int_u = tensor.cast %argmax_int : tensor<3xi64> to tensor<*xi64>
  func.call @printMemrefI64(%argmax_int_u) : (tensor<*xi64>) -> ()
  %argmax_vector_0 = arith.constant dense<[0.5, -1.0, 2.5, 2.5]> : tensor<4xf32>
  %argmax_vector = func.call @argmax_vector(%argmax_vector_0) : (tensor<4xf32>) -> tensor<i64>
  %argmax_vector_u = tensor.cast %argmax_vector : tensor<i64> to tensor<*xi64>
  func.call @printMemrefI64(%argmax_vector_u) : (tensor<*xi64>) -> ()
  return
}
