// Half-precision matmuls accumulate in f32 and round once, as PyTorch's
// and XLA's CPU kernels do: a dot product of 512 bf16 ones is 512 (in bf16
// the running sum stalls at 256, where 257 is not representable), of 4096
// f16 ones 4096 (f16 stalls at 2048). Each form of the lowering: the named
// matmul, batch matmul, and a transposed operand's generic.
// RUN: tracec-run %s --entry brain --input s=1 | FileCheck %s --check-prefix=BRAIN
// RUN: tracec-run %s --entry half --input s=1 | FileCheck %s --check-prefix=HALF
// RUN: tracec-run %s --entry brain_batched --input s=1 | FileCheck %s --check-prefix=BATCHED
// RUN: tracec-run %s --entry brain_transposed --input s=1 | FileCheck %s --check-prefix=TRANSPOSED

// BRAIN:      result 0: tensor<1x1xf32>
// BRAIN-NEXT: {{\[}}[512.]]
func.func @brain(%s: tensor<f32>) -> tensor<1x1xf32> {
  %a = trace.broadcast_to %s : tensor<f32> -> tensor<1x512xf32>
  %b = trace.broadcast_to %s : tensor<f32> -> tensor<512x1xf32>
  %ha = trace.cast %a : tensor<1x512xf32> to tensor<1x512xbf16>
  %hb = trace.cast %b : tensor<512x1xf32> to tensor<512x1xbf16>
  %p = trace.matmul %ha, %hb : (tensor<1x512xbf16>, tensor<512x1xbf16>) -> tensor<1x1xbf16>
  %f = trace.cast %p : tensor<1x1xbf16> to tensor<1x1xf32>
  return %f : tensor<1x1xf32>
}

// HALF:      result 0: tensor<1x1xf32>
// HALF-NEXT: {{\[}}[4096.]]
func.func @half(%s: tensor<f32>) -> tensor<1x1xf32> {
  %a = trace.broadcast_to %s : tensor<f32> -> tensor<1x4096xf32>
  %b = trace.broadcast_to %s : tensor<f32> -> tensor<4096x1xf32>
  %ha = trace.cast %a : tensor<1x4096xf32> to tensor<1x4096xf16>
  %hb = trace.cast %b : tensor<4096x1xf32> to tensor<4096x1xf16>
  %p = trace.matmul %ha, %hb : (tensor<1x4096xf16>, tensor<4096x1xf16>) -> tensor<1x1xf16>
  %f = trace.cast %p : tensor<1x1xf16> to tensor<1x1xf32>
  return %f : tensor<1x1xf32>
}

// BATCHED:      result 0: tensor<2x1x1xf32>
// BATCHED-NEXT: {{\[}}{{\[}}[512.]]
// BATCHED:      {{\[}}[512.]]]
func.func @brain_batched(%s: tensor<f32>) -> tensor<2x1x1xf32> {
  %a = trace.broadcast_to %s : tensor<f32> -> tensor<2x1x512xf32>
  %b = trace.broadcast_to %s : tensor<f32> -> tensor<2x512x1xf32>
  %ha = trace.cast %a : tensor<2x1x512xf32> to tensor<2x1x512xbf16>
  %hb = trace.cast %b : tensor<2x512x1xf32> to tensor<2x512x1xbf16>
  %p = trace.matmul %ha, %hb : (tensor<2x1x512xbf16>, tensor<2x512x1xbf16>) -> tensor<2x1x1xbf16>
  %f = trace.cast %p : tensor<2x1x1xbf16> to tensor<2x1x1xf32>
  return %f : tensor<2x1x1xf32>
}

// TRANSPOSED:      result 0: tensor<1x1xf32>
// TRANSPOSED-NEXT: {{\[}}[512.]]
func.func @brain_transposed(%s: tensor<f32>) -> tensor<1x1xf32> {
  %a = trace.broadcast_to %s : tensor<f32> -> tensor<1x512xf32>
  %b = trace.broadcast_to %s : tensor<f32> -> tensor<1x512xf32>
  %ha = trace.cast %a : tensor<1x512xf32> to tensor<1x512xbf16>
  %hb = trace.cast %b : tensor<1x512xf32> to tensor<1x512xbf16>
  %p = trace.matmul %ha, %hb {transpose_b} : (tensor<1x512xbf16>, tensor<1x512xbf16>) -> tensor<1x1xbf16>
  %f = trace.cast %p : tensor<1x1xbf16> to tensor<1x1xf32>
  return %f : tensor<1x1xf32>
}

