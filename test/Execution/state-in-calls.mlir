// Variables read and written in called functions, run through the whole CPU
// pipeline: the calls take and return control tokens (a public callee
// through a private copy), the gradient op's callee reads the variable, and
// the prints come out in program order.
// RUN: tracec-run %s --entry step --input v="[1, 2]" --input x="[0.5, 1]" | FileCheck %s

// CHECK:      before [1. 2.]
// CHECK-NEXT: bumped [1.5 3. ]
// CHECK-NEXT: bumped [3. 6.]
// CHECK-NEXT: result 0: tensor<f32>
// CHECK-NEXT: 3.75
// CHECK-NEXT: result 1: tensor<2xf32>
// CHECK-NEXT: [3. 6.]

// v += d, printing v after; public, so calls of it call a private copy.
func.func @bump(%v: !trace.resource<tensor<2xf32>>, %d: tensor<2xf32>) {
  %c = trace.var.assign_add %v, %d : !trace.resource<tensor<2xf32>>
  %r, %cr = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p = trace.print %r {message = "bumped"} : tensor<2xf32>
  return
}

func.func private @scaled(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %w, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p = trace.mul %w, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %p : tensor<2xf32>
}

// sum(v * x): its gradient with respect to x is the value of v.
func.func private @loss(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<f32> {
  %p = func.call @scaled(%v, %x) : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// v = [1, 2] -> [1.5, 3] (bump by x); loss = 1.5*0.5 + 3*1 = 3.75 and its
// gradient [1.5, 3]; v -> [3, 6] (bump by the gradient).
func.func @step(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) {
  %r, %cr = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p = trace.print %r {message = "before"} : tensor<2xf32>
  func.call @bump(%v, %x) : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> ()
  %l, %g = trace.value_and_grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>)
  func.call @bump(%v, %g) : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> ()
  %after, %ca = trace.var.read %v : !trace.resource<tensor<2xf32>>
  return %l, %after : tensor<f32>, tensor<2xf32>
}
