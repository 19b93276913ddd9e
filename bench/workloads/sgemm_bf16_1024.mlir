// bench/run: bf16 sgemm 1024x1024x1024, products summed in f32 and rounded
// to bf16 (peer: PyTorch's bf16 matmul). The inputs are f32 .npy files,
// rounded to bf16 by tracec-run; the result is written as f32.
func.func @sgemm(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %c = trace.matmul %a, %b : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
  return %c : tensor<1024x1024xbf16>
}
