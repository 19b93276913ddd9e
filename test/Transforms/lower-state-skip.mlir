// RUN: tracec-opt %s --trace-lower-state | FileCheck %s

// Tokens that also order an op this pass does not lower (print) leave the
// function as it is, for trace-to-linalg to report.
// CHECK-LABEL: func.func @with_print
// CHECK-SAME: !trace.resource<tensor<2xf32>>
// CHECK: trace.var.read
// CHECK: trace.print
func.func @with_print(%v: !trace.resource<tensor<2xf32>>) -> tensor<2xf32> {
  %r, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p = trace.print %r after(%c) : tensor<2xf32>
  %y = trace.identity %r after(%p) : tensor<2xf32>
  return %y : tensor<2xf32>
}
