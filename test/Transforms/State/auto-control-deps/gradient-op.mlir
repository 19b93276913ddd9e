// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=KEPT

// A gradient op runs its callee: over a function that reads a variable it
// is a read of the variable passed to it, ordered like any stateful op (it
// yields a token, which an assign after it waits for, and waits for an
// assign before it), and kept even when unused (it declares effects on the
// variable, so canonicalize and CSE keep all three gradient ops apart and
// alive).

func.func private @loss(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<f32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %p = trace.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[G0:[a-z0-9_]+]]:2 = trace.grad @loss(%[[V]], %[[X]]) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<4xf32>, !trace.control)
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign_sub %[[V]], %[[G0]]#0 after(%[[G0]]#1) :
// CHECK-NEXT: %[[G1:[a-z0-9_]+]]:2 = trace.grad @loss(%[[V]], %[[X]]) after(%[[C]])
// KEPT-LABEL: func.func @step
// KEPT-COUNT-3: trace.grad @loss
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %g0 = trace.grad @loss(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %c = trace.var.assign_sub %v, %g0 : !trace.resource<tensor<4xf32>>
  %g1 = trace.grad @loss(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %unused = trace.grad @loss(%v, %x) {wrt = array<i64: 0>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return %g1 : tensor<4xf32>
}
