// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.broadcast_to: new leading dims (linalg.broadcast) and size-1 dims
// that grow (linalg.generic); f32 and i32.
// Expected values: gen_expected.py, case_broadcast_to (NumPy), pasted below.

// result v -> 2x3 : tensor<2x3xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1.5,   -2,   3],
// CHECK-NEXT:  [1.5,   -2,   3]]
// result c -> 2x3x4 : tensor<2x3x4xf32>
// CHECK: rank = 3 offset = {{[0-9]+}} sizes = [2, 3, 4] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}[1,    1,    1,    1],
// CHECK-NEXT:   [2,    2,    2,    2],
// CHECK-NEXT:   [-3.5,    -3.5,    -3.5,    -3.5]],
// CHECK-NEXT:  {{\[\[}}1,    1,    1,    1],
// CHECK-NEXT:   [2,    2,    2,    2],
// CHECK-NEXT:   [-3.5,    -3.5,    -3.5,    -3.5]]]
// result n -> 3x2 : tensor<3x2xi32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [3, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}4,   -5],
// CHECK-NEXT:  [4,   -5],
// CHECK-NEXT:  [4,   -5]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%v: tensor<3xf32>, %c: tensor<3x1xf32>, %n: tensor<1x2xi32>) -> (tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<3x2xi32>) {
  %0 = trace.broadcast_to %v : tensor<3xf32> -> tensor<2x3xf32>
  %1 = trace.broadcast_to %c : tensor<3x1xf32> -> tensor<2x3x4xf32>
  %2 = trace.broadcast_to %n : tensor<1x2xi32> -> tensor<3x2xi32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<3x2xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %v = arith.constant dense<[1.5, -2.0, 3.0]> : tensor<3xf32>
  %c = arith.constant dense<[[1.0], [2.0], [-3.5]]> : tensor<3x1xf32>
  %n = arith.constant dense<[[4, -5]]> : tensor<1x2xi32>
  %r:3 = func.call @under_test(%v, %c, %n) : (tensor<3xf32>, tensor<3x1xf32>, tensor<1x2xi32>) -> (tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<3x2xi32>)
  %u0 = tensor.cast %r#0 : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x3x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<3x2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  return
}
