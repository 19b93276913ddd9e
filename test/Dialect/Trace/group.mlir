// RUN: tracec-opt %s -split-input-file | tracec-opt -split-input-file | FileCheck %s
// RUN: tracec-opt %s -split-input-file --mlir-print-op-generic | tracec-opt -split-input-file | FileCheck %s
// RUN: tracec-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=CANON

// trace.group joins control tokens; without operands it is a token that is
// available at once. A group of one token folds to that token; others stay.

// CHECK-LABEL: func.func @group
// CANON-LABEL: func.func @group
func.func @group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[NONE:[a-z0-9_]+]] = trace.group()
  // CHECK: %[[P:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[NONE]])
  // CHECK: %[[Q:[a-z0-9_]+]] = trace.print
  // CHECK: %[[ONE:[a-z0-9_]+]] = trace.group(%[[P]])
  // CHECK: %[[BOTH:[a-z0-9_]+]] = trace.group(%[[P]], %[[Q]])
  // CHECK: trace.identity %{{[a-z0-9_]+}} after(%[[ONE]], %[[BOTH]])
  // CANON: %[[P:[a-z0-9_]+]] = trace.print
  // CANON: %[[Q:[a-z0-9_]+]] = trace.print
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
