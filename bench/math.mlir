// Workloads of bench/math_peers.py: elementwise chains, softmax and layer
// norm, composed from trace ops the way a tracer records them.

// tanh-GELU, as PyTorch eager composes it:
// 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x**3))).
func.func @gelu_tanh(%x: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %c3 = trace.constant dense<3.0> : tensor<f32>
  %a = trace.constant dense<0.044715> : tensor<f32>
  %k = trace.constant dense<0.7978845608> : tensor<f32>
  %h = trace.constant dense<0.5> : tensor<f32>
  %one = trace.constant dense<1.0> : tensor<f32>
  %x3 = trace.pow %x, %c3 : (tensor<16777216xf32>, tensor<f32>) -> tensor<16777216xf32>
  %t0 = trace.mul %a, %x3 : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %t1 = trace.add %x, %t0 : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %t2 = trace.mul %k, %t1 : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %t3 = trace.tanh %t2 : tensor<16777216xf32>
  %t4 = trace.add %one, %t3 : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %t5 = trace.mul %h, %x : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %t6 = trace.mul %t5, %t4 : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  return %t6 : tensor<16777216xf32>
}

// A copy of the same bytes: x + 0 (the floor every elementwise pass pays).
func.func @copy(%x: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %z = trace.constant dense<0.0> : tensor<f32>
  %y = trace.add %x, %z : (tensor<16777216xf32>, tensor<f32>) -> tensor<16777216xf32>
  return %y : tensor<16777216xf32>
}

func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %y = trace.softmax %x : tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}

func.func @log_softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %y = trace.log_softmax %x : tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}

// Layer norm over the last axis (torch.nn.functional.layer_norm, eps 1e-5).
func.func @layer_norm(%x: tensor<4096x1024xf32>, %gamma: tensor<1024xf32>,
                      %beta: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %eps = trace.constant dense<1.0e-5> : tensor<f32>
  %mean = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<4096x1024xf32> -> tensor<4096x1xf32>
  %d = trace.sub %x, %mean : (tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32>
  %d2 = trace.mul %d, %d : (tensor<4096x1024xf32>, tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  %var = trace.reduce_mean %d2 {axes = array<i64: 1>, keepdims} : tensor<4096x1024xf32> -> tensor<4096x1xf32>
  %ve = trace.add %var, %eps : (tensor<4096x1xf32>, tensor<f32>) -> tensor<4096x1xf32>
  %r = trace.rsqrt %ve : tensor<4096x1xf32>
  %n = trace.mul %d, %r : (tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32>
  %g = trace.mul %n, %gamma : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  %y = trace.add %g, %beta : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
