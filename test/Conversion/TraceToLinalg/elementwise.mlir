// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// Broadcast operands are read through indexing maps: no copy is made.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast_row
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3xf32>) outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK-NOT: trace.
func.func @add_broadcast_row(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = trace.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Size-1 dims and scalars read index 0 / nothing.
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @size_one_and_scalar
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #{{.*}}, #{{.*}}]
// CHECK: arith.subi
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR]], #{{.*}}]
// CHECK: arith.divsi
func.func @size_one_and_scalar(%c: tensor<4x1xi32>, %x: tensor<4x5xi32>, %s: tensor<i32>) -> tensor<4x5xi32> {
  %0 = trace.sub %c, %x : (tensor<4x1xi32>, tensor<4x5xi32>) -> tensor<4x5xi32>
  %1 = trace.div %0, %s : (tensor<4x5xi32>, tensor<i32>) -> tensor<4x5xi32>
  return %1 : tensor<4x5xi32>
}

// -----

// CHECK-LABEL: func.func @unary_float
// CHECK: arith.negf
// CHECK: math.absf
// CHECK: math.exp
// CHECK: math.log
// log1p in Goldberg's form: x * log(1 + x) / ((1 + x) - 1), x when 1 + x == 1.
// CHECK: %[[U:.*]] = arith.addf %{{.*}}, %[[X:.*]] : f32
// CHECK: %[[D:.*]] = arith.subf %[[U]], %{{.*}} : f32
// CHECK: %[[LOG:.*]] = math.log %[[U]] : f32
// CHECK: %[[Q:.*]] = arith.divf %[[X]], %[[D]] : f32
// CHECK: arith.mulf %[[LOG]], %[[Q]] : f32
// CHECK-NOT: math.log1p
// CHECK: math.sqrt
// CHECK: math.rsqrt
// CHECK: math.tanh
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.floor
func.func @unary_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = trace.neg %x : tensor<4xf32>
  %1 = trace.abs %0 : tensor<4xf32>
  %2 = trace.exp %1 : tensor<4xf32>
  %3 = trace.log %2 : tensor<4xf32>
  %4 = trace.log1p %3 : tensor<4xf32>
  %5 = trace.sqrt %4 : tensor<4xf32>
  %6 = trace.rsqrt %5 : tensor<4xf32>
  %7 = trace.tanh %6 : tensor<4xf32>
  %8 = trace.sin %7 : tensor<4xf32>
  %9 = trace.cos %8 : tensor<4xf32>
  %10 = trace.floor %9 : tensor<4xf32>
  return %10 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @relu_gelu_sigmoid_sign
// relu is max(x, 0) with NaN propagating.
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.*}}, %[[ZERO]]
// gelu: x * 0.5 * (1 + erf(x / sqrt(2)))
// CHECK: arith.constant 0.7071067
// CHECK: math.erf
// sigmoid: 1 / (1 + exp(-x))
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.divf
// sign keeps zeros and NaN
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.select
func.func @relu_gelu_sigmoid_sign(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = trace.relu %x : tensor<4xf32>
  %1 = trace.gelu %0 : tensor<4xf32>
  %2 = trace.sigmoid %1 : tensor<4xf32>
  %3 = trace.sign %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @integer_ops
// CHECK: arith.maxsi
// CHECK: math.absi
// CHECK: math.ipowi
// CHECK: arith.minsi
func.func @integer_ops(%x: tensor<3xi64>, %y: tensor<3xi64>) -> tensor<3xi64> {
  %0 = trace.relu %x : tensor<3xi64>
  %1 = trace.abs %0 : tensor<3xi64>
  %2 = trace.pow %1, %y : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %3 = trace.min %2, %y : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %3 : tensor<3xi64>
}

// -----

// Float comparisons are ordered except `ne` (NaN != NaN).
// CHECK-LABEL: func.func @compare_select
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oge
// CHECK: arith.select
func.func @compare_select(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %0 = trace.eq %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = trace.ne %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = trace.lt %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = trace.le %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = trace.gt %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = trace.ge %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = trace.select %5, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %6 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @integer_compare
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sge
func.func @integer_compare(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = trace.lt %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = trace.ge %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.cmpf une
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.extui %{{.*}} : i1 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i32
func.func @casts(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = trace.cast %x : tensor<4xf32> to tensor<4xi32>
  %1 = trace.cast %0 : tensor<4xi32> to tensor<4xf64>
  %2 = trace.cast %1 : tensor<4xf64> to tensor<4xf16>
  %3 = trace.cast %2 : tensor<4xf16> to tensor<4xbf16>
  %4 = trace.cast %3 : tensor<4xbf16> to tensor<4xi1>
  %5 = trace.cast %4 : tensor<4xi1> to tensor<4xf32>
  %6 = trace.cast %4 : tensor<4xi1> to tensor<4xi64>
  %7 = trace.cast %6 : tensor<4xi64> to tensor<4xi32>
  return %5, %7 : tensor<4xf32>, tensor<4xi32>
}

// -----

// stop_gradient is the identity once lowered.
// CHECK-LABEL: func.func @stop_gradient
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @stop_gradient(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = trace.stop_gradient %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Booleans compare unsigned: false < true.
// CHECK-LABEL: func.func @bool_compare
// CHECK: arith.cmpi ult
// CHECK: arith.cmpi uge
func.func @bool_compare(%x: tensor<4xi1>, %y: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = trace.lt %x, %y : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = trace.ge %x, %y : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}