// A convolution's 3x3x64 = 576 products per output, likewise (static
// shapes: the direct convolution).
// RUN: tracec-run %s --entry brain_conv --input s=1 | FileCheck %s --check-prefix=CONV
// CONV:      result 0: tensor<4xf32>
// CONV-NEXT: [576. 576. 576. 576.]
func.func @brain_conv(%s: tensor<f32>) -> tensor<4xf32> {
  %x = trace.broadcast_to %s : tensor<f32> -> tensor<1x3x3x64xf32>
  %w = trace.broadcast_to %s : tensor<f32> -> tensor<3x3x64x4xf32>
  %hx = trace.cast %x : tensor<1x3x3x64xf32> to tensor<1x3x3x64xbf16>
  %hw = trace.cast %w : tensor<3x3x64x4xf32> to tensor<3x3x64x4xbf16>
  %y = trace.conv2d %hx, %hw : (tensor<1x3x3x64xbf16>, tensor<3x3x64x4xbf16>) -> tensor<1x1x1x4xbf16>
  %f = trace.cast %y : tensor<1x1x1x4xbf16> to tensor<1x1x1x4xf32>
  %r = trace.reshape %f : tensor<1x1x1x4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// The conv2d gradients likewise: the filter's sums over 3x10x10 = 300
// pixels, the input's over 3x3 taps of 64 channels = 576 at the centre.
// (Their loop-nest forms read through windows, which trace-cpu-fuse-rows
// leaves unfused: tiled by rows, the input's read an invalid slice.)
// RUN: tracec-run %s --entry brain_filter_grad --input s=1 | FileCheck %s --check-prefix=FILTER
// RUN: tracec-run %s --entry brain_input_grad --input s=1 | FileCheck %s --check-prefix=INPUT
// FILTER:      result 0: tensor<1x1x1x1xf32>
// FILTER-NEXT: {{\[}}{{\[}}{{\[}}[300.]]]]
func.func @brain_filter_grad(%s: tensor<f32>) -> tensor<1x1x1x1xf32> {
  %x = trace.broadcast_to %s : tensor<f32> -> tensor<3x10x10x1xf32>
  %hx = trace.cast %x : tensor<3x10x10x1xf32> to tensor<3x10x10x1xbf16>
  %g = trace.conv2d_backprop_filter %hx, %hx {filter_shape = array<i64: 1, 1, 1, 1>} : (tensor<3x10x10x1xbf16>, tensor<3x10x10x1xbf16>) -> tensor<1x1x1x1xbf16>
  %f = trace.cast %g : tensor<1x1x1x1xbf16> to tensor<1x1x1x1xf32>
  return %f : tensor<1x1x1x1xf32>
}

// INPUT:      result 0: tensor<3x3xf32>
// INPUT-NEXT: {{\[}}[256. 384. 256.]
// INPUT-NEXT:  [384. 576. 384.]
// INPUT-NEXT:  [256. 384. 256.]]
func.func @brain_input_grad(%s: tensor<f32>) -> tensor<3x3xf32> {
  %w = trace.broadcast_to %s : tensor<f32> -> tensor<3x3x1x64xf32>
  %dy = trace.broadcast_to %s : tensor<f32> -> tensor<1x3x3x64xf32>
  %hw = trace.cast %w : tensor<3x3x1x64xf32> to tensor<3x3x1x64xbf16>
  %hdy = trace.cast %dy : tensor<1x3x3x64xf32> to tensor<1x3x3x64xbf16>
  %g = trace.conv2d_backprop_input %hw, %hdy {input_shape = array<i64: 1, 3, 3, 1>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x1x64xbf16>, tensor<1x3x3x64xbf16>) -> tensor<1x3x3x1xbf16>
  %f = trace.cast %g : tensor<1x3x3x1xbf16> to tensor<1x3x3x1xf32>
  %r = trace.reshape %f : tensor<1x3x3x1xf32> -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
