// RUN: not tracec-opt %s -split-input-file 2>&1 | FileCheck %s

// Unknown trace ops, in the custom and the generic form; misspelled known
// ones. Every chunk is reported.

func.func @custom(%x: tensor<4xf32>) {
  // CHECK: unknown-op.mlir:[[# @LINE + 1]]:8: error: custom op 'trace.frobnicate' is unknown
  %y = trace.frobnicate %x : tensor<4xf32>
  return
}

// -----

func.func @generic(%x: tensor<4xf32>) {
  // CHECK: unknown-op.mlir:[[# @LINE + 1]]:8: error: unregistered operation 'trace.frobnicate' found in dialect ('trace') that does not allow unknown operations
  %y = "trace.frobnicate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @misspelled(%v: !trace.resource<tensor<4xf32>>) {
  // CHECK: unknown-op.mlir:[[# @LINE + 1]]:12: error: custom op 'trace.var.reed' is unknown
  %r, %c = trace.var.reed %v : !trace.resource<tensor<4xf32>>
  return
}
