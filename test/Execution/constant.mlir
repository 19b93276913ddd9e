// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.constant -> arith.constant: float, int and bool literals.
// Expected values: gen_expected.py, case_constant (NumPy), pasted below.

// result a : tensor<2x3xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}1.5,   -2,   0.25],
// CHECK-NEXT:  [4,   1e+06,   -0.125]]
// result b : tensor<3xi64>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [3] strides = {{.*}} data =
// CHECK-NEXT: [-3,  7,  1099511627776]
// result c as i32 : tensor<3xi32>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [3] strides = {{.*}} data =
// CHECK-NEXT: [1,  0,  1]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test() -> (tensor<2x3xf32>, tensor<3xi64>, tensor<3xi32>) {
  %a = trace.constant dense<[[1.5, -2.0, 0.25], [4.0, 1000000.0, -0.125]]> : tensor<2x3xf32>
  %b = trace.constant dense<[-3, 7, 1099511627776]> : tensor<3xi64>
  %c = trace.constant dense<[true, false, true]> : tensor<3xi1>
  %ci = trace.cast %c : tensor<3xi1> to tensor<3xi32>
  return %a, %b, %ci : tensor<2x3xf32>, tensor<3xi64>, tensor<3xi32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @main() {

  %r:3 = func.call @under_test() : () -> (tensor<2x3xf32>, tensor<3xi64>, tensor<3xi32>)
  %u0 = tensor.cast %r#0 : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<3xi64> to tensor<*xi64>
  func.call @printMemrefI64(%u1) : (tensor<*xi64>) -> ()
  %u2 = tensor.cast %r#2 : tensor<3xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  return
}
