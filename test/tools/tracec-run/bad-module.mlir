// A module that does not verify is reported with its location.
// RUN: not tracec-run %s --entry f --input x=1 2>&1 | FileCheck %s
// CHECK: tracec-run: error: {{.*}}bad-module.mlir:7:8: error: 'trace.matmul' op contraction dims differ: lhs 3 vs rhs 4
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x2xf32>) -> tensor<2x2xf32> {
  // The matmul below is the error.

  %0 = trace.matmul %a, %b : (tensor<2x3xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
