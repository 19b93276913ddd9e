// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// Round trip of the elementwise ops: unary, binary with NumPy broadcasting,
// comparisons, select and cast, over every element type each accepts.

// neg, abs, relu and sign take floats and signed integers (not i1).
// CHECK-LABEL: func.func @unary_signed
// CHECK: trace.neg %arg0 : tensor<4xf16>
// CHECK: trace.neg %arg1 : tensor<2x3xbf16>
// CHECK: trace.neg %arg2 : tensor<f32>
// CHECK: trace.neg %arg3 : tensor<?x4xf64>
// CHECK: trace.neg %arg4 : tensor<4xi32>
// CHECK: trace.neg %arg5 : tensor<1x?xi64>
// CHECK: trace.abs %arg0 : tensor<4xf16>
// CHECK: trace.abs %arg1 : tensor<2x3xbf16>
// CHECK: trace.abs %arg2 : tensor<f32>
// CHECK: trace.abs %arg3 : tensor<?x4xf64>
// CHECK: trace.abs %arg4 : tensor<4xi32>
// CHECK: trace.abs %arg5 : tensor<1x?xi64>
// CHECK: trace.relu %arg0 : tensor<4xf16>
// CHECK: trace.relu %arg1 : tensor<2x3xbf16>
// CHECK: trace.relu %arg2 : tensor<f32>
// CHECK: trace.relu %arg3 : tensor<?x4xf64>
// CHECK: trace.relu %arg4 : tensor<4xi32>
// CHECK: trace.relu %arg5 : tensor<1x?xi64>
// CHECK: trace.sign %arg0 : tensor<4xf16>
// CHECK: trace.sign %arg1 : tensor<2x3xbf16>
// CHECK: trace.sign %arg2 : tensor<f32>
// CHECK: trace.sign %arg3 : tensor<?x4xf64>
// CHECK: trace.sign %arg4 : tensor<4xi32>
// CHECK: trace.sign %arg5 : tensor<1x?xi64>
func.func @unary_signed(%f16: tensor<4xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<?x4xf64>, %i32: tensor<4xi32>, %i64: tensor<1x?xi64>) {
  %neg_f16 = trace.neg %f16 : tensor<4xf16>
  %neg_bf16 = trace.neg %bf16 : tensor<2x3xbf16>
  %neg_f32 = trace.neg %f32 : tensor<f32>
  %neg_f64 = trace.neg %f64 : tensor<?x4xf64>
  %neg_i32 = trace.neg %i32 : tensor<4xi32>
  %neg_i64 = trace.neg %i64 : tensor<1x?xi64>
  %abs_f16 = trace.abs %f16 : tensor<4xf16>
  %abs_bf16 = trace.abs %bf16 : tensor<2x3xbf16>
  %abs_f32 = trace.abs %f32 : tensor<f32>
  %abs_f64 = trace.abs %f64 : tensor<?x4xf64>
  %abs_i32 = trace.abs %i32 : tensor<4xi32>
  %abs_i64 = trace.abs %i64 : tensor<1x?xi64>
  %relu_f16 = trace.relu %f16 : tensor<4xf16>
  %relu_bf16 = trace.relu %bf16 : tensor<2x3xbf16>
  %relu_f32 = trace.relu %f32 : tensor<f32>
  %relu_f64 = trace.relu %f64 : tensor<?x4xf64>
  %relu_i32 = trace.relu %i32 : tensor<4xi32>
  %relu_i64 = trace.relu %i64 : tensor<1x?xi64>
  %sign_f16 = trace.sign %f16 : tensor<4xf16>
  %sign_bf16 = trace.sign %bf16 : tensor<2x3xbf16>
  %sign_f32 = trace.sign %f32 : tensor<f32>
  %sign_f64 = trace.sign %f64 : tensor<?x4xf64>
  %sign_i32 = trace.sign %i32 : tensor<4xi32>
  %sign_i64 = trace.sign %i64 : tensor<1x?xi64>
  return
}

