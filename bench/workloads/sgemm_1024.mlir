// bench/run: sgemm 1024x1024x1024 f32 (peers: NumPy/OpenBLAS, PyTorch).
func.func @sgemm(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %c = trace.matmul %a, %b : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}
