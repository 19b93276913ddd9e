// Entries of vectorized-execution.test: odd sizes leave remainders in every
// vectorized loop (16 f32 lanes: 1000 = 62 * 16 + 8, 37 = 2 * 16 + 5).
func.func @gelu_tanh(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %c3 = trace.constant dense<3.0> : tensor<f32>
  %a = trace.constant dense<0.044715> : tensor<f32>
  %k = trace.constant dense<0.7978845608> : tensor<f32>
  %h = trace.constant dense<0.5> : tensor<f32>
  %one = trace.constant dense<1.0> : tensor<f32>
  %x3 = trace.pow %x, %c3 : (tensor<1000xf32>, tensor<f32>) -> tensor<1000xf32>
  %t0 = trace.mul %a, %x3 : (tensor<f32>, tensor<1000xf32>) -> tensor<1000xf32>
  %t1 = trace.add %x, %t0 : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  %t2 = trace.mul %k, %t1 : (tensor<f32>, tensor<1000xf32>) -> tensor<1000xf32>
  %t3 = trace.tanh %t2 : tensor<1000xf32>
  %t4 = trace.add %one, %t3 : (tensor<f32>, tensor<1000xf32>) -> tensor<1000xf32>
  %t5 = trace.mul %h, %x : (tensor<f32>, tensor<1000xf32>) -> tensor<1000xf32>
  %t6 = trace.mul %t5, %t4 : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  return %t6 : tensor<1000xf32>
}

// A broadcast chain over rows of 37, with exp, sigmoid, log1p, erf, gelu.
func.func @chain(%x: tensor<23x37xf32>, %b: tensor<37xf32>) -> tensor<23x37xf32> {
  %0 = trace.add %x, %b : (tensor<23x37xf32>, tensor<37xf32>) -> tensor<23x37xf32>
  %1 = trace.sigmoid %0 : tensor<23x37xf32>
  %2 = trace.exp %x : tensor<23x37xf32>
  %3 = trace.log1p %2 : tensor<23x37xf32>
  %4 = trace.erf %3 : tensor<23x37xf32>
  %5 = trace.gelu %0 : tensor<23x37xf32>
  %6 = trace.mul %1, %4 : (tensor<23x37xf32>, tensor<23x37xf32>) -> tensor<23x37xf32>
  %7 = trace.add %6, %5 : (tensor<23x37xf32>, tensor<23x37xf32>) -> tensor<23x37xf32>
  return %7 : tensor<23x37xf32>
}

func.func @row_sum(%x: tensor<23x37xf32>) -> tensor<23xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<23x37xf32> -> tensor<23xf32>
  return %0 : tensor<23xf32>
}

// Contractions without m or n dims: reductions, vectorized as such.
func.func @row_dot(%x: tensor<23x37xf32>, %y: tensor<23x37xf32>) -> tensor<23xf32> {
  %0 = trace.mul %x, %y : (tensor<23x37xf32>, tensor<23x37xf32>) -> tensor<23x37xf32>
  %1 = trace.reduce_sum %0 {axes = array<i64: 1>} : tensor<23x37xf32> -> tensor<23xf32>
  return %1 : tensor<23xf32>
}

func.func @matvec(%x: tensor<23x37xf32>, %b: tensor<37xf32>) -> tensor<23xf32> {
  %0 = trace.mul %x, %b : (tensor<23x37xf32>, tensor<37xf32>) -> tensor<23x37xf32>
  %1 = trace.reduce_sum %0 {axes = array<i64: 1>} : tensor<23x37xf32> -> tensor<23xf32>
  return %1 : tensor<23xf32>
}

func.func @column_max(%x: tensor<23x37xf32>) -> tensor<37xf32> {
  %0 = trace.reduce_max %x {axes = array<i64: 0>} : tensor<23x37xf32> -> tensor<37xf32>
  return %0 : tensor<37xf32>
}

func.func @total_mean(%x: tensor<23x37xf32>) -> tensor<f32> {
  %0 = trace.reduce_mean %x {axes = array<i64: 0, 1>} : tensor<23x37xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @f64_sum(%x: tensor<1001xf64>) -> tensor<f64> {
  %e = trace.exp %x : tensor<1001xf64>
  %0 = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<1001xf64> -> tensor<f64>
  return %0 : tensor<f64>
}

func.func @softmax(%x: tensor<23x37xf32>) -> tensor<23x37xf32> {
  %0 = trace.softmax %x : tensor<23x37xf32>
  return %0 : tensor<23x37xf32>
}

func.func @log_softmax(%x: tensor<23x37xf32>) -> tensor<23x37xf32> {
  %0 = trace.log_softmax %x : tensor<23x37xf32>
  return %0 : tensor<23x37xf32>
}

func.func @layer_norm(%x: tensor<23x37xf32>, %gamma: tensor<37xf32>,
                      %beta: tensor<37xf32>) -> tensor<23x37xf32> {
  %eps = trace.constant dense<1.0e-5> : tensor<f32>
  %mean = trace.reduce_mean %x {axes = array<i64: 1>, keepdims} : tensor<23x37xf32> -> tensor<23x1xf32>
  %d = trace.sub %x, %mean : (tensor<23x37xf32>, tensor<23x1xf32>) -> tensor<23x37xf32>
  %d2 = trace.mul %d, %d : (tensor<23x37xf32>, tensor<23x37xf32>) -> tensor<23x37xf32>
  %var = trace.reduce_mean %d2 {axes = array<i64: 1>, keepdims} : tensor<23x37xf32> -> tensor<23x1xf32>
  %ve = trace.add %var, %eps : (tensor<23x1xf32>, tensor<f32>) -> tensor<23x1xf32>
  %r = trace.rsqrt %ve : tensor<23x1xf32>
  %n = trace.mul %d, %r : (tensor<23x37xf32>, tensor<23x1xf32>) -> tensor<23x37xf32>
  %g = trace.mul %n, %gamma : (tensor<23x37xf32>, tensor<37xf32>) -> tensor<23x37xf32>
  %y = trace.add %g, %beta : (tensor<23x37xf32>, tensor<37xf32>) -> tensor<23x37xf32>
  return %y : tensor<23x37xf32>
}