// The transcendental ops and floor take floats only.
// CHECK-LABEL: func.func @unary_float
// CHECK: trace.exp %arg0 : tensor<4xf16>
// CHECK: trace.exp %arg1 : tensor<2x3xbf16>
// CHECK: trace.exp %arg2 : tensor<f32>
// CHECK: trace.exp %arg3 : tensor<?x4xf64>
// CHECK: trace.log %arg0 : tensor<4xf16>
// CHECK: trace.log %arg1 : tensor<2x3xbf16>
// CHECK: trace.log %arg2 : tensor<f32>
// CHECK: trace.log %arg3 : tensor<?x4xf64>
// CHECK: trace.log1p %arg0 : tensor<4xf16>
// CHECK: trace.log1p %arg1 : tensor<2x3xbf16>
// CHECK: trace.log1p %arg2 : tensor<f32>
// CHECK: trace.log1p %arg3 : tensor<?x4xf64>
// CHECK: trace.sqrt %arg0 : tensor<4xf16>
// CHECK: trace.sqrt %arg1 : tensor<2x3xbf16>
// CHECK: trace.sqrt %arg2 : tensor<f32>
// CHECK: trace.sqrt %arg3 : tensor<?x4xf64>
// CHECK: trace.rsqrt %arg0 : tensor<4xf16>
// CHECK: trace.rsqrt %arg1 : tensor<2x3xbf16>
// CHECK: trace.rsqrt %arg2 : tensor<f32>
// CHECK: trace.rsqrt %arg3 : tensor<?x4xf64>
// CHECK: trace.tanh %arg0 : tensor<4xf16>
// CHECK: trace.tanh %arg1 : tensor<2x3xbf16>
// CHECK: trace.tanh %arg2 : tensor<f32>
// CHECK: trace.tanh %arg3 : tensor<?x4xf64>
// CHECK: trace.sigmoid %arg0 : tensor<4xf16>
// CHECK: trace.sigmoid %arg1 : tensor<2x3xbf16>
// CHECK: trace.sigmoid %arg2 : tensor<f32>
// CHECK: trace.sigmoid %arg3 : tensor<?x4xf64>
// CHECK: trace.gelu %arg0 : tensor<4xf16>
// CHECK: trace.gelu %arg1 : tensor<2x3xbf16>
// CHECK: trace.gelu %arg2 : tensor<f32>
// CHECK: trace.gelu %arg3 : tensor<?x4xf64>
// CHECK: trace.sin %arg0 : tensor<4xf16>
// CHECK: trace.sin %arg1 : tensor<2x3xbf16>
// CHECK: trace.sin %arg2 : tensor<f32>
// CHECK: trace.sin %arg3 : tensor<?x4xf64>
// CHECK: trace.cos %arg0 : tensor<4xf16>
// CHECK: trace.cos %arg1 : tensor<2x3xbf16>
// CHECK: trace.cos %arg2 : tensor<f32>
// CHECK: trace.cos %arg3 : tensor<?x4xf64>
// CHECK: trace.floor %arg0 : tensor<4xf16>
// CHECK: trace.floor %arg1 : tensor<2x3xbf16>
// CHECK: trace.floor %arg2 : tensor<f32>
// CHECK: trace.floor %arg3 : tensor<?x4xf64>
func.func @unary_float(%f16: tensor<4xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<?x4xf64>) {
  %exp_f16 = trace.exp %f16 : tensor<4xf16>
  %exp_bf16 = trace.exp %bf16 : tensor<2x3xbf16>
  %exp_f32 = trace.exp %f32 : tensor<f32>
  %exp_f64 = trace.exp %f64 : tensor<?x4xf64>
  %log_f16 = trace.log %f16 : tensor<4xf16>
  %log_bf16 = trace.log %bf16 : tensor<2x3xbf16>
  %log_f32 = trace.log %f32 : tensor<f32>
  %log_f64 = trace.log %f64 : tensor<?x4xf64>
  %log1p_f16 = trace.log1p %f16 : tensor<4xf16>
  %log1p_bf16 = trace.log1p %bf16 : tensor<2x3xbf16>
  %log1p_f32 = trace.log1p %f32 : tensor<f32>
  %log1p_f64 = trace.log1p %f64 : tensor<?x4xf64>
  %sqrt_f16 = trace.sqrt %f16 : tensor<4xf16>
  %sqrt_bf16 = trace.sqrt %bf16 : tensor<2x3xbf16>
  %sqrt_f32 = trace.sqrt %f32 : tensor<f32>
  %sqrt_f64 = trace.sqrt %f64 : tensor<?x4xf64>
  %rsqrt_f16 = trace.rsqrt %f16 : tensor<4xf16>
  %rsqrt_bf16 = trace.rsqrt %bf16 : tensor<2x3xbf16>
  %rsqrt_f32 = trace.rsqrt %f32 : tensor<f32>
  %rsqrt_f64 = trace.rsqrt %f64 : tensor<?x4xf64>
  %tanh_f16 = trace.tanh %f16 : tensor<4xf16>
  %tanh_bf16 = trace.tanh %bf16 : tensor<2x3xbf16>
  %tanh_f32 = trace.tanh %f32 : tensor<f32>
  %tanh_f64 = trace.tanh %f64 : tensor<?x4xf64>
  %sigmoid_f16 = trace.sigmoid %f16 : tensor<4xf16>
  %sigmoid_bf16 = trace.sigmoid %bf16 : tensor<2x3xbf16>
  %sigmoid_f32 = trace.sigmoid %f32 : tensor<f32>
  %sigmoid_f64 = trace.sigmoid %f64 : tensor<?x4xf64>
  %gelu_f16 = trace.gelu %f16 : tensor<4xf16>
  %gelu_bf16 = trace.gelu %bf16 : tensor<2x3xbf16>
  %gelu_f32 = trace.gelu %f32 : tensor<f32>
  %gelu_f64 = trace.gelu %f64 : tensor<?x4xf64>
  %sin_f16 = trace.sin %f16 : tensor<4xf16>
  %sin_bf16 = trace.sin %bf16 : tensor<2x3xbf16>
  %sin_f32 = trace.sin %f32 : tensor<f32>
  %sin_f64 = trace.sin %f64 : tensor<?x4xf64>
  %cos_f16 = trace.cos %f16 : tensor<4xf16>
  %cos_bf16 = trace.cos %bf16 : tensor<2x3xbf16>
  %cos_f32 = trace.cos %f32 : tensor<f32>
  %cos_f64 = trace.cos %f64 : tensor<?x4xf64>
  %floor_f16 = trace.floor %f16 : tensor<4xf16>
  %floor_bf16 = trace.floor %bf16 : tensor<2x3xbf16>
  %floor_f32 = trace.floor %f32 : tensor<f32>
  %floor_f64 = trace.floor %f64 : tensor<?x4xf64>
  return
}

