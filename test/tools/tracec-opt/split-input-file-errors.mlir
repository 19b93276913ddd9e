// RUN: not tracec-opt %s -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// An error in one chunk does not stop the others; the exit code is still a
// failure. A symbol of an earlier chunk is not visible in a later one.

// CHECK: func.func @first
// CHECK-NOT: func.func @second
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @second(%w: tensor<4xf32>) -> tensor<4xf32> {
  // ERR: split-input-file-errors.mlir:[[# @LINE + 1]]:8: error: 'trace.grad' op callee @first does not name a func.func in this module
  %g = trace.grad @first(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// CHECK: func.func @third
func.func @third(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
