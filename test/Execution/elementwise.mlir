// Every elementwise op, run by tracec-run and compared with NumPy by
// Inputs/check_elementwise.py (float32 within 2 ulp-ish tolerance, integers
// and booleans exactly).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_elementwise.py %s %t | FileCheck %s

// CHECK-DAG: ok neg_f32
// CHECK-DAG: ok abs_f32
// CHECK-DAG: ok exp_f32
// CHECK-DAG: ok log_f32
// CHECK-DAG: ok log1p_f32
// CHECK-DAG: ok sqrt_f32
// CHECK-DAG: ok rsqrt_f32
// CHECK-DAG: ok tanh_f32
// CHECK-DAG: ok sigmoid_f32
// CHECK-DAG: ok relu_f32
// CHECK-DAG: ok gelu_f32
// CHECK-DAG: ok erf_f32
// CHECK-DAG: ok sin_f32
// CHECK-DAG: ok cos_f32
// CHECK-DAG: ok sign_f32
// CHECK-DAG: ok floor_f32
// CHECK-DAG: ok neg_i32
// CHECK-DAG: ok abs_i32
// CHECK-DAG: ok relu_i32
// CHECK-DAG: ok sign_i32
// CHECK-DAG: ok add_f32
// CHECK-DAG: ok add_i32
// CHECK-DAG: ok sub_f32
// CHECK-DAG: ok sub_i32
// CHECK-DAG: ok mul_f32
// CHECK-DAG: ok mul_i32
// CHECK-DAG: ok div_f32
// CHECK-DAG: ok div_i32
// CHECK-DAG: ok pow_f32
// CHECK-DAG: ok pow_i32
// CHECK-DAG: ok max_f32
// CHECK-DAG: ok max_i32
// CHECK-DAG: ok min_f32
// CHECK-DAG: ok min_i32
// CHECK-DAG: ok eq_f32
// CHECK-DAG: ok eq_i32
// CHECK-DAG: ok ne_f32
// CHECK-DAG: ok ne_i32
// CHECK-DAG: ok lt_f32
// CHECK-DAG: ok lt_i32
// CHECK-DAG: ok le_f32
// CHECK-DAG: ok le_i32
// CHECK-DAG: ok gt_f32
// CHECK-DAG: ok gt_i32
// CHECK-DAG: ok ge_f32
// CHECK-DAG: ok ge_i32
// CHECK-DAG: ok log1p_small_f32
// CHECK-DAG: ok select_f32
// CHECK-DAG: ok cast_f32_i32
// CHECK-DAG: ok cast_i32_f64
// CHECK-DAG: ok cast_i1_f32
// CHECK-DAG: ok cast_f32_i1
// CHECK-NOT: FAIL

func.func @neg_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.neg %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @abs_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.abs %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @exp_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.exp %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @log_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.log %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @log1p_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.log1p %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @sqrt_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.sqrt %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @rsqrt_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.rsqrt %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @tanh_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.tanh %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @sigmoid_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.sigmoid %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @relu_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.relu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @gelu_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.gelu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @erf_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.erf %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @sin_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.sin %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @cos_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.cos %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @sign_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.sign %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @floor_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.floor %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @neg_i32(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = trace.neg %x : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @abs_i32(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = trace.abs %x : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @relu_i32(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = trace.relu %x : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @sign_i32(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = trace.sign %x : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @add_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @sub_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.sub %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @mul_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.mul %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @div_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.div %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @pow_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.pow %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @max_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.max %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @min_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.min %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @eq_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = trace.eq %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @ne_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = trace.ne %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @lt_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = trace.lt %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @le_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = trace.le %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @gt_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = trace.gt %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @ge_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = trace.ge %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @add_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = trace.add %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @sub_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = trace.sub %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @mul_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = trace.mul %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @div_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = trace.div %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @pow_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = trace.pow %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @max_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = trace.max %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @min_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = trace.min %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @eq_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi1> {
  %0 = trace.eq %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @ne_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi1> {
  %0 = trace.ne %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @lt_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi1> {
  %0 = trace.lt %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @le_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi1> {
  %0 = trace.le %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @gt_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi1> {
  %0 = trace.gt %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @ge_i32(%x: tensor<2x3xi32>, %y: tensor<3xi32>) -> tensor<2x3xi1> {
  %0 = trace.ge %x, %y : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @select_f32(%c: tensor<2x3xi1>, %x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.select %c, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @cast_f32_i32(%x: tensor<2x3xf32>) -> tensor<2x3xi32> {
  %0 = trace.cast %x : tensor<2x3xf32> to tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
func.func @cast_i32_f64(%x: tensor<2x3xi32>) -> tensor<2x3xf64> {
  %0 = trace.cast %x : tensor<2x3xi32> to tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}
func.func @cast_i1_f32(%x: tensor<2x3xi1>) -> tensor<2x3xf32> {
  %0 = trace.cast %x : tensor<2x3xi1> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @cast_f32_i1(%x: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %0 = trace.cast %x : tensor<2x3xf32> to tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
func.func @log1p_small_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.log1p %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
