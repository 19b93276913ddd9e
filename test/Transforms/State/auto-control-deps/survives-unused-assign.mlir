// RUN: tracec-opt %s --trace-auto-control-deps --canonicalize --cse --inline | FileCheck %s

// An assign nobody uses is still there after canonicalize, cse and
// inlining: the results wait for it through trace.identity, also when it
// was in a callee whose call is inlined.

// CHECK-LABEL: func.func @unused_assign
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
// CHECK-NEXT: %[[E:[a-z0-9_]+]] = trace.exp %[[X]]
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[E]] after(%[[C]]) :
// CHECK-NEXT: return %[[Y]]
func.func @unused_assign(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %e = trace.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

func.func private @set(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %e = trace.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// CHECK-LABEL: func.func @inlined
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// The token the call was passed (nothing precedes it):
// CHECK-NEXT: %[[G:[a-z0-9_]+]] = trace.group()
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] after(%[[G]]) :
// CHECK-NEXT: %[[E:[a-z0-9_]+]] = trace.exp %[[X]]
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[E]] after(%[[C]]) :
// CHECK-NEXT: return %[[Y]]
func.func @inlined(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @set(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// Without a tensor result the assign stays by its memory effects.
// CHECK-LABEL: func.func @no_results
// CHECK-NEXT: trace.var.assign
// CHECK-NEXT: return
func.func @no_results(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return
}
