// RUN: tracec-opt %s --trace-lower-state -split-input-file | FileCheck %s

// The control tokens that scf ops carry (as automatic control dependencies
// leave them) go with the stateful ops' own: token results, loop-carried
// tokens, their yield operands and the trace.group joins. What the loops
// and ifs carry besides stays.

// CHECK-LABEL: func.func @loop_and_if
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: memref<4xf32>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1)
// CHECK-NOT: !trace.control
// CHECK-NOT: trace.group
// CHECK: %[[L:[a-z0-9_]+]] = scf.for {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[X]]) -> (tensor<4xf32>) {
// CHECK:   scf.if %[[P]] {
// CHECK:     bufferization.materialize_in_destination {{.*}} in writable %[[V]]
// CHECK:   }
// CHECK:   scf.yield %{{[a-z0-9_]+}} : tensor<4xf32>
// CHECK: }
// CHECK: scf.while : () -> () {
// CHECK:   scf.condition(%[[P]])
// CHECK: } do {
// CHECK:   scf.yield
// CHECK: }
// The identity with tokens is its value.
// CHECK-NEXT: return %[[L]]
// CHECK-NOT: !trace.control
func.func @loop_and_if(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %1:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x, %t = %0) -> (tensor<4xf32>, !trace.control) {
    %2 = scf.if %pred -> (!trace.control) {
      %3 = trace.var.assign_add %v, %acc after(%t) : !trace.resource<tensor<4xf32>>
      scf.yield %3 : !trace.control
    } else {
      scf.yield %t : !trace.control
    }
    %r, %c = trace.var.read %v after(%2) : !trace.resource<tensor<4xf32>>
    %j = trace.group(%2, %c)
    scf.yield %r, %j : tensor<4xf32>, !trace.control
  }
  %none = trace.group()
  %4 = scf.while (%t = %none) : (!trace.control) -> !trace.control {
    %p = trace.print %x after(%t) : tensor<4xf32>
    scf.condition(%pred) %p : !trace.control
  } do {
  ^bb0(%t: !trace.control):
    scf.yield %t : !trace.control
  }
  %y = trace.identity %1#0 after(%1#1, %4) : tensor<4xf32>
  return %y : tensor<4xf32>
}
