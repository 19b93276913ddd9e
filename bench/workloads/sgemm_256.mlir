// bench/run: sgemm 256x256x256 f32 (peers: NumPy/OpenBLAS, PyTorch).
func.func @sgemm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %c = trace.matmul %a, %b : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
