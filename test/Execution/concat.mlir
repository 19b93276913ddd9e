// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.concat -> tensor.insert_slice chain: negative axis f32, three i32
// inputs along axis 0.
// Expected values: gen_expected.py, case_concat (NumPy), pasted below.

// result a, b axis -1 : tensor<2x4xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 4] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1,   3,   4.5,   5],
// CHECK-NEXT:  [2,   6,   7,   -8]]
// result p, q, r axis 0 : tensor<4x2xi32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [4, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1,   2],
// CHECK-NEXT:  [3,   4],
// CHECK-NEXT:  [5,   6],
// CHECK-NEXT:  [-7,   -8]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%a: tensor<2x1xf32>, %b: tensor<2x3xf32>, %p: tensor<1x2xi32>, %q: tensor<2x2xi32>, %r: tensor<1x2xi32>) -> (tensor<2x4xf32>, tensor<4x2xi32>) {
  %0 = trace.concat %a, %b {axis = -1} : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  %1 = trace.concat %p, %q, %r {axis = 0} : (tensor<1x2xi32>, tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<4x2xi32>
  return %0, %1 : tensor<2x4xf32>, tensor<4x2xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %a = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %b = arith.constant dense<[[3.0, 4.5, 5.0], [6.0, 7.0, -8.0]]> : tensor<2x3xf32>
  %p = arith.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %q = arith.constant dense<[[3, 4], [5, 6]]> : tensor<2x2xi32>
  %s = arith.constant dense<[[-7, -8]]> : tensor<1x2xi32>
  %r:2 = func.call @under_test(%a, %b, %p, %q, %s) : (tensor<2x1xf32>, tensor<2x3xf32>, tensor<1x2xi32>, tensor<2x2xi32>, tensor<1x2xi32>) -> (tensor<2x4xf32>, tensor<4x2xi32>)
  %u0 = tensor.cast %r#0 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<4x2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  return
}
