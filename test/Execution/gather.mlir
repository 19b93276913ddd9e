// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.gather -> linalg.generic + tensor.extract; out-of-range indices
// (negative and too large) are clamped to [0, dim - 1]: f32 params with i32
// indices, i64 params with 2-D i64 indices at axis -1, a rank-0 index.
// Expected values: gen_expected.py, case_gather (NumPy), pasted below.

// result p, i axis 0 : tensor<4x4xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [4, 4] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}12,   13.5,   15,   16.5],
// CHECK-NEXT:  [0,   1.5,   3,   4.5],
// CHECK-NEXT:  [12,   13.5,   15,   16.5],
// CHECK-NEXT:  [0,   1.5,   3,   4.5]]
// result q, j axis -1 : tensor<2x2x2xi64>
// CHECK: rank = 3 offset = {{[0-9]+}} sizes = [2, 2, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}[13,    10],
// CHECK-NEXT:   [11,    13]],
// CHECK-NEXT:  {{\[\[}}23,    20],
// CHECK-NEXT:   [21,    23]]]
// result r, k axis 0 : tensor<2xi32>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [2] strides = {{.*}} data =
// CHECK-NEXT: [5,  6]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%p: tensor<3x4xf32>, %i: tensor<4xi32>, %q: tensor<2x4xi64>, %j: tensor<2x2xi64>, %r: tensor<3x2xi32>, %k: tensor<i32>) -> (tensor<4x4xf32>, tensor<2x2x2xi64>, tensor<2xi32>) {
  %0 = trace.gather %p, %i {axis = 0} : (tensor<3x4xf32>, tensor<4xi32>) -> tensor<4x4xf32>
  %1 = trace.gather %q, %j {axis = -1} : (tensor<2x4xi64>, tensor<2x2xi64>) -> tensor<2x2x2xi64>
  %2 = trace.gather %r, %k : (tensor<3x2xi32>, tensor<i32>) -> tensor<2xi32>
  return %0, %1, %2 : tensor<4x4xf32>, tensor<2x2x2xi64>, tensor<2xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @main() {
  %p = arith.constant dense<[[0.0, 1.5, 3.0, 4.5], [6.0, 7.5, 9.0, 10.5], [12.0, 13.5, 15.0, 16.5]]> : tensor<3x4xf32>
  %i = arith.constant dense<[2, -1, 5, 0]> : tensor<4xi32>
  %q = arith.constant dense<[[10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<2x4xi64>
  %j = arith.constant dense<[[3, -7], [1, 9]]> : tensor<2x2xi64>
  %s = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %k = arith.constant dense<7> : tensor<i32>
  %r:3 = func.call @under_test(%p, %i, %q, %j, %s, %k) : (tensor<3x4xf32>, tensor<4xi32>, tensor<2x4xi64>, tensor<2x2xi64>, tensor<3x2xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<2x2x2xi64>, tensor<2xi32>)
  %u0 = tensor.cast %r#0 : tensor<4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x2x2xi64> to tensor<*xi64>
  func.call @printMemrefI64(%u1) : (tensor<*xi64>) -> ()
  %u2 = tensor.cast %r#2 : tensor<2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  return
}
