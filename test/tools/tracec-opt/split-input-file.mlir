// RUN: tracec-opt %s -split-input-file | FileCheck %s
// RUN: not tracec-opt %s -split-input-file --mlir-very-unlikely-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// -split-input-file parses and prints each chunk as its own module; symbols
// of one chunk are not visible in the next.

// CHECK: module {
// CHECK: func.func @loss
// CHECK: func.func @grad
// CHECK: trace.grad @loss
// CHECK: // -----
// CHECK: module {
// CHECK: func.func @loss
// CHECK-NOT: func.func @grad
// CHECK: // -----
// CHECK: module {
// CHECK: func.func @state
// CHECK: trace.var.assign

// FLAG: Unknown command line argument '--mlir-very-unlikely-flag'

func.func @loss(%w: tensor<4xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grad(%w: tensor<4xf32>) -> tensor<4xf32> {
  %g = trace.grad @loss(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// The same name again: a new module.
func.func @loss(%w: tensor<4xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

func.func @state(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return
}
