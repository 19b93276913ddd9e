// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.one_hot -> linalg.generic comparing linalg.index with the index;
// out-of-range indices (-1, 3, 5) give all off_value: f32 (default axis),
// i32 at axis 0 with on/off values, f64 at axis -2, i1.
// Expected values: gen_expected.py, case_one_hot (NumPy), pasted below.

// result i depth 3 (axis -1) f32 : tensor<4x3xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [4, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1,   0,   0],
// CHECK-NEXT:  [0,   0,   1],
// CHECK-NEXT:  [0,   0,   0],
// CHECK-NEXT:  [0,   0,   0]]
// result j depth 3 axis 0 on 5 off -1 i32 : tensor<3x2x2xi32>
// CHECK: rank = 3 offset = {{[0-9]+}} sizes = [3, 2, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}[-1,    5],
// CHECK-NEXT:   [-1,    -1]],
// CHECK-NEXT:  {{\[\[}}5,    -1],
// CHECK-NEXT:   [-1,    -1]],
// CHECK-NEXT:  {{\[\[}}-1,    -1],
// CHECK-NEXT:   [-1,    5]]]
// result j depth 4 axis -2 on 2.5 off 0.5 f64 : tensor<2x4x2xf64>
// CHECK: rank = 3 offset = {{[0-9]+}} sizes = [2, 4, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}[0.5,    2.5],
// CHECK-NEXT:   [2.5,    0.5],
// CHECK-NEXT:   [0.5,    0.5],
// CHECK-NEXT:   [0.5,    0.5]],
// CHECK-NEXT:  {{\[\[}}0.5,    0.5],
// CHECK-NEXT:   [0.5,    0.5],
// CHECK-NEXT:   [0.5,    2.5],
// CHECK-NEXT:   [0.5,    0.5]]]
// result k depth 3 bool as i32 : tensor<2x3xi32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}0,   0,   1],
// CHECK-NEXT:  [1,   0,   0]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%i: tensor<4xi32>, %j: tensor<2x2xi64>, %k: tensor<2xi32>) -> (tensor<4x3xf32>, tensor<3x2x2xi32>, tensor<2x4x2xf64>, tensor<2x3xi32>) {
  %0 = trace.one_hot %i {depth = 3} : tensor<4xi32> -> tensor<4x3xf32>
  %1 = trace.one_hot %j {depth = 3, axis = 0, on_value = 5.0, off_value = -1.0} : tensor<2x2xi64> -> tensor<3x2x2xi32>
  %2 = trace.one_hot %j {depth = 4, axis = -2, on_value = 2.5, off_value = 0.5} : tensor<2x2xi64> -> tensor<2x4x2xf64>
  %3 = trace.one_hot %k {depth = 3} : tensor<2xi32> -> tensor<2x3xi1>
  %4 = trace.cast %3 : tensor<2x3xi1> to tensor<2x3xi32>
  return %0, %1, %2, %4 : tensor<4x3xf32>, tensor<3x2x2xi32>, tensor<2x4x2xf64>, tensor<2x3xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefF64(tensor<*xf64>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %i = arith.constant dense<[0, 2, -1, 3]> : tensor<4xi32>
  %j = arith.constant dense<[[1, 0], [5, 2]]> : tensor<2x2xi64>
  %k = arith.constant dense<[2, 0]> : tensor<2xi32>
  %r:4 = func.call @under_test(%i, %j, %k) : (tensor<4xi32>, tensor<2x2xi64>, tensor<2xi32>) -> (tensor<4x3xf32>, tensor<3x2x2xi32>, tensor<2x4x2xf64>, tensor<2x3xi32>)
  %u0 = tensor.cast %r#0 : tensor<4x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<3x2x2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<2x4x2xf64> to tensor<*xf64>
  func.call @printMemrefF64(%u2) : (tensor<*xf64>) -> ()
  %u3 = tensor.cast %r#3 : tensor<2x3xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
  return
}
