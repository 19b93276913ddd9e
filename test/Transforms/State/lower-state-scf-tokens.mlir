// RUN: tracec-opt %s --trace-lower-state -split-input-file | FileCheck %s

// Control tokens that flow through scf regions (an scf.if that yields one,
// an scf.for and an scf.while that carry one as an iter_arg) disappear with
// the ops that made them: the scf ops lose those results, iter_args and
// yield operands, the tensors they carry stay.

// CHECK-LABEL: func.func @tokens_through_scf
// CHECK-SAME: (%[[M:[a-z0-9_]+]]: memref<4xf32>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[P:[a-z0-9_]+]]: i1) -> tensor<4xf32>
// CHECK:      bufferization.materialize_in_destination %[[X]] in writable %[[M]]
// CHECK-NEXT: scf.if %[[P]] {
// CHECK:        trace.add
// CHECK-NEXT:   bufferization.materialize_in_destination %{{.+}} in writable %[[M]]
// CHECK-NEXT: }
// CHECK:      %[[ACC:[a-z0-9_]+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[A:[a-z0-9_]+]] = %[[X]]) -> (tensor<4xf32>) {
// CHECK:        memref.copy %[[M]], %[[B:[a-z0-9_]+]]
// CHECK-NEXT:   %[[R:[a-z0-9_]+]] = bufferization.to_tensor %[[B]] restrict writable
// CHECK-NEXT:   %[[S:[a-z0-9_]+]] = trace.add %[[A]], %[[R]]
// CHECK-NEXT:   bufferization.materialize_in_destination %[[X]] in writable %[[M]]
// CHECK-NEXT:   scf.yield %[[S]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[ACC]] : tensor<4xf32>
// CHECK-NOT:  !trace.control
func.func @tokens_through_scf(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %p: i1) -> tensor<4xf32> {
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %c1 = scf.if %p -> (!trace.control) {
    %r, %cr = trace.var.read %v after(%c0) : !trace.resource<tensor<4xf32>>
    %d = trace.add %r, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %c = trace.var.assign %v, %d after(%cr) : !trace.resource<tensor<4xf32>>
    scf.yield %c : !trace.control
  } else {
    scf.yield %c0 : !trace.control
  }
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %acc, %c2 = scf.for %i = %lb to %ub step %st iter_args(%a = %x, %t = %c1) -> (tensor<4xf32>, !trace.control) {
    %r, %cr = trace.var.read %v after(%t) : !trace.resource<tensor<4xf32>>
    %s = trace.add %a, %r : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %cw = trace.var.assign %v, %x after(%cr) : !trace.resource<tensor<4xf32>>
    scf.yield %s, %cw : tensor<4xf32>, !trace.control
  }
  %y = trace.identity %acc after(%c2) : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// scf.while: the token is carried through both regions and the condition.
// CHECK-LABEL: func.func @token_through_while
// CHECK: %[[W:[a-z0-9_]+]] = scf.while (%[[A:[a-z0-9_]+]] = %{{.+}}) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK:   call @tracec_print_tensor
// CHECK:   scf.condition(%{{.+}}) %[[A]] : tensor<4xf32>
// CHECK: } do {
// CHECK: ^bb0(%{{.+}}: tensor<4xf32>):
// CHECK:   call @tracec_print_tensor
// CHECK:   scf.yield %{{.+}} : tensor<4xf32>
// CHECK: }
// CHECK: return %[[W]] : tensor<4xf32>
// CHECK-NOT: !trace.control
func.func @token_through_while(%x: tensor<4xf32>, %n: tensor<i1>) -> tensor<4xf32> {
  %c0 = trace.print %x {message = "before"} : tensor<4xf32>
  %r, %cr = scf.while (%a = %x, %t = %c0) : (tensor<4xf32>, !trace.control) -> (tensor<4xf32>, !trace.control) {
    %c1 = trace.print %a after(%t) {message = "cond"} : tensor<4xf32>
    %b = tensor.extract %n[] : tensor<i1>
    scf.condition(%b) %a, %c1 : tensor<4xf32>, !trace.control
  } do {
  ^bb0(%a: tensor<4xf32>, %t: !trace.control):
    %c2 = trace.print %a after(%t) {message = "body"} : tensor<4xf32>
    scf.yield %a, %c2 : tensor<4xf32>, !trace.control
  }
  %y = trace.identity %r after(%cr) : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Tokens across calls: a function that takes and returns a token loses
// both, and so do its calls.
// CHECK-LABEL: func.func private @sink()
// CHECK-LABEL: func.func private @after_token(%{{.+}}: memref<2xf32>, %{{.+}}: tensor<2xf32>) {
// CHECK:   materialize_in_destination
// CHECK:   return
// CHECK-LABEL: func.func @calls
// CHECK-SAME: (%[[M:[a-z0-9_]+]]: memref<2xf32>, %[[X:[a-z0-9_]+]]: tensor<2xf32>)
// CHECK-NEXT: bufferization.materialize_in_destination %[[X]] in writable %[[M]]
// CHECK-NEXT: call @after_token(%[[M]], %[[X]]) : (memref<2xf32>, tensor<2xf32>) -> ()
// CHECK-NEXT: call @sink() : () -> ()
// CHECK-NEXT: return
func.func private @sink(!trace.control)
func.func private @after_token(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>, %t: !trace.control) -> !trace.control {
  %c = trace.var.assign %v, %x after(%t) : !trace.resource<tensor<2xf32>>
  return %c : !trace.control
}
func.func @calls(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) {
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<2xf32>>
  %c1 = func.call @after_token(%v, %x, %c0) : (!trace.resource<tensor<2xf32>>, tensor<2xf32>, !trace.control) -> !trace.control
  func.call @sink(%c1) : (!trace.control) -> ()
  return
}