// stop_gradient takes every element type, i1 included.
// CHECK-LABEL: func.func @stop_gradient_every_dtype
// CHECK: trace.stop_gradient %arg0 : tensor<4xf16>
// CHECK: trace.stop_gradient %arg1 : tensor<2x3xbf16>
// CHECK: trace.stop_gradient %arg2 : tensor<f32>
// CHECK: trace.stop_gradient %arg3 : tensor<?x4xf64>
// CHECK: trace.stop_gradient %arg4 : tensor<4xi32>
// CHECK: trace.stop_gradient %arg5 : tensor<1x?xi64>
// CHECK: trace.stop_gradient %arg6 : tensor<3xi1>
func.func @stop_gradient_every_dtype(%f16: tensor<4xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<?x4xf64>, %i32: tensor<4xi32>, %i64: tensor<1x?xi64>, %i1: tensor<3xi1>) {
  %stop_gradient_f16 = trace.stop_gradient %f16 : tensor<4xf16>
  %stop_gradient_bf16 = trace.stop_gradient %bf16 : tensor<2x3xbf16>
  %stop_gradient_f32 = trace.stop_gradient %f32 : tensor<f32>
  %stop_gradient_f64 = trace.stop_gradient %f64 : tensor<?x4xf64>
  %stop_gradient_i32 = trace.stop_gradient %i32 : tensor<4xi32>
  %stop_gradient_i64 = trace.stop_gradient %i64 : tensor<1x?xi64>
  %stop_gradient_i1 = trace.stop_gradient %i1 : tensor<3xi1>
  return
}

