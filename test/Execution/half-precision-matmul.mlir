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
