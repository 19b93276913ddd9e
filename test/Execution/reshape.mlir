// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.reshape: pure collapse, pure expand, regrouping through the flat
// vector, to a scalar; f32 and i32.
// Expected values: gen_expected.py, case_reshape (NumPy), pasted below.

// result x -> 6x4 (collapse) : tensor<6x4xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [6, 4] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}-3,   -2.5,   -2,   -1.5],
// CHECK-NEXT:  [-1,   -0.5,   0,   0.5],
// CHECK-NEXT:  [1,   1.5,   2,   2.5],
// CHECK-NEXT:  [3,   3.5,   4,   4.5],
// CHECK-NEXT:  [5,   5.5,   6,   6.5],
// CHECK-NEXT:  [7,   7.5,   8,   8.5]]
// result x -> 2x3x2x2 (expand) : tensor<2x3x2x2xf32>
// CHECK: rank = 4 offset = {{[0-9]+}} sizes = [2, 3, 2, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}{{\[\[}}-3,     -2.5],
// CHECK-NEXT:    [-2,     -1.5]],
// CHECK-NEXT:   {{\[\[}}-1,     -0.5],
// CHECK-NEXT:    [0,     0.5]],
// CHECK-NEXT:   {{\[\[}}1,     1.5],
// CHECK-NEXT:    [2,     2.5]]],
// CHECK-NEXT:  {{\[\[}}[3,     3.5],
// CHECK-NEXT:    [4,     4.5]],
// CHECK-NEXT:   {{\[\[}}5,     5.5],
// CHECK-NEXT:    [6,     6.5]],
// CHECK-NEXT:   {{\[\[}}7,     7.5],
// CHECK-NEXT:    [8,     8.5]]]]
// result x -> 4x6 (regroup) : tensor<4x6xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [4, 6] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}-3,   -2.5,   -2,   -1.5,   -1,   -0.5],
// CHECK-NEXT:  [0,   0.5,   1,   1.5,   2,   2.5],
// CHECK-NEXT:  [3,   3.5,   4,   4.5,   5,   5.5],
// CHECK-NEXT:  [6,   6.5,   7,   7.5,   8,   8.5]]
// result s -> scalar : tensor<f32>
// CHECK: rank = 0 offset = {{[0-9]+}} sizes = [] strides = {{.*}} data =
// CHECK-NEXT: [7.5]
// result n -> 3x1x2 (regroup) : tensor<3x1x2xi32>
// CHECK: rank = 3 offset = {{[0-9]+}} sizes = [3, 1, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}[1,    -2]],
// CHECK-NEXT:  {{\[\[}}3,    -4]],
// CHECK-NEXT:  {{\[\[}}5,    -6]]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%x: tensor<2x3x4xf32>, %s: tensor<1x1xf32>, %n: tensor<2x3xi32>) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<4x6xf32>, tensor<f32>, tensor<3x1x2xi32>) {
  %0 = trace.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = trace.reshape %x : tensor<2x3x4xf32> -> tensor<2x3x2x2xf32>
  %2 = trace.reshape %x : tensor<2x3x4xf32> -> tensor<4x6xf32>
  %3 = trace.reshape %s : tensor<1x1xf32> -> tensor<f32>
  %4 = trace.reshape %n : tensor<2x3xi32> -> tensor<3x1x2xi32>
  return %0, %1, %2, %3, %4 : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<4x6xf32>, tensor<f32>, tensor<3x1x2xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %x = arith.constant dense<[[[-3.0, -2.5, -2.0, -1.5], [-1.0, -0.5, 0.0, 0.5], [1.0, 1.5, 2.0, 2.5]], [[3.0, 3.5, 4.0, 4.5], [5.0, 5.5, 6.0, 6.5], [7.0, 7.5, 8.0, 8.5]]]> : tensor<2x3x4xf32>
  %s = arith.constant dense<[[7.5]]> : tensor<1x1xf32>
  %n = arith.constant dense<[[1, -2, 3], [-4, 5, -6]]> : tensor<2x3xi32>
  %r:5 = func.call @under_test(%x, %s, %n) : (tensor<2x3x4xf32>, tensor<1x1xf32>, tensor<2x3xi32>) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<4x6xf32>, tensor<f32>, tensor<3x1x2xi32>)
  %u0 = tensor.cast %r#0 : tensor<6x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x3x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<4x6xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<f32> to tensor<*xf32>
  func.call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r#4 : tensor<3x1x2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
  return
}
