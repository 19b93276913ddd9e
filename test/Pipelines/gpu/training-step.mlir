// A training step (value_and_grad of an MLP's softmax cross-entropy, then
// SGD on variables) compiles to forward and backward kernels: the forward
// matmul and the backward ones (dW = X^T dY) run on the GPU, and each
// variable is read into managed memory and written back in place.
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s --check-prefix=HOST

// CHECK: .target sm_{{80|90}}
// CHECK-COUNT-3: .visible .entry step_kernel
// CHECK: st.global.b32
// The log of the softmax's sum (log_softmax: one kernel, a block per row),
// then the SGD update w - lr * g stored.
// CHECK: and.b32 {{.*}}, -2139095041;
// CHECK-LABEL: // gpu.binary @step_kernel_8 (
// CHECK: mul.rn.f32 [[D:%r[0-9]+]]
// CHECK-NEXT: sub.rn.f32 [[W:%r[0-9]+]], {{%r[0-9]+}}, [[D]];
// CHECK: st.global.b32 [{{.*}}], [[W]];

// The caller's variable buffers are copied in and written back.
// HOST-LABEL: llvm.func @step(
// HOST-COUNT-2: "llvm.intr.memcpy"
// HOST: gpu.launch_func
// HOST: "llvm.intr.memcpy"
// HOST: llvm.return
func.func private @loss(%w: tensor<16x4xf32>, %x: tensor<8x16xf32>, %onehot: tensor<8x4xf32>) -> tensor<f32> {
  %logits = trace.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %logp = trace.log_softmax %logits : tensor<8x4xf32>
  %picked = trace.mul %logp, %onehot : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %total = trace.reduce_sum %picked {axes = array<i64: 0, 1>} : tensor<8x4xf32> -> tensor<f32>
  %n = trace.constant dense<-8.0> : tensor<f32>
  %mean = trace.div %total, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %mean : tensor<f32>
}
func.func @step(%wv: !trace.resource<tensor<16x4xf32>>, %x: tensor<8x16xf32>, %onehot: tensor<8x4xf32>) -> tensor<f32> {
  %w, %c0 = trace.var.read %wv : !trace.resource<tensor<16x4xf32>>
  %l, %g = trace.value_and_grad @loss(%w, %x, %onehot) {wrt = array<i64: 0>}
      : (tensor<16x4xf32>, tensor<8x16xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<16x4xf32>)
  %lr = trace.constant dense<0.1> : tensor<16x4xf32>
  %d = trace.mul %g, %lr : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  %c1 = trace.var.assign_sub %wv, %d after(%c0) : !trace.resource<tensor<16x4xf32>>
  %r = trace.identity %l after(%c1) : tensor<f32>
  return %r : tensor<f32>
}
