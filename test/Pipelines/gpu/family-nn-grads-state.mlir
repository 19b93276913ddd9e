// The gradient ops of the neural-net family (conv2d_backprop_input/filter,
// max_pool2d_grad, avg_pool2d_grad) and the state ops (var.read,
// var.assign, var.assign_add, var.assign_sub, identity ... after) compile
// to PTX for sm_80 and sm_90, with nothing unresolved; variables are
// written back to the caller's buffers.
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefixes=CHECK,SM80
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefixes=CHECK,SM90
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s --check-prefix=HOST

// SM80: .target sm_80
// SM90: .target sm_90
// CHECK: .visible .entry nn_grads_kernel(
// The backprops multiply and accumulate; max_pool2d_grad finds the window's
// (NaN-aware) maximum and routes the cotangent to it; avg_pool2d_grad
// divides by the window size.
// CHECK: mul.rn.f32
// CHECK: add.rn.f32
// CHECK: setp.nan.f32
// CHECK: setp.gt.f32
// CHECK: selp.b64
// CHECK: div.rn.f32
// CHECK: .visible .entry state_kernel(
// assign_add stores the sum, assign_sub the difference.
// CHECK: add.rn.f32 [[ADD:%r[0-9]+]]
// CHECK: st.global.b32 [{{.*}}], [[ADD]];
// CHECK: sub.rn.f32 [[SUB:%r[0-9]+]]
// CHECK: st.global.b32 [{{.*}}], [[SUB]];

// Both variables: staged in, written back before returning.
// HOST-LABEL: llvm.func @state(
// HOST: gpu.launch_func
// HOST: "llvm.intr.memcpy"
// HOST: "llvm.intr.memcpy"
// HOST: llvm.return
func.func @nn_grads(%x: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>, %dy: tensor<1x6x6x16xf32>, %dp: tensor<1x4x4x3xf32>)
    -> (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>) {
  %dx = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<1x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  %df = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<1x8x8x3xf32>, tensor<1x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  %dmax = trace.max_pool2d_grad %x, %dp {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  %davg = trace.avg_pool2d_grad %dp {input_shape = array<i64: 1, 8, 8, 3>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xf32> -> tensor<1x8x8x3xf32>
  return %dx, %df, %dmax, %davg : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>
}
func.func @state(%v: !trace.resource<tensor<4xf32>>, %w: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %c1 = trace.var.assign_add %w, %x : !trace.resource<tensor<4xf32>>
  %r, %c2 = trace.var.read %v after(%c0) : !trace.resource<tensor<4xf32>>
  %c3 = trace.var.assign_sub %w, %r after(%c1) : !trace.resource<tensor<4xf32>>
  %y = trace.identity %r after(%c2, %c3) : tensor<4xf32>
  return %y : tensor<4xf32>
}
