// RUN: tracec-opt %s --trace-auto-control-deps --trace-autodiff -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps --trace-autodiff --trace-auto-control-deps -split-input-file | FileCheck %s

// The front of the pipelines (auto-control-deps once, then autodiff): a
// gradient op over a function that reads and writes a variable, between
// two writes of it. auto-control-deps orders the gradient op like any
// stateful op (it takes the token of the write before and yields one);
// autodiff gives the forward function, which does the callee's reads and
// writes, a token argument and result: its call waits for the write before
// the gradient op, and the write and the print after it wait for the call.
// The backward function touches no state; the gradient it returns (the
// gradient op's result, which came after the op's token) waits for the
// forward call's token. Ordering again after autodiff
// (the second RUN) changes nothing.

func.func private @loss(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<f32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %p = trace.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  %c2 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func private @__forward_loss_wrt_1
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[T:[a-z0-9_]+]]: !trace.control) -> (tensor<f32>, tensor<4xf32>, !trace.control)
// CHECK-NEXT: %{{[a-z0-9_]+}}, %[[R:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[T]]) :
// CHECK:      %[[A:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]] after(%[[R]]) :
// CHECK:      return {{.*}}, %[[A]] : tensor<f32>, tensor<4xf32>, !trace.control

// CHECK-LABEL: func.func private @__backward_loss_wrt_1
// CHECK-NOT: !trace.control
// CHECK: return

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[Y:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[W0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[Y]] :
// CHECK-NEXT: %[[F:[a-z0-9_]+]]:3 = call @__forward_loss_wrt_1(%[[V]], %[[X]], %[[W0]])
// CHECK:      %[[B:[a-z0-9_]+]] = call @__backward_loss_wrt_1
// CHECK-NEXT: %[[GF:[a-z0-9_]+]] = trace.identity %[[B]] after(%[[F]]#2)
// CHECK-NEXT: %[[W1:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] after(%[[F]]#2) :
// CHECK-NEXT: %[[P:[a-z0-9_]+]] = trace.print %[[Y]] after(%[[W1]])
// CHECK-NEXT: %[[G:[a-z0-9_]+]] = trace.identity %[[GF]] after(%[[P]])
// CHECK-NEXT: return %[[G]]
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = trace.var.assign %v, %y : !trace.resource<tensor<4xf32>>
  %g = trace.grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %c1 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %p = trace.print %y : tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// Two gradient ops of one function (with respect to one argument) share
// its forward function, given a token once; a gradient op that waits for
// nothing passes a token that waits for nothing. The write between them
// waits for the first call, the second call for the write; value_and_grad
// and vjp are ordered the same way.

func.func private @loss(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<f32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %p = trace.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  %c2 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func private @__forward_loss_wrt_1
// CHECK-SAME: !trace.control) -> (tensor<f32>, tensor<4xf32>, !trace.control)
// CHECK-NOT: func.func private @__forward_loss

// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[DY:[a-z0-9_]+]]: tensor<f32>)
// CHECK-NEXT: %[[N:[a-z0-9_]+]] = trace.group()
// CHECK-NEXT: %[[F0:[a-z0-9_]+]]:3 = call @__forward_loss_wrt_1(%[[V]], %[[X]], %[[N]])
// CHECK:      %[[B0:[a-z0-9_]+]] = call @__backward_loss_wrt_1
// CHECK-NEXT: %[[G0:[a-z0-9_]+]] = trace.identity %[[B0]] after(%[[F0]]#2)
// CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[G0]] after(%[[F0]]#2) :
// CHECK-NEXT: %[[F1:[a-z0-9_]+]]:3 = call @__forward_loss_wrt_1(%[[V]], %[[X]], %[[W]])
// CHECK:      call @__backward_loss_wrt_1
// CHECK-NEXT: %[[F2:[a-z0-9_]+]]:3 = call @__forward_loss_wrt_1(%[[V]], %[[X]], %[[F1]]#2)
// CHECK-NEXT: %[[B2:[a-z0-9_]+]] = call @__backward_loss_wrt_1(%[[F2]]#1, %[[DY]])
// CHECK-NEXT: %[[G2:[a-z0-9_]+]] = trace.identity %[[B2]] after(%[[F2]]#2)
// CHECK-NEXT: return %[[G2]]
func.func @twice(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %dy: tensor<f32>) -> tensor<4xf32> {
  %g0 = trace.grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %c = trace.var.assign %v, %g0 : !trace.resource<tensor<4xf32>>
  %l, %g1 = trace.value_and_grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  %y, %g2 = trace.vjp @loss(%v, %x) cotangents(%dy) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return %g2 : tensor<4xf32>
}

// -----

// Forward mode: the __jvp function gets the token, as the forward function
// does in reverse mode.

func.func private @scale(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %y = trace.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c2 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func private @__jvp_scale
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %{{[a-z0-9_]+}}: tensor<4xf32>, %{{[a-z0-9_]+}}: tensor<4xf32>, %[[T:[a-z0-9_]+]]: !trace.control) -> (tensor<4xf32>, tensor<4xf32>, !trace.control)
// CHECK-NEXT: %{{[a-z0-9_]+}}, %[[R:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[T]]) :
// CHECK:      %[[A:[a-z0-9_]+]] = trace.var.assign %[[V]], %{{[a-z0-9_]+}} after(%[[R]]) :
// CHECK:      return {{.*}}, %[[A]] : tensor<4xf32>, tensor<4xf32>, !trace.control

// CHECK-LABEL: func.func @forward_mode
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[TX:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[W0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[TX]] :
// CHECK-NEXT: %[[J:[a-z0-9_]+]]:3 = call @__jvp_scale{{[a-z0-9_]*}}(%[[V]], %[[X]], %[[TX]], %[[W0]])
// CHECK-NEXT: %{{[a-z0-9_]+}} = trace.var.assign %[[V]], %[[X]] after(%[[J]]#2) :
func.func @forward_mode(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %tx: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = trace.var.assign %v, %tx : !trace.resource<tensor<4xf32>>
  %y, %ty = trace.jvp @scale(%v, %x) tangents(%tx) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>), (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %c1 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return %ty : tensor<4xf32>
}
