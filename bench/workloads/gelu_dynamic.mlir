// bench/run: the tanh-GELU of gelu.mlir over rows of 4096 f32 with a `?`
// number of rows (an activation of a dynamic batch). bench/run runs it at
// 4096 rows (16M floats) and times the same module with the rows fixed.
func.func @gelu(%x: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %c = trace.constant dense<0.044715> : tensor<f32>
  %k = trace.constant dense<0.7978845608028654> : tensor<f32>
  %one = trace.constant dense<1.0> : tensor<f32>
  %half = trace.constant dense<0.5> : tensor<f32>
  %x2 = trace.mul %x, %x : (tensor<?x4096xf32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %x3 = trace.mul %x2, %x : (tensor<?x4096xf32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %cx3 = trace.mul %c, %x3 : (tensor<f32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %inner = trace.add %x, %cx3 : (tensor<?x4096xf32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %arg = trace.mul %k, %inner : (tensor<f32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %t = trace.tanh %arg : tensor<?x4096xf32>
  %onep = trace.add %one, %t : (tensor<f32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %hx = trace.mul %half, %x : (tensor<f32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %y = trace.mul %hx, %onep : (tensor<?x4096xf32>, tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}
