// RUN: tracec-opt %s --trace-auto-control-deps --trace-autodiff | FileCheck %s --check-prefix=AD
// RUN: tracec-opt %s --trace-auto-control-deps --trace-autodiff --inline --canonicalize --cse --trace-lower-state --canonicalize --cse | FileCheck %s

// A loop that touches state, in a function that is differentiated (not
// through the loop: the loop is not swept backwards). The loop-carried
// token carries no gradient: the forward function keeps the loop as it is,
// with no tape of tokens. Lowering drops the token, and the read after the
// loop stays after the loop's writes.

func.func private @loss(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %p = trace.print %x {message = "x"} : tensor<2xf32>
    %ca = trace.var.assign_add %v, %x : !trace.resource<tensor<2xf32>>
  }
  %r, %cr = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %m = trace.mul %r, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %s = trace.reduce_sum %m {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// AD-LABEL: func.func private @__forward_loss_wrt_1
// AD-NOT: tensor.empty
// AD: %[[L:[a-z0-9_]+]] = scf.for {{.*}} iter_args(%[[T:[a-z0-9_]+]] = %{{[a-z0-9_]+}}) -> (!trace.control) {
// AD-NEXT: %[[P:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[T]])
// AD-NEXT: %[[A:[a-z0-9_]+]] = trace.var.assign_add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} after(%[[P]])
// AD-NEXT: scf.yield %[[A]] : !trace.control
// AD: trace.var.read %{{[a-z0-9_]+}} after(%[[L]])
// AD-LABEL: func.func private @__backward_loss_wrt_1

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: memref<2xf32>, %[[X:[a-z0-9_]+]]: tensor<2xf32>)
// CHECK-NOT: !trace.control
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: call @tracec_print_tensor
// CHECK: bufferization.materialize_in_destination %{{[a-z0-9_]+}} in writable %[[V]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[S:[a-z0-9_]+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[V]], %[[S]]
// CHECK-NEXT: %[[R:[a-z0-9_]+]] = bufferization.to_tensor %[[S]] restrict writable
// CHECK-NEXT: return %[[R]]
func.func @step(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %g = trace.grad @loss(%v, %x) {wrt = array<i64: 1>} : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}
