// bench/run: layer norm over the last axis of a 4096x1024 f32 matrix with
// a scale and a shift (torch.nn.functional.layer_norm, eps 1e-5).
func.func @layernorm(%x: tensor<4096x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %mean = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<4096x1024xf32> -> tensor<4096x1xf32>
  %d = trace.sub %x, %mean : (tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32>
  %d2 = trace.mul %d, %d : (tensor<4096x1024xf32>, tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  %var = trace.reduce_mean %d2 {axes = array<i64: 1>, keepdims} : tensor<4096x1024xf32> -> tensor<4096x1xf32>
  %eps = trace.constant dense<1.0e-5> : tensor<f32>
  %ve = trace.add %var, %eps : (tensor<4096x1xf32>, tensor<f32>) -> tensor<4096x1xf32>
  %inv = trace.rsqrt %ve : tensor<4096x1xf32>
  %n = trace.mul %d, %inv : (tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32>
  %s = trace.mul %n, %gamma : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  %y = trace.add %s, %beta : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
