// bench/run: tanh-GELU over 16M f32, composed as PyTorch's
// gelu(approximate='tanh'): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// Peers: the same expression in PyTorch eager, np.tanh alone, and copying
// the same bytes into a preallocated buffer.
func.func @gelu(%x: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %c = trace.constant dense<0.044715> : tensor<f32>
  %k = trace.constant dense<0.7978845608028654> : tensor<f32>
  %one = trace.constant dense<1.0> : tensor<f32>
  %half = trace.constant dense<0.5> : tensor<f32>
  %x2 = trace.mul %x, %x : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %x3 = trace.mul %x2, %x : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %cx3 = trace.mul %c, %x3 : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %inner = trace.add %x, %cx3 : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %arg = trace.mul %k, %inner : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %t = trace.tanh %arg : tensor<16777216xf32>
  %onep = trace.add %one, %t : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %hx = trace.mul %half, %x : (tensor<f32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  %y = trace.mul %hx, %onep : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  return %y : tensor<16777216xf32>
}
