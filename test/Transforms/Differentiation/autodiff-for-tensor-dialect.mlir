// RUN: tracec-opt %s --trace-autodiff | FileCheck %s
//
// Regression test: the scf.for rule builds tensor.empty,
// tensor.insert_slice and tensor.extract_slice for the tape (and arith ops
// for the trip count), so trace-autodiff must load the tensor, arith and scf
// dialects itself. When it declared only trace and func, an input without
// any tensor op crashed tracec-opt (segfault in scf::ForOp::build on a null
// init value: tensor.empty could not be built); the CPU pipeline loaded the
// dialect earlier and hid it.

func.func @power(%x: tensor<3xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<3xf32>) {
    %next = trace.tanh %acc : tensor<3xf32>
    scf.yield %next : tensor<3xf32>
  }
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dpower(%x: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @power(%x) {wrt = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// CHECK-LABEL: func.func private @__forward_power(
// CHECK: tensor.empty({{.*}}) : tensor<?x3xf32>
// CHECK-LABEL: func.func private @__backward_power(
// CHECK: tensor.extract_slice
