// A result with a `?` dim is computed in the caller's out-param, which the
// caller sized with the shape function, as a static result is: no buffer
// of its own, no copy into the out-param afterwards.
// RUN: tracec-opt %s --tracec-cpu-pipeline --mlir-print-ir-after=trace-plan-workspace -o /dev/null 2>&1 | FileCheck %s
// CHECK-LABEL: func.func @scaled_tanh(
// CHECK-SAME:    %[[X:.*]]: memref<?x64xf32>, %[[OUT:.*]]: memref<?x64xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         memref.subview %[[OUT]]
// CHECK-NOT:     memref.copy
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @scaled_tanh(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %two = trace.constant dense<2.0> : tensor<f32>
  %t = trace.tanh %x : tensor<?x64xf32>
  %y = trace.mul %two, %t : (tensor<f32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
