// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// A call of a function that writes a variable is a write of the variable
// passed to it. func.call takes no tokens, so its tensor operands wait
// instead: here for the read before the call (a write waits for reads).

// CHECK-LABEL: func.func private @bump
// CHECK: %[[C:[a-z0-9_]+]] = trace.var.assign_add
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %{{[a-z0-9_]+}} after(%[[C]]) :
// CHECK-NEXT: return %[[Y]]
func.func private @bump(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return %x : tensor<4xf32>
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[W:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @caller(%v: !trace.resource<tensor<4xf32>>, %w: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[CR:[a-z0-9_]+]] = trace.var.read %[[V]] :
  // CHECK-NEXT: %[[CW:[a-z0-9_]+]] = trace.var.assign %[[W]], %[[X]] :
  // CHECK-NEXT: %[[XA:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[CR]]) :
  // CHECK-NEXT: call @bump(%[[V]], %[[XA]])
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[R]] after(%[[CW]]) :
  // CHECK-NEXT: return %[[Y]]
  %r, %cr = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %cw = trace.var.assign %w, %x : !trace.resource<tensor<4xf32>>
  %b = func.call @bump(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A callee that prints (transitively, through another call) has unknown
// effects: the call waits for every stateful op before it.
func.func private @inner(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.print %x : tensor<4xf32>
  return %x : tensor<4xf32>
}
func.func private @outer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @inner(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @unknown_call
func.func @unknown_call(%v: !trace.resource<tensor<4xf32>>, %w: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[CV:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %[[CW:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %[[XA:[a-z0-9_]+]] = trace.identity %{{[a-z0-9_]+}} after(%[[CV]], %[[CW]]) :
  // CHECK-NEXT: call @outer(%[[XA]])
  %cv = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %cw = trace.var.assign %w, %x : !trace.resource<tensor<4xf32>>
  %y = func.call @outer(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A call of a function without state is not a stateful op: nothing waits.
func.func private @pure(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @pure_call
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @pure_call(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: trace.var.assign
  // CHECK-NEXT: call @pure(%[[X]])
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %y = func.call @pure(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
