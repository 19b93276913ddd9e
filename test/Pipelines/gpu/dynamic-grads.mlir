// The gradients at `?` dims of concat (trace.split like its inputs), slice
// (pad like), pad (slice like), conv2d with respect to a `?`-batch input
// and avg_pool2d (the backprop ops like the input) compile to PTX through
// the GPU pipeline, once for every batch size, with nothing unresolved.
// Their numbers are checked on the CPU (unittests/Gradients/
// DynamicOpGradientTest.cpp, test/Execution/dynamic-autodiff.test).
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern

// CHECK: gpu.binary @dcat_kernel
// CHECK: .visible .entry dcat_kernel(
// CHECK: gpu.binary @dsl_kernel
// CHECK: gpu.binary @dpd_kernel
// CHECK: gpu.binary @dconv_kernel
// CHECK: gpu.binary @davg_kernel

func.func @cat(%a: tensor<?x4xf32>, %b: tensor<?x2xf32>) -> tensor<f32> {
  %c = trace.concat %a, %b {axis = 1} : (tensor<?x4xf32>, tensor<?x2xf32>) -> tensor<?x6xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1>} : tensor<?x6xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dcat(%a: tensor<?x4xf32>, %b: tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>) {
  %g:2 = trace.grad @cat(%a, %b) {wrt = array<i64: 0, 1>} : (tensor<?x4xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>)
  return %g#0, %g#1 : tensor<?x4xf32>, tensor<?x2xf32>
}
func.func @sl(%x: tensor<?x4xf32>) -> tensor<f32> {
  %c = trace.slice %x {start = array<i64: 0, 1>, limit = array<i64: 1, 3>} : tensor<?x4xf32> -> tensor<1x2xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1>} : tensor<1x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dsl(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %g = trace.grad @sl(%x) {wrt = array<i64: 0>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
func.func @pd(%x: tensor<?x4xf32>) -> tensor<f32> {
  %c = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 2, 1>} : tensor<?x4xf32> -> tensor<?x5xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1>} : tensor<?x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dpd(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %g = trace.grad @pd(%x) {wrt = array<i64: 0>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
func.func @conv(%x: tensor<?x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<f32> {
  %c = trace.conv2d %x, %w : (tensor<?x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<?x3x3x4xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1, 2, 3>} : tensor<?x3x3x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dconv(%x: tensor<?x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<?x5x5x2xf32> {
  %g = trace.grad @conv(%x, %w) {wrt = array<i64: 0>} : (tensor<?x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<?x5x5x2xf32>
  return %g : tensor<?x5x5x2xf32>
}
func.func @avg(%x: tensor<?x4x4x2xf32>) -> tensor<f32> {
  %c = trace.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x4x4x2xf32> -> tensor<?x2x2x2xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1, 2, 3>} : tensor<?x2x2x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @davg(%x: tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32> {
  %g = trace.grad @avg(%x) {wrt = array<i64: 0>} : (tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32>
  return %g : tensor<?x4x4x2xf32>
}
