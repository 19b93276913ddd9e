// A gradient op whose callee reads, prints and writes a variable, between
// a write and a read of it, through the whole CPU pipeline (which orders
// the module once, before trace-autodiff): the forward function runs after
// the write before the gradient op and before the write after it, and the
// gradient is the value the callee read.
// RUN: tracec-run %s --entry step --input v="[1, 2]" --input x="[0.5, 1]" | FileCheck %s

// CHECK:      loss reads [2. 4.]
// CHECK-NEXT: after [3. 6.]
// CHECK-NEXT: result 0: tensor<2xf32>
// CHECK-NEXT: [2. 4.]
// CHECK-NEXT: result 1: tensor<2xf32>
// CHECK-NEXT: [3. 6.]

// sum(w * x) with w read from v (its gradient with respect to x is w); v
// += x after the read.
func.func private @loss(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<f32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p = trace.print %w {message = "loss reads"} : tensor<2xf32>
  %c2 = trace.var.assign_add %v, %x : !trace.resource<tensor<2xf32>>
  %wx = trace.mul %w, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %s = trace.reduce_sum %wx {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// v = 4x = [2, 4]; the gradient op reads it (gradient [2, 4]) and adds x
// ([2.5, 5]); v += x again: [3, 6].
func.func @step(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %four = trace.constant dense<4.0> : tensor<2xf32>
  %y = trace.mul %x, %four : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c0 = trace.var.assign %v, %y : !trace.resource<tensor<2xf32>>
  %g = trace.grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %c1 = trace.var.assign_add %v, %x : !trace.resource<tensor<2xf32>>
  %r, %cr = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p = trace.print %r {message = "after"} : tensor<2xf32>
  return %g, %r : tensor<2xf32>, tensor<2xf32>
}
