// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.identity without control tokens is its operand: f32 and i32.
// Expected values: gen_expected.py, case_identity (NumPy), pasted below.

// result x : tensor<2x2xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1.5,   -2],
// CHECK-NEXT:  [0,   3.25]]
// result n : tensor<3xi32>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [3] strides = {{.*}} data =
// CHECK-NEXT: [5,  -6,  7]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test(%x: tensor<2x2xf32>, %n: tensor<3xi32>) -> (tensor<2x2xf32>, tensor<3xi32>) {
  %0 = trace.identity %x : tensor<2x2xf32>
  %1 = trace.identity %n : tensor<3xi32>
  return %0, %1 : tensor<2x2xf32>, tensor<3xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %x = arith.constant dense<[[1.5, -2.0], [0.0, 3.25]]> : tensor<2x2xf32>
  %n = arith.constant dense<[5, -6, 7]> : tensor<3xi32>
  %r:2 = func.call @under_test(%x, %n) : (tensor<2x2xf32>, tensor<3xi32>) -> (tensor<2x2xf32>, tensor<3xi32>)
  %u0 = tensor.cast %r#0 : tensor<2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<3xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  return
}
