// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.transpose -> linalg.transpose: rank 3 f32, rank 2 i64.
// Expected values: gen_expected.py, case_transpose (NumPy), pasted below.

// result x perm [2, 0, 1] : tensor<4x2x3xf32>
// CHECK: rank = 3 offset = {{[0-9]+}} sizes = [4, 2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}[-10,    -6,    -2],
// CHECK-NEXT:   [2,    6,    10]],
// CHECK-NEXT:  {{\[\[}}-9,    -5,    -1],
// CHECK-NEXT:   [3,    7,    11]],
// CHECK-NEXT:  {{\[\[}}-8,    -4,    0],
// CHECK-NEXT:   [4,    8,    12]],
// CHECK-NEXT:  {{\[\[}}-7,    -3,    1],
// CHECK-NEXT:   [5,    9,    13]]]
// result n perm [1, 0] : tensor<3x2xi64>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [3, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}-8589934592,   -34359738368],
// CHECK-NEXT:  [-17179869184,   -42949672960],
// CHECK-NEXT:  [-25769803776,   -51539607552]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%x: tensor<2x3x4xf32>, %n: tensor<2x3xi64>) -> (tensor<4x2x3xf32>, tensor<3x2xi64>) {
  %0 = trace.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = trace.transpose %n {perm = array<i64: 1, 0>} : tensor<2x3xi64> -> tensor<3x2xi64>
  return %0, %1 : tensor<4x2x3xf32>, tensor<3x2xi64>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @main() {
  %x = arith.constant dense<[[[-10.0, -9.0, -8.0, -7.0], [-6.0, -5.0, -4.0, -3.0], [-2.0, -1.0, 0.0, 1.0]], [[2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0]]]> : tensor<2x3x4xf32>
  %n = arith.constant dense<[[-8589934592, -17179869184, -25769803776], [-34359738368, -42949672960, -51539607552]]> : tensor<2x3xi64>
  %r:2 = func.call @under_test(%x, %n) : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> (tensor<4x2x3xf32>, tensor<3x2xi64>)
  %u0 = tensor.cast %r#0 : tensor<4x2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<3x2xi64> to tensor<*xi64>
  func.call @printMemrefI64(%u1) : (tensor<*xi64>) -> ()
  return
}