// The arithmetic ops take floats and signed integers; each line shows one
// broadcast pattern: a trailing row, size-1 dims on both sides, a rank-0
// scalar, a dynamic dim meeting a size-1 dim, differing ranks, and a dynamic
// dim meeting a static one.
// CHECK-LABEL: func.func @add_every_dtype
// CHECK: trace.add %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK: trace.add %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: trace.add %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: trace.add %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
// CHECK: trace.add %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: trace.add %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @add_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>) {
  %f16 = trace.add %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %bf16 = trace.add %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
  %f32 = trace.add %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %f64 = trace.add %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
  %i32 = trace.add %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
  %i64 = trace.add %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// CHECK-LABEL: func.func @sub_every_dtype
// CHECK: trace.sub %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK: trace.sub %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: trace.sub %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: trace.sub %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
// CHECK: trace.sub %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: trace.sub %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @sub_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>) {
  %f16 = trace.sub %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %bf16 = trace.sub %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
  %f32 = trace.sub %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %f64 = trace.sub %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
  %i32 = trace.sub %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
  %i64 = trace.sub %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// CHECK-LABEL: func.func @mul_every_dtype
// CHECK: trace.mul %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK: trace.mul %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: trace.mul %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: trace.mul %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
// CHECK: trace.mul %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: trace.mul %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @mul_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>) {
  %f16 = trace.mul %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %bf16 = trace.mul %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
  %f32 = trace.mul %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %f64 = trace.mul %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
  %i32 = trace.mul %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
  %i64 = trace.mul %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// CHECK-LABEL: func.func @div_every_dtype
// CHECK: trace.div %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK: trace.div %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: trace.div %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: trace.div %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
// CHECK: trace.div %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: trace.div %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @div_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>) {
  %f16 = trace.div %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %bf16 = trace.div %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
  %f32 = trace.div %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %f64 = trace.div %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
  %i32 = trace.div %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
  %i64 = trace.div %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// CHECK-LABEL: func.func @pow_every_dtype
// CHECK: trace.pow %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK: trace.pow %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: trace.pow %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: trace.pow %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
// CHECK: trace.pow %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: trace.pow %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @pow_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>) {
  %f16 = trace.pow %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %bf16 = trace.pow %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
  %f32 = trace.pow %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %f64 = trace.pow %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
  %i32 = trace.pow %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
  %i64 = trace.pow %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// CHECK-LABEL: func.func @max_every_dtype
// CHECK: trace.max %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK: trace.max %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: trace.max %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: trace.max %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
// CHECK: trace.max %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: trace.max %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @max_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>) {
  %f16 = trace.max %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %bf16 = trace.max %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
  %f32 = trace.max %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %f64 = trace.max %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
  %i32 = trace.max %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
  %i64 = trace.max %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// CHECK-LABEL: func.func @min_every_dtype
// CHECK: trace.min %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK: trace.min %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: trace.min %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: trace.min %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
// CHECK: trace.min %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: trace.min %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @min_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>) {
  %f16 = trace.min %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %bf16 = trace.min %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xbf16>
  %f32 = trace.min %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %f64 = trace.min %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xf64>
  %i32 = trace.min %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
  %i64 = trace.min %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// Comparisons take every element type, i1 included, and return i1.
// CHECK-LABEL: func.func @eq_every_dtype
// CHECK: trace.eq %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
// CHECK: trace.eq %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
// CHECK: trace.eq %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: trace.eq %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
// CHECK: trace.eq %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
// CHECK: trace.eq %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: trace.eq %arg12, %arg13 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
func.func @eq_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>, %l_i1: tensor<3xi1>, %r_i1: tensor<i1>) {
  %f16 = trace.eq %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
  %bf16 = trace.eq %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
  %f32 = trace.eq %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %f64 = trace.eq %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
  %i32 = trace.eq %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
  %i64 = trace.eq %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
  %i1 = trace.eq %l_i1, %r_i1 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
  return
}

