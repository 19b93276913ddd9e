// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @sum_negative_axis
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: linalg.reduce ins(%arg0 : tensor<2x3xf32>) outs(%[[ACC]] : tensor<2xf32>) dimensions = [1]
// CHECK: arith.addf
func.func @sum_negative_axis(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// mean = sum / count, keepdims re-inserts the reduced dims.
// CHECK-LABEL: func.func @mean_keepdims
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%arg0 : tensor<2x3x4xf32>) {{.*}} dimensions = [0, 2]
// CHECK: %[[COUNT:.*]] = arith.constant 8.000000e+00 : f32
// CHECK: %[[MEAN:.*]] = linalg.generic
// CHECK: arith.divf %{{.*}}, %[[COUNT]]
// CHECK: tensor.expand_shape %[[MEAN]] {{\[}}[0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
func.func @mean_keepdims(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %0 = trace.reduce_mean %x {axes = array<i64: 0, 2>, keepdims} : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// -----

// max starts from -inf (NaN propagates through maximumf), min from +inf.
// CHECK-LABEL: func.func @max_min_float
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maximumf
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.minimumf
func.func @max_min_float(%x: tensor<2x3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %0 = trace.reduce_max %x {axes = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<f32>
  %1 = trace.reduce_min %x {axes = array<i64: 0>} : tensor<2x3xf32> -> tensor<3xf32>
  return %0, %1 : tensor<f32>, tensor<3xf32>
}

// -----

// Integers start from the type's extremes.
// CHECK-LABEL: func.func @max_min_int
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK: arith.constant 2147483647 : i32
// CHECK: arith.minsi
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<i32> into tensor<1x1xi32>
func.func @max_min_int(%x: tensor<2x3xi32>) -> (tensor<2xi32>, tensor<1x1xi32>) {
  %0 = trace.reduce_max %x {axes = array<i64: 1>} : tensor<2x3xi32> -> tensor<2xi32>
  %1 = trace.reduce_min %x {axes = array<i64: 1, 0>, keepdims} : tensor<2x3xi32> -> tensor<1x1xi32>
  return %0, %1 : tensor<2xi32>, tensor<1x1xi32>
}

// -----

// A product starts from 1 and multiplies.
// CHECK-LABEL: func.func @prod
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: linalg.reduce ins(%arg0 : tensor<2x3xf32>) outs(%[[ACC]] : tensor<3xf32>) dimensions = [0]
// CHECK: arith.mulf
// CHECK: arith.constant 1 : i32
// CHECK: arith.muli
func.func @prod(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<3xf32>, tensor<2xi32>) {
  %0 = trace.reduce_prod %x {axes = array<i64: 0>} : tensor<2x3xf32> -> tensor<3xf32>
  %1 = trace.reduce_prod %i {axes = array<i64: -1>} : tensor<2x3xi32> -> tensor<2xi32>
  return %0, %1 : tensor<3xf32>, tensor<2xi32>
}

// -----

// logsumexp: m + log(sum(exp(x - m))), m the maximum (0 where infinite),
// lowered through the other reductions.
// CHECK-LABEL: func.func @logsumexp
// CHECK: linalg.reduce ins(%arg0 : tensor<2x3xf32>) {{.*}} dimensions = [1]
// CHECK: arith.maximumf
// CHECK: math.absf
// CHECK: arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK: arith.select
// CHECK: math.exp
// CHECK: linalg.reduce
// CHECK: arith.addf
// CHECK: math.log
// CHECK-NOT: trace.
func.func @logsumexp(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = trace.reduce_logsumexp %x {axes = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// An f32 sum over outer axes, in two links: blocks of at most 64 along the
// innermost reduced axis summed in f32 (reading the input in order), then
// the block sums summed in f64 and rounded once (as accurate as PyTorch's
// cascade sum; one f32 accumulator for all 524,288 rows was 90x worse).
// CHECK-LABEL: func.func @cascaded_outer_sum
// CHECK: %[[SPLIT:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1], [2, 3], [4]] output_shape [64, 32, 4, 64, 16] : tensor<64x32x256x16xf32> into tensor<64x32x4x64x16xf32>
// CHECK: %[[BLOCKS:.*]] = linalg.reduce ins(%[[SPLIT]] : tensor<64x32x4x64x16xf32>) outs(%{{.*}} : tensor<64x32x4x16xf32>) dimensions = [3]
// CHECK-NEXT: (%[[IN:.*]]: f32, %[[ACC:.*]]: f32) {
// CHECK-NEXT: arith.addf %[[IN]], %[[ACC]] : f32
// CHECK: %[[WIDE:.*]] = linalg.reduce ins(%[[BLOCKS]] : tensor<64x32x4x16xf32>) outs(%{{.*}} : tensor<16xf64>) dimensions = [0, 1, 2]
// CHECK-NEXT: (%[[IN:.*]]: f32, %[[ACC:.*]]: f64) {
// CHECK-NEXT: %[[EXT:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK-NEXT: arith.addf %[[EXT]], %[[ACC]] : f64
// CHECK: linalg.generic {{.*}} ins(%[[WIDE]] : tensor<16xf64>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @cascaded_outer_sum(%x: tensor<64x32x256x16xf32>) -> tensor<16xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 0, 1, 2>} : tensor<64x32x256x16xf32> -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// An innermost reduced axis with no divisor in [8, 64] (or a `?` one) is
// no block: one link, in f64. A kept axis between reduced ones stays.
// CHECK-LABEL: func.func @cascaded_prime_axis
// CHECK: linalg.reduce ins(%arg0 : tensor<?x3x1009x8xf32>) outs(%{{.*}} : tensor<3x8xf64>) dimensions = [0, 2]
// CHECK: arith.extf
// CHECK: arith.truncf
func.func @cascaded_prime_axis(%x: tensor<?x3x1009x8xf32>) -> tensor<3x8xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 0, 2>} : tensor<?x3x1009x8xf32> -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// Sums over the innermost axis, outer sums of 64 elements or fewer, f64
// sums and other reductions keep one linalg.reduce, in their own type.
// CHECK-LABEL: func.func @one_link
// CHECK-COUNT-4: linalg.reduce
// CHECK-NOT: linalg.reduce
// CHECK-NOT: arith.extf
func.func @one_link(%x: tensor<64x32x256x16xf32>, %y: tensor<8x8x16xf32>, %z: tensor<256x16xf64>) -> (tensor<64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf64>) {
  %0 = trace.reduce_sum %x {axes = array<i64: 1, 2, 3>} : tensor<64x32x256x16xf32> -> tensor<64xf32>
  %1 = trace.reduce_sum %y {axes = array<i64: 0, 1>} : tensor<8x8x16xf32> -> tensor<16xf32>
  %2 = trace.reduce_max %x {axes = array<i64: 0, 1, 2>} : tensor<64x32x256x16xf32> -> tensor<16xf32>
  %3 = trace.reduce_sum %z {axes = array<i64: 0>} : tensor<256x16xf64> -> tensor<16xf64>
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf64>
}
