// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.pad -> tensor.pad with a non-zero value converted to the element
// type: f32, i32 (-7.9 truncates to -7), i1 (0.5 is true), f64.
// Expected values: gen_expected.py, case_pad (NumPy), pasted below.

// result x low [1, 0] high [0, 2] value -2.5 : tensor<3x5xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [3, 5] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}-2.5,   -2.5,   -2.5,   -2.5,   -2.5],
// CHECK-NEXT:  [1,   2,   3,   -2.5,   -2.5],
// CHECK-NEXT:  [4,   5,   6,   -2.5,   -2.5]]
// result n low [2] high [1] value -7.9 : tensor<6xi32>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [6] strides = {{.*}} data =
// CHECK-NEXT: [-7,  -7,  1,  2,  3,  -7]
// result b low [0] high [2] value 0.5 as i32 : tensor<4xi32>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [4] strides = {{.*}} data =
// CHECK-NEXT: [1,  0,  1,  1]
// result d low [1, 1] high [1, 0] value 1e-3 : tensor<3x2xf64>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [3, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}0.001,   0.001],
// CHECK-NEXT:  [0.001,   0.5],
// CHECK-NEXT:  [0.001,   0.001]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%x: tensor<2x3xf32>, %n: tensor<3xi32>, %b: tensor<2xi1>, %d: tensor<1x1xf64>) -> (tensor<3x5xf32>, tensor<6xi32>, tensor<4xi32>, tensor<3x2xf64>) {
  %0 = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 2>, value = -2.5} : tensor<2x3xf32> -> tensor<3x5xf32>
  %1 = trace.pad %n {low = array<i64: 2>, high = array<i64: 1>, value = -7.9} : tensor<3xi32> -> tensor<6xi32>
  %2 = trace.pad %b {low = array<i64: 0>, high = array<i64: 2>, value = 0.5} : tensor<2xi1> -> tensor<4xi1>
  %3 = trace.cast %2 : tensor<4xi1> to tensor<4xi32>
  %4 = trace.pad %d {low = array<i64: 1, 1>, high = array<i64: 1, 0>, value = 1.0e-3} : tensor<1x1xf64> -> tensor<3x2xf64>
  return %0, %1, %3, %4 : tensor<3x5xf32>, tensor<6xi32>, tensor<4xi32>, tensor<3x2xf64>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefF64(tensor<*xf64>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %n = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = arith.constant dense<[true, false]> : tensor<2xi1>
  %d = arith.constant dense<[[0.5]]> : tensor<1x1xf64>
  %r:4 = func.call @under_test(%x, %n, %b, %d) : (tensor<2x3xf32>, tensor<3xi32>, tensor<2xi1>, tensor<1x1xf64>) -> (tensor<3x5xf32>, tensor<6xi32>, tensor<4xi32>, tensor<3x2xf64>)
  %u0 = tensor.cast %r#0 : tensor<3x5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<6xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<4xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<3x2xf64> to tensor<*xf64>
  func.call @printMemrefF64(%u3) : (tensor<*xf64>) -> ()
  return
}
