// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// A call of a function that writes a variable is a write of the variable
// passed to it, and a node of the token graph: the callee takes a token
// (its stateful ops wait for it) and returns one (standing for all of them).
// Here the call waits for the read before it (a write waits for reads), and
// the read after it waits for the call. The callee's results wait for its
// stateful ops as any function's do, so that they still do once the call is
// inlined.

// CHECK-LABEL: func.func private @bump
// CHECK-SAME: (%{{[a-z0-9_]+}}: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[T:[a-z0-9_]+]]: !trace.control) -> (tensor<4xf32>, !trace.control)
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign_add {{.*}} after(%[[T]])
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[C]])
// CHECK-NEXT: return %[[Y]], %[[C]] :
func.func private @bump(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %x : tensor<4xf32>
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[W:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @caller(%v: !trace.resource<tensor<4xf32>>, %w: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[V]] :
  // CHECK-NEXT: %[[CW:[a-z0-9_]+]] = trace.var.assign %[[W]], %[[X]] :
  // CHECK-NEXT: %[[B:[a-z0-9_]+]]:2 = call @bump(%[[V]], %[[X]], %[[CR]])
  // CHECK-NEXT: %[[S:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[B]]#1) :
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[S]] after(%[[CW]]) :
  // CHECK-NEXT: return %[[Y]]
  %r, %cr = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %cw = trace.var.assign %w, %x : !trace.resource<tensor<4xf32>>
  %b = func.call @bump(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %s, %cs = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %s : tensor<4xf32>
}

// -----

// A callee that prints (transitively, through another call) has unknown
// effects: the call waits for every stateful op before it. The token goes
// through @outer to @inner.

// CHECK-LABEL: func.func private @inner
// CHECK-SAME: (%{{[a-z0-9_]+}}: tensor<4xf32>, %[[T:[a-z0-9_]+]]: !trace.control) -> (tensor<4xf32>, !trace.control)
// CHECK-NEXT: %[[P:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[T]])
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %{{[a-z0-9_]+}} after(%[[P]])
// CHECK-NEXT: return %[[Y]], %[[P]] :
func.func private @inner(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.print %x : tensor<4xf32>
  return %x : tensor<4xf32>
}
// CHECK-LABEL: func.func private @outer
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[T:[a-z0-9_]+]]: !trace.control)
// CHECK-NEXT: %[[Y:[a-z0-9_]+]]:2 = call @inner(%[[X]], %[[T]])
// CHECK-NEXT: return %[[Y]]#0, %[[Y]]#1 :
func.func private @outer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @inner(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @unknown_call
func.func @unknown_call(%v: !trace.resource<tensor<4xf32>>, %w: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[CV:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %[[CW:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %[[G:[a-z0-9_]+]] = trace.group(%[[CV]], %[[CW]])
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]]:2 = call @outer(%{{[a-z0-9_]+}}, %[[G]])
  // The result comes out of the call with its token: nothing to route.
  // CHECK-NEXT: return %[[Y]]#0
  %cv = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %cw = trace.var.assign %w, %x : !trace.resource<tensor<4xf32>>
  %y = func.call @outer(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A call with no tensor operand is ordered too (before tokens went through
// calls, only its tensor operands could wait); a call nothing precedes is
// passed a token that is available at once.

// CHECK-LABEL: func.func private @reset
func.func private @reset(%v: !trace.resource<tensor<4xf32>>) {
  %z = trace.constant dense<0.0> : tensor<4xf32>
  %c = trace.var.assign %v, %z : !trace.resource<tensor<4xf32>>
  return
}

// CHECK-LABEL: func.func @resource_only
func.func @resource_only(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[G:[a-z0-9_]+]] = trace.group()
  // CHECK-NEXT: %[[T0:[a-z0-9_]+]] = call @reset(%{{[a-z0-9_]+}}, %[[G]])
  // CHECK-NEXT: %[[A:[a-z0-9_]+]] = trace.var.assign_add {{.*}} after(%[[T0]])
  // CHECK-NEXT: %[[T1:[a-z0-9_]+]] = call @reset(%{{[a-z0-9_]+}}, %[[A]])
  // CHECK-NEXT: trace.identity %{{[a-z0-9_]+}} after(%[[T1]])
  func.call @reset(%v) : (!trace.resource<tensor<4xf32>>) -> ()
  %a = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  func.call @reset(%v) : (!trace.resource<tensor<4xf32>>) -> ()
  return %x : tensor<4xf32>
}

// -----

// A public function keeps its signature (it is the host's entry): calls of
// it call a private copy that takes and returns a token. So does a function
// a gradient op references (the gradient op passes it no token; it takes
// and yields tokens itself: the second call of @step, a write, waits for
// the read of the call of @loss and for that of the gradient op).

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%{{[a-z0-9_]+}}: !trace.resource<tensor<4xf32>>, %{{[a-z0-9_]+}}: tensor<4xf32>) -> tensor<4xf32>
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %x : tensor<4xf32>
}
// CHECK-LABEL: func.func private @__ordered_step
// CHECK-SAME: -> (tensor<4xf32>, !trace.control)

// CHECK-LABEL: func.func private @loss
// CHECK-SAME: (%{{[a-z0-9_]+}}: !trace.resource<tensor<4xf32>>, %{{[a-z0-9_]+}}: tensor<4xf32>) -> tensor<f32>
func.func private @loss(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<f32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %p = trace.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
// CHECK-LABEL: func.func private @__ordered_loss
// CHECK-SAME: -> (tensor<f32>, !trace.control)

// CHECK-LABEL: func.func @twice
func.func @twice(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:[a-z0-9_]+]]:2 = call @__ordered_step(
  // CHECK: %[[L:[a-z0-9_]+]]:2 = call @__ordered_loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[A]]#1)
  // CHECK: %[[G:[a-z0-9_]+]]:2 = trace.grad @loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) after(%[[A]]#1)
  // CHECK: %[[T:[a-z0-9_]+]] = trace.group(%[[L]]#1, %[[G]]#1)
  // CHECK: call @__ordered_step(%{{[a-z0-9_]+}}, %[[G]]#0, %[[T]])
  %a = func.call @step(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %l = func.call @loss(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<f32>
  %g = trace.grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @step(%v, %g) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
