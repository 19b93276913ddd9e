// RUN: tracec-opt %s --trace-auto-control-deps --trace-autodiff --trace-auto-control-deps | FileCheck %s

// The front of the pipelines (auto-control-deps, autodiff, auto-control-deps
// again): a gradient op over a function that reads and writes a variable,
// between two writes of it. After autodiff the forward function does the
// callee's reads and writes: it takes a token and returns one that stands
// for them, its call waits for the write before the gradient op, and the
// write and the print after it wait for the call. The backward function
// touches no state.

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
// CHECK-NEXT: %[[XW:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[W0]])
// CHECK-NEXT: %[[F:[a-z0-9_]+]]:3 = call @__forward_loss_wrt_1(%[[V]], %[[XW]], %[[W0]])
// CHECK:      call @__backward_loss_wrt_1
// CHECK-NEXT: %[[W1:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] after({{.*}}%[[F]]#2) :
// CHECK-NEXT: %[[P:[a-z0-9_]+]] = trace.print %[[Y]] after(%[[W1]])
// CHECK-NEXT: %[[G:[a-z0-9_]+]] = trace.identity %{{[a-z0-9_]+}} after(%[[P]])
// CHECK-NEXT: return %[[G]]
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = trace.var.assign %v, %y : !trace.resource<tensor<4xf32>>
  %g = trace.grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  %c1 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %p = trace.print %y : tensor<4xf32>
  return %g : tensor<4xf32>
}
