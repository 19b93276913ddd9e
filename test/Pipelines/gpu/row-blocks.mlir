// softmax, log_softmax and layer norm along the last axis are one kernel
// each, a block per row (trace-gpu-row-blocks): the row's max as a tree,
// exp(x - max), the sum as a tree, the division (log_softmax: the log of
// the sum subtracted), barriers between; layer norm's mean and variance
// (keepdims: size-1 dims folded first) the same way. Along the first axis
// the rows trail, so the ops keep their own kernels.
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: // gpu.binary @softmax_kernel (
// CHECK: .visible .entry softmax_kernel(
// CHECK: max.NaN.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// CHECK: st.global.b32
// CHECK: bar.sync 0;
// CHECK: add.rn.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: div.rn.f32 [[R:%r[0-9]+]]
// CHECK: st.global.b32 [{{.*}}], [[R]];
// CHECK-NOT: .entry
// CHECK-LABEL: // gpu.binary @log_softmax_kernel (
// CHECK: max.NaN.f32
// CHECK: add.rn.f32
// CHECK: and.b32 {{.*}}, -2139095041;
// CHECK: sub.rn.f32

// CHECK-LABEL: // gpu.binary @layer_norm_kernel (
// CHECK: add.rn.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: sub.rn.f32
// CHECK: mul.rn.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: sqrt.rn.f32
// CHECK: st.global.b32
// CHECK-NOT: .entry
// CHECK: // gpu.binary @softmax_first_kernel

// 64 blocks of 256 threads (rows of 1000); ? rows: as many blocks.
// HOST-LABEL: llvm.func @softmax(
// HOST-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// HOST-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @softmax_kernel::@softmax_kernel blocks in (%[[C64]], %{{.*}}, %{{.*}}) threads in (%[[C256]],
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @log_softmax(
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func {{.*}} @log_softmax_kernel::@log_softmax_kernel
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @layer_norm(
// HOST-NOT: gpu.launch_func
// HOST: gpu.launch_func {{.*}} @layer_norm_kernel::@layer_norm_kernel
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @softmax_first(
// HOST-COUNT-6: gpu.launch_func
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %0 = trace.softmax %x : tensor<64x1000xf32>
  return %0 : tensor<64x1000xf32>
}
func.func @log_softmax(%x: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %0 = trace.log_softmax %x : tensor<?x1000xf32>
  return %0 : tensor<?x1000xf32>
}
// tracec.nn.layer_norm(x, g, b) as the Python frontend traces it.
func.func @layer_norm(%x: tensor<64x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<64x768xf32> {
  %0 = trace.reduce_mean %x {axes = array<i64: -1>, keepdims} : tensor<64x768xf32> -> tensor<64x1xf32>
  %1 = trace.sub %x, %0 : (tensor<64x768xf32>, tensor<64x1xf32>) -> tensor<64x768xf32>
  %2 = trace.mul %1, %1 : (tensor<64x768xf32>, tensor<64x768xf32>) -> tensor<64x768xf32>
  %3 = trace.reduce_mean %2 {axes = array<i64: -1>, keepdims} : tensor<64x768xf32> -> tensor<64x1xf32>
  %5 = trace.constant dense<9.99999974E-6> : tensor<f32>
  %6 = trace.add %3, %5 : (tensor<64x1xf32>, tensor<f32>) -> tensor<64x1xf32>
  %7 = trace.rsqrt %6 : tensor<64x1xf32>
  %8 = trace.mul %1, %7 : (tensor<64x768xf32>, tensor<64x1xf32>) -> tensor<64x768xf32>
  %9 = trace.mul %8, %g : (tensor<64x768xf32>, tensor<768xf32>) -> tensor<64x768xf32>
  %10 = trace.add %9, %b : (tensor<64x768xf32>, tensor<768xf32>) -> tensor<64x768xf32>
  return %10 : tensor<64x768xf32>
}
func.func @softmax_first(%x: tensor<3x2x2xf32>) -> tensor<3x2x2xf32> {
  %0 = trace.softmax %x {axis = -3} : tensor<3x2x2xf32>
  return %0 : tensor<3x2x2xf32>
}
