// bench/run: conv2d 3x3, 64 -> 64 channels, 56x56, padding 1, batch 1
// (NHWC input, HWCF filter; the peer is torch.nn.functional.conv2d).
func.func @conv2d(%x: tensor<1x56x56x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %y = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32>
  return %y : tensor<1x56x56x64xf32>
}
