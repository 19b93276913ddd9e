// RUN: tracec-opt %s --tracec-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// trace.iota -> linalg.generic writing linalg.index: f32, i32, f64 (over 1024
// elements, so not folded; strided slices and a sum keep the printout short)
// and a small folded i64 one.
// Expected values: gen_expected.py, case_iota (NumPy), pasted below.

// result iota f32 3x400 axis -1 [:, ::133] : tensor<3x4xf32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [3, 4] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}0,   133,   266,   399],
// CHECK-NEXT:  [0,   133,   266,   399],
// CHECK-NEXT:  [0,   133,   266,   399]]
// result iota i32 1100x2 axis 0 [::366, :] : tensor<4x2xi32>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [4, 2] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}0,   0],
// CHECK-NEXT:  [366,   366],
// CHECK-NEXT:  [732,   732],
// CHECK-NEXT:  [1098,   1098]]
// result iota f64 3x400 axis 1, sum over axis 1 : tensor<3xf64>
// CHECK: rank = 1 offset = {{[0-9]+}} sizes = [3] strides = {{.*}} data =
// CHECK-NEXT: [79800,  79800,  79800]
// result iota i64 2x3 axis 0 : tensor<2x3xi64>
// CHECK: rank = 2 offset = {{[0-9]+}} sizes = [2, 3] strides = {{.*}} data =
// CHECK-NEXT: {{\[\[}}0,   0,   0],
// CHECK-NEXT:  [1,   1,   1]]

// The function under test is private: the CPU pipeline turns the results of
// public functions into out-parameters, and @main calls it directly.
func.func private @under_test() -> (tensor<3x4xf32>, tensor<4x2xi32>, tensor<3xf64>, tensor<2x3xi64>) {
  %a = trace.iota {axis = -1} : tensor<3x400xf32>
  %as = trace.slice %a {start = array<i64: 0, 0>, limit = array<i64: 3, 400>, strides = array<i64: 1, 133>} : tensor<3x400xf32> -> tensor<3x4xf32>
  %b = trace.iota {axis = 0} : tensor<1100x2xi32>
  %bs = trace.slice %b {start = array<i64: 0, 0>, limit = array<i64: 1100, 2>, strides = array<i64: 366, 1>} : tensor<1100x2xi32> -> tensor<4x2xi32>
  %c = trace.iota {axis = 1} : tensor<3x400xf64>
  %cs = trace.reduce_sum %c {axes = array<i64: 1>} : tensor<3x400xf64> -> tensor<3xf64>
  %d = trace.iota {axis = 0} : tensor<2x3xi64>
  return %as, %bs, %cs, %d : tensor<3x4xf32>, tensor<4x2xi32>, tensor<3xf64>, tensor<2x3xi64>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefF64(tensor<*xf64>)
func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @main() {

  %r:4 = func.call @under_test() : () -> (tensor<3x4xf32>, tensor<4x2xi32>, tensor<3xf64>, tensor<2x3xi64>)
  %u0 = tensor.cast %r#0 : tensor<3x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<4x2xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<3xf64> to tensor<*xf64>
  func.call @printMemrefF64(%u2) : (tensor<*xf64>) -> ()
  %u3 = tensor.cast %r#3 : tensor<2x3xi64> to tensor<*xi64>
  func.call @printMemrefI64(%u3) : (tensor<*xi64>) -> ()
  return
}
