// RUN: tracec-opt %s -split-input-file | tracec-opt -split-input-file | FileCheck %s
// RUN: tracec-opt %s -split-input-file --mlir-print-op-generic | tracec-opt -split-input-file | FileCheck %s
// RUN: tracec-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=CANON

// trace.group joins control tokens; without operands it is a token that is
// available at once. A group of one token folds to that token; others stay.
// A trace op waits for nothing on a token available at once: canonicalize
// drops it from `after(...)`.

// CHECK-LABEL: func.func @group
// CANON-LABEL: func.func @group
func.func @group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[NONE:[a-z0-9_]+]] = trace.group()
  // CHECK: %[[P:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[NONE]])
  // CHECK: %[[Q:[a-z0-9_]+]] = trace.print
  // CHECK: %[[ONE:[a-z0-9_]+]] = trace.group(%[[P]])
  // CHECK: %[[BOTH:[a-z0-9_]+]] = trace.group(%[[P]], %[[Q]])
  // CHECK: trace.identity %{{[a-z0-9_]+}} after(%[[ONE]], %[[BOTH]])
  // CANON-NEXT: %[[P:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} : tensor<4xf32>
  // CANON-NEXT: %[[Q:[a-z0-9_]+]] = trace.print
  // CANON: %[[BOTH:[a-z0-9_]+]] = trace.group(%[[P]], %[[Q]])
  // CANON: trace.identity %{{[a-z0-9_]+}} after(%[[P]], %[[BOTH]])
  %none = trace.group()
  %p = trace.print %x after(%none) : tensor<4xf32>
  %q = trace.print %x : tensor<4xf32>
  %one = trace.group(%p)
  %both = trace.group(%p, %q)
  %y = trace.identity %x after(%one, %both) : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Where a token available at once is an operand of another dialect's op (a
// call, a loop's initial token), it stays.
func.func private @bump(%x: tensor<4xf32>, %t: !trace.control) -> (tensor<4xf32>, !trace.control) {
  %p = trace.print %x after(%t) : tensor<4xf32>
  return %x, %p : tensor<4xf32>, !trace.control
}

// CANON-LABEL: func.func @operand_of_call
// CANON-NEXT: %[[NONE:[a-z0-9_]+]] = trace.group()
// CANON-NEXT: call @bump(%{{[a-z0-9_]+}}, %[[NONE]])
func.func @operand_of_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %none = trace.group()
  %y:2 = func.call @bump(%x, %none) : (tensor<4xf32>, !trace.control) -> (tensor<4xf32>, !trace.control)
  %z = trace.identity %y#0 after(%y#1) : tensor<4xf32>
  return %z : tensor<4xf32>
}
