// bench/run: softmax over the last axis of a 4096x1024 f32 matrix.
func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %y = trace.softmax %x : tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
