// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// Function summaries are computed bottom-up over the call graph, whose
// edges include gradient ops: @caller runs @middle, which runs @leaf
// through a gradient op, and @leaf writes the variable. (Callers come
// first in the module, so an order of the module would not do.)

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %{{[a-z0-9_]+}}, %[[C0:[a-z0-9_]+]] = trace.var.read %[[V]] :
// CHECK-NEXT: %[[M:[a-z0-9_]+]]:2 = call @middle(%[[V]], %[[X]], %[[C0]])
// CHECK-NEXT: %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = trace.var.read %[[V]] after(%[[M]]#1) :
func.func @caller(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %g = func.call @middle(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r0, %g, %r1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func private @middle
// CHECK-SAME: !trace.control) -> (tensor<4xf32>, !trace.control)
func.func private @middle(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %g = trace.grad @leaf(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

func.func private @leaf(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<f32> {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A recursive SCC: @ping reads its first variable and calls @pong with the
// two swapped; @pong writes its first and calls @ping swapped again. Only
// the fixed point says that @ping reads %v and writes %w (and nothing
// more): the read of %v after the call waits for nothing, the read of %w
// waits for the call, and the call waits for the read of %w before it.

// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[W:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %{{[a-z0-9_]+}}, %[[C0:[a-z0-9_]+]] = trace.var.read %[[W]] :
// CHECK-NEXT: %[[P:[a-z0-9_]+]] = call @ping(%[[V]], %[[W]], %[[X]], %[[C0]])
// CHECK-NEXT: %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = trace.var.read %[[V]] :
// CHECK-NEXT: %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = trace.var.read %[[W]] after(%[[P]]) :
func.func @entry(%v: !trace.resource<tensor<4xf32>>, %w: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r0, %c0 = trace.var.read %w : !trace.resource<tensor<4xf32>>
  func.call @ping(%v, %w, %x) : (!trace.resource<tensor<4xf32>>, !trace.resource<tensor<4xf32>>, tensor<4xf32>) -> ()
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %r2, %c2 = trace.var.read %w : !trace.resource<tensor<4xf32>>
  return %r0, %r1, %r2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

func.func private @ping(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %r, %c = trace.var.read %a : !trace.resource<tensor<4xf32>>
  func.call @pong(%b, %a, %r) : (!trace.resource<tensor<4xf32>>, !trace.resource<tensor<4xf32>>, tensor<4xf32>) -> ()
  return
}

func.func private @pong(%c: !trace.resource<tensor<4xf32>>, %d: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %w = trace.var.assign_add %c, %x : !trace.resource<tensor<4xf32>>
  func.call @ping(%d, %c, %x) : (!trace.resource<tensor<4xf32>>, !trace.resource<tensor<4xf32>>, tensor<4xf32>) -> ()
  return
}
