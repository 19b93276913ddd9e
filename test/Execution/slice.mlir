// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.slice -> tensor.extract_slice: strided and unit-stride f32, strided i64.
// Expected values: gen_expected.py, case_slice (NumPy), pasted below.

// result x[1:5:2, 0:7:3] : tensor<2x3xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1.75,   2.5,   3.25],
// CHECK-NEXT:  [5.25,   6,   6.75]]
// result x[0:2, 2:5] : tensor<2x3xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}0.5,   0.75,   1],
// CHECK-NEXT:  [2.25,   2.5,   2.75]]
// result n[1:6:2] : tensor<3xi64>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [3] strides = {{.*}} data =
// CHECK-NEXT: [11,  13,  15]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%x: tensor<5x7xf32>, %n: tensor<6xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi64>) {
  %0 = trace.slice %x {start = array<i64: 1, 0>, limit = array<i64: 5, 7>, strides = array<i64: 2, 3>} : tensor<5x7xf32> -> tensor<2x3xf32>
  %1 = trace.slice %x {start = array<i64: 0, 2>, limit = array<i64: 2, 5>} : tensor<5x7xf32> -> tensor<2x3xf32>
  %2 = trace.slice %n {start = array<i64: 1>, limit = array<i64: 6>, strides = array<i64: 2>} : tensor<6xi64> -> tensor<3xi64>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi64>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @main() {
  %x = arith.constant dense<[[0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5], [1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25], [3.5, 3.75, 4.0, 4.25, 4.5, 4.75, 5.0], [5.25, 5.5, 5.75, 6.0, 6.25, 6.5, 6.75], [7.0, 7.25, 7.5, 7.75, 8.0, 8.25, 8.5]]> : tensor<5x7xf32>
  %n = arith.constant dense<[10, 11, 12, 13, 14, 15]> : tensor<6xi64>
  %r:3 = func.call @under_test(%x, %n) : (tensor<5x7xf32>, tensor<6xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi64>)
  %u0 = tensor.cast %r#0 : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<3xi64> to tensor<*xi64>
  func.call @printMemrefI64(%u2) : (tensor<*xi64>) -> ()
  return
}
