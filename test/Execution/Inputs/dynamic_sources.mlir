// Sources shaped `like` a `?`-batch argument (dynamic-sources.test).

func.func @sources(%x: tensor<?x4xf32>, %v: tensor<f32>) -> (tensor<?x4xf32>, tensor<?x4xi32>, tensor<?x4xf32>) {
  %0 = trace.fill %v like %x : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %1 = trace.iota like %x {axis = 0} : tensor<?x4xf32> -> tensor<?x4xi32>
  %2 = trace.iota like %x {axis = 1} : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?x4xi32>, tensor<?x4xf32>
}

// Dropout: keep x where u > 0.5 (the mask, u and the normal draw returned too).
func.func @dropout(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf64>) {
  %u, %t = trace.random_uniform like %x {seed = 11, low = -1.0, high = 3.0} : tensor<?x4xf32> -> tensor<?x4xf32>
  %half = trace.constant dense<0.5> : tensor<f32>
  %keep = trace.gt %u, %half : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xi1>
  %mask = trace.cast %keep : tensor<?x4xi1> to tensor<?x4xf32>
  %y = trace.mul %x, %mask : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %n, %t2 = trace.random_normal like %x after(%t) {seed = 5} : tensor<?x4xf32> -> tensor<?x4xf64>
  return %y, %u, %n : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf64>
}

// The static ops of the same seeds at batch 3 and 7.
func.func @static3() -> (tensor<3x4xf32>, tensor<3x4xf64>) {
  %u, %t = trace.random_uniform {seed = 11, low = -1.0, high = 3.0} : tensor<3x4xf32>
  %n, %t2 = trace.random_normal after(%t) {seed = 5} : tensor<3x4xf64>
  return %u, %n : tensor<3x4xf32>, tensor<3x4xf64>
}
func.func @static7() -> (tensor<7x4xf32>, tensor<7x4xf64>) {
  %u, %t = trace.random_uniform {seed = 11, low = -1.0, high = 3.0} : tensor<7x4xf32>
  %n, %t2 = trace.random_normal after(%t) {seed = 5} : tensor<7x4xf64>
  return %u, %n : tensor<7x4xf32>, tensor<7x4xf64>
}

// d/dx and d/dv of sum(fill(v like x) * x): v everywhere, and sum(x).
func.func private @scaled(%x: tensor<?x4xf32>, %v: tensor<f32>) -> tensor<f32> {
  %f = trace.fill %v like %x : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %p = trace.mul %f, %x : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dscaled(%x: tensor<?x4xf32>, %v: tensor<f32>) -> (tensor<?x4xf32>, tensor<f32>) {
  %g:2 = trace.grad @scaled(%x, %v) {wrt = array<i64: 0, 1>} : (tensor<?x4xf32>, tensor<f32>) -> (tensor<?x4xf32>, tensor<f32>)
  return %g#0, %g#1 : tensor<?x4xf32>, tensor<f32>
}
