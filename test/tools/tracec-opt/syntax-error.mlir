// RUN: not tracec-opt %s 2>&1 | FileCheck %s

// A syntax error: the diagnostic points at the file, line and column, and
// the tool exits with a failure (not a crash) and prints no module.

// CHECK-NOT: module
// CHECK: syntax-error.mlir:[[# @LINE + 3]]:35: error: expected '>' in tensor type
// CHECK-NOT: module
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.exp %x : tensor<4xf32
  return %y : tensor<4xf32>
}