// CHECK-LABEL: func.func @ne_every_dtype
// CHECK: trace.ne %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
// CHECK: trace.ne %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
// CHECK: trace.ne %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: trace.ne %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
// CHECK: trace.ne %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
// CHECK: trace.ne %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: trace.ne %arg12, %arg13 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
func.func @ne_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>, %l_i1: tensor<3xi1>, %r_i1: tensor<i1>) {
  %f16 = trace.ne %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
  %bf16 = trace.ne %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
  %f32 = trace.ne %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %f64 = trace.ne %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
  %i32 = trace.ne %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
  %i64 = trace.ne %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
  %i1 = trace.ne %l_i1, %r_i1 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
  return
}

// CHECK-LABEL: func.func @lt_every_dtype
// CHECK: trace.lt %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
// CHECK: trace.lt %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
// CHECK: trace.lt %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: trace.lt %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
// CHECK: trace.lt %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
// CHECK: trace.lt %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: trace.lt %arg12, %arg13 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
func.func @lt_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>, %l_i1: tensor<3xi1>, %r_i1: tensor<i1>) {
  %f16 = trace.lt %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
  %bf16 = trace.lt %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
  %f32 = trace.lt %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %f64 = trace.lt %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
  %i32 = trace.lt %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
  %i64 = trace.lt %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
  %i1 = trace.lt %l_i1, %r_i1 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
  return
}

// CHECK-LABEL: func.func @le_every_dtype
// CHECK: trace.le %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
// CHECK: trace.le %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
// CHECK: trace.le %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: trace.le %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
// CHECK: trace.le %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
// CHECK: trace.le %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: trace.le %arg12, %arg13 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
func.func @le_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>, %l_i1: tensor<3xi1>, %r_i1: tensor<i1>) {
  %f16 = trace.le %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
  %bf16 = trace.le %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
  %f32 = trace.le %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %f64 = trace.le %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
  %i32 = trace.le %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
  %i64 = trace.le %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
  %i1 = trace.le %l_i1, %r_i1 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
  return
}

// CHECK-LABEL: func.func @gt_every_dtype
// CHECK: trace.gt %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
// CHECK: trace.gt %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
// CHECK: trace.gt %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: trace.gt %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
// CHECK: trace.gt %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
// CHECK: trace.gt %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: trace.gt %arg12, %arg13 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
func.func @gt_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>, %l_i1: tensor<3xi1>, %r_i1: tensor<i1>) {
  %f16 = trace.gt %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
  %bf16 = trace.gt %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
  %f32 = trace.gt %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %f64 = trace.gt %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
  %i32 = trace.gt %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
  %i64 = trace.gt %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
  %i1 = trace.gt %l_i1, %r_i1 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
  return
}

