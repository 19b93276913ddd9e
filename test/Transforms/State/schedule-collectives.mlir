// RUN: tracec-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(trace-schedule-collectives))' | FileCheck %s

// A step's gradient all-reduces, listed after the backward pass, move up
// to right after their gradients, in the order those are computed (the
// last layer's first), with their tokens relinked in that order; the op
// that took the chain's last token takes the new last one's.
// CHECK-LABEL: func.func @backward_order
// CHECK: %[[G1:.+]] = trace.mul %arg1, %arg1
// CHECK: %[[R1:.+]], %[[C1:.+]] = trace.all_reduce %[[G1]] after(%arg2) :
// CHECK: %[[G0:.+]] = trace.mul %[[G1]], %arg0
// CHECK: %[[R0:.+]], %[[C0:.+]] = trace.all_reduce %[[G0]] after(%[[C1]]) {reduction = "mean"}
// CHECK: trace.identity %[[R0]] after(%[[C0]])
// CHECK: return
func.func @backward_order(%x: tensor<4xf32>, %y: tensor<4xf32>,
                          %t: !trace.control) -> (tensor<4xf32>, tensor<4xf32>) {
  %g1 = trace.mul %y, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %g0 = trace.mul %g1, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r0, %c0 = trace.all_reduce %g0 after(%t) {reduction = "mean"} : tensor<4xf32>
  %r1, %c1 = trace.all_reduce %g1 after(%c0) {reduction = "sum"} : tensor<4xf32>
  %out = trace.identity %r0 after(%c1) : tensor<4xf32>
  return %out, %r1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// An all-reduce never moves above the op whose token it takes (a
// variable's read), and a chain's order follows data: the all-reduce of
// an all-reduce's result stays after it.
// CHECK-LABEL: func.func @after_tokens
// CHECK: %[[G:.+]] = trace.mul %arg0, %arg0
// CHECK: %[[V:.+]], %[[VC:.+]] = trace.var.read %arg1
// CHECK: %[[R0:.+]], %[[C0:.+]] = trace.all_reduce %[[G]] after(%[[VC]])
// CHECK: %[[R1:.+]], %[[C1:.+]] = trace.all_reduce %[[R0]] after(%[[C0]])
// CHECK: trace.add %[[V]], %[[V]]
func.func @after_tokens(%x: tensor<4xf32>,
                        %v: !trace.resource<tensor<4xf32>>) -> tensor<4xf32> {
  %g = trace.mul %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %read, %rc = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %s = trace.add %read, %read : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r0, %c0 = trace.all_reduce %g after(%rc) : tensor<4xf32>
  %r1, %c1 = trace.all_reduce %r0 after(%c0) : tensor<4xf32>
  %out = trace.add %r1, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %out : tensor<4xf32>
}
