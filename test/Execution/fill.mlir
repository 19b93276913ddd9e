// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.fill -> linalg.fill of the operand's scalar: f32, i32 and i1.
// Expected values: gen_expected.py, case_fill (NumPy), pasted below.

// result fill v 2x3 : tensor<2x3xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}2.5,   2.5,   2.5],
// CHECK-NEXT:  [2.5,   2.5,   2.5]]
// result fill n 3 : tensor<3xi32>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [3] strides = {{.*}} data =
// CHECK-NEXT: [-4,  -4,  -4]
// result fill t 2x2 as i32 : tensor<2x2xi32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1,   1],
// CHECK-NEXT:  [1,   1]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%v: tensor<f32>, %n: tensor<i32>, %t: tensor<i1>) -> (tensor<2x3xf32>, tensor<3xi32>, tensor<2x2xi32>) {
  %0 = trace.fill %v : tensor<f32> -> tensor<2x3xf32>
  %1 = trace.fill %n : tensor<i32> -> tensor<3xi32>
  %2 = trace.fill %t : tensor<i1> -> tensor<2x2xi1>
  %3 = trace.cast %2 : tensor<2x2xi1> to tensor<2x2xi32>
  return %0, %1, %3 : tensor<2x3xf32>, tensor<3xi32>, tensor<2x2xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %v = arith.constant dense<2.5> : tensor<f32>
  %n = arith.constant dense<-4> : tensor<i32>
  %t = arith.constant dense<true> : tensor<i1>
  %r:3 = func.call @under_test(%v, %n, %t) : (tensor<f32>, tensor<i32>, tensor<i1>) -> (tensor<2x3xf32>, tensor<3xi32>, tensor<2x2xi32>)
  %u0 = tensor.cast %r#0 : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<3xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<2x2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  return
}