// CHECK-LABEL: func.func @ge_every_dtype
// CHECK: trace.ge %arg0, %arg1 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
// CHECK: trace.ge %arg2, %arg3 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
// CHECK: trace.ge %arg4, %arg5 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: trace.ge %arg6, %arg7 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
// CHECK: trace.ge %arg8, %arg9 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
// CHECK: trace.ge %arg10, %arg11 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: trace.ge %arg12, %arg13 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
func.func @ge_every_dtype(%l_f16: tensor<2x3xf16>, %r_f16: tensor<3xf16>, %l_bf16: tensor<4x1xbf16>, %r_bf16: tensor<1x5xbf16>, %l_f32: tensor<f32>, %r_f32: tensor<2x3xf32>, %l_f64: tensor<?x3xf64>, %r_f64: tensor<1x3xf64>, %l_i32: tensor<2x1x3xi32>, %r_i32: tensor<4x1xi32>, %l_i64: tensor<?xi64>, %r_i64: tensor<4xi64>, %l_i1: tensor<3xi1>, %r_i1: tensor<i1>) {
  %f16 = trace.ge %l_f16, %r_f16 : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xi1>
  %bf16 = trace.ge %l_bf16, %r_bf16 : (tensor<4x1xbf16>, tensor<1x5xbf16>) -> tensor<4x5xi1>
  %f32 = trace.ge %l_f32, %r_f32 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %f64 = trace.ge %l_f64, %r_f64 : (tensor<?x3xf64>, tensor<1x3xf64>) -> tensor<?x3xi1>
  %i32 = trace.ge %l_i32, %r_i32 : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi1>
  %i64 = trace.ge %l_i64, %r_i64 : (tensor<?xi64>, tensor<4xi64>) -> tensor<4xi1>
  %i1 = trace.ge %l_i1, %r_i1 : (tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
  return
}

// More broadcast patterns: scalar with scalar, dynamic with dynamic, dynamic
// with size 1 on either side, size 1 with size 0, and a rank-0 operand on the
// left of a higher-rank one.
// CHECK-LABEL: func.func @broadcast_patterns
// CHECK: trace.add %arg0, %arg0 : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: trace.add %arg1, %arg1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: trace.mul %arg2, %arg3 : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
// CHECK: trace.sub %arg4, %arg1 : (tensor<1xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: trace.div %arg5, %arg4 : (tensor<0x3xf32>, tensor<1xf32>) -> tensor<0x3xf32>
// CHECK: trace.max %arg0, %arg6 : (tensor<f32>, tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
// CHECK: trace.lt %arg6, %arg2 : (tensor<2x?x4xf32>, tensor<?x1xf32>) -> tensor<2x?x4xi1>
func.func @broadcast_patterns(%s: tensor<f32>, %d: tensor<?xf32>,
                              %col: tensor<?x1xf32>, %row: tensor<1x?xf32>,
                              %one: tensor<1xf32>, %empty: tensor<0x3xf32>,
                              %x: tensor<2x?x4xf32>) {
  %0 = trace.add %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = trace.add %d, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = trace.mul %col, %row : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  %3 = trace.sub %one, %d : (tensor<1xf32>, tensor<?xf32>) -> tensor<?xf32>
  %4 = trace.div %empty, %one : (tensor<0x3xf32>, tensor<1xf32>) -> tensor<0x3xf32>
  %5 = trace.max %s, %x : (tensor<f32>, tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  %6 = trace.lt %x, %col : (tensor<2x?x4xf32>, tensor<?x1xf32>) -> tensor<2x?x4xi1>
  return
}

// The generic form prints back in the custom form.
// CHECK-LABEL: func.func @generic_form
// CHECK: trace.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: trace.exp %{{.*}} : tensor<2x3xf32>
func.func @generic_form(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "trace.add"(%x, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "trace.exp"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// select broadcasts its three operands together; the values take every
// element type, i1 included.
// CHECK-LABEL: func.func @select
// CHECK: trace.select %arg0, %arg1, %arg1 : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: trace.select %arg0, %arg1, %arg2 : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: trace.select %arg3, %arg4, %arg5 : (tensor<i1>, tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK: trace.select %arg6, %arg7, %arg7 : (tensor<?x1xi1>, tensor<1x?xf16>, tensor<1x?xf16>) -> tensor<?x?xf16>
// CHECK: trace.select %arg0, %arg3, %arg0 : (tensor<4xi1>, tensor<i1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK: trace.select %arg8, %arg9, %arg10 : (tensor<2x1x1xi1>, tensor<3x1xbf16>, tensor<4xbf16>) -> tensor<2x3x4xbf16>
// CHECK: trace.select %arg3, %arg11, %arg11 : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK: trace.select %arg0, %arg12, %arg12 : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
func.func @select(%c: tensor<4xi1>, %a: tensor<4xf32>, %s: tensor<f32>,
                  %cs: tensor<i1>, %col: tensor<2x1xi32>, %row: tensor<3xi32>,
                  %cd: tensor<?x1xi1>, %h: tensor<1x?xf16>,
                  %c3: tensor<2x1x1xi1>, %b1: tensor<3x1xbf16>, %b2: tensor<4xbf16>,
                  %i: tensor<i64>, %f: tensor<4xf64>) {
  %0 = trace.select %c, %a, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = trace.select %c, %a, %s : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = trace.select %cs, %col, %row : (tensor<i1>, tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %3 = trace.select %cd, %h, %h : (tensor<?x1xi1>, tensor<1x?xf16>, tensor<1x?xf16>) -> tensor<?x?xf16>
  %4 = trace.select %c, %cs, %c : (tensor<4xi1>, tensor<i1>, tensor<4xi1>) -> tensor<4xi1>
  %5 = trace.select %c3, %b1, %b2 : (tensor<2x1x1xi1>, tensor<3x1xbf16>, tensor<4xbf16>) -> tensor<2x3x4xbf16>
  %6 = trace.select %cs, %i, %i : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
  %7 = trace.select %c, %f, %f : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return
}

// cast converts between any two element types and keeps the shape, static,
// dynamic or rank 0.
// CHECK-LABEL: func.func @cast
// CHECK: trace.cast %arg0 : tensor<4xf32> to tensor<4xi32>
// CHECK: trace.cast %arg0 : tensor<4xf32> to tensor<4xi1>
// CHECK: trace.cast %arg0 : tensor<4xf32> to tensor<4xf16>
// CHECK: trace.cast %arg0 : tensor<4xf32> to tensor<4xf32>
// CHECK: trace.cast %arg1 : tensor<?x3xi1> to tensor<?x3xf64>
// CHECK: trace.cast %arg1 : tensor<?x3xi1> to tensor<?x3xi64>
// CHECK: trace.cast %arg2 : tensor<i64> to tensor<i32>
// CHECK: trace.cast %arg2 : tensor<i64> to tensor<bf16>
// CHECK: trace.cast %arg3 : tensor<2x2xf16> to tensor<2x2xbf16>
// CHECK: trace.cast %arg3 : tensor<2x2xf16> to tensor<2x2xi64>
func.func @cast(%f: tensor<4xf32>, %b: tensor<?x3xi1>, %i: tensor<i64>,
                %h: tensor<2x2xf16>) {
  %0 = trace.cast %f : tensor<4xf32> to tensor<4xi32>
  %1 = trace.cast %f : tensor<4xf32> to tensor<4xi1>
  %2 = trace.cast %f : tensor<4xf32> to tensor<4xf16>
  %3 = trace.cast %f : tensor<4xf32> to tensor<4xf32>
  %4 = trace.cast %b : tensor<?x3xi1> to tensor<?x3xf64>
  %5 = trace.cast %b : tensor<?x3xi1> to tensor<?x3xi64>
  %6 = trace.cast %i : tensor<i64> to tensor<i32>
  %7 = trace.cast %i : tensor<i64> to tensor<bf16>
  %8 = trace.cast %h : tensor<2x2xf16> to tensor<2x2xbf16>
  %9 = trace.cast %h : tensor<2x2xf16> to tensor<2x2xi64>
  return
}

// The inverse trigonometric and hyperbolic functions, and atan2.
// CHECK-LABEL: func.func @inverse_trigonometric
// CHECK: trace.asin %arg0 : tensor<4xf32>
// CHECK: trace.acos %arg0 : tensor<4xf32>
// CHECK: trace.atan %arg1 : tensor<?x2xf64>
// CHECK: trace.asinh %arg0 : tensor<4xf32>
// CHECK: trace.acosh %arg1 : tensor<?x2xf64>
// CHECK: trace.atanh %arg0 : tensor<4xf32>
// CHECK: trace.atan2 %arg0, %arg2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
func.func @inverse_trigonometric(%a: tensor<4xf32>, %b: tensor<?x2xf64>, %c: tensor<f32>) {
  %0 = trace.asin %a : tensor<4xf32>
  %1 = trace.acos %a : tensor<4xf32>
  %2 = trace.atan %b : tensor<?x2xf64>
  %3 = trace.asinh %a : tensor<4xf32>
  %4 = trace.acosh %b : tensor<?x2xf64>
  %5 = trace.atanh %a : tensor<4xf32>
  %6 = trace.atan2 %a, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}
