// RUN: tracec-opt %s -canonicalize -split-input-file | FileCheck %s

// Folding of the elementwise ops: algebraic identities, constant folding of
// small constants (values checked), splats of any size, and what must not
// fold.

//===----------------------------------------------------------------------===//
// Identities
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @identities_float
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: trace.
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identities_float(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %zero = trace.constant dense<0.0> : tensor<2x3xf32>
  %one = trace.constant dense<1.0> : tensor<2x3xf32>
  %0 = trace.add %x, %zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = trace.add %zero, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = trace.sub %x, %zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = trace.mul %x, %one : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = trace.mul %one, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = trace.div %x, %one : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = trace.pow %x, %one : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Integer identities, with the identity given as a broadcast rank-0 scalar:
// the result type is still x's, so x is the result.
// CHECK-LABEL: func.func @identities_int_scalar
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xi64>)
// CHECK-NOT: trace.
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identities_int_scalar(%x: tensor<?x4xi64>) -> (tensor<?x4xi64>, tensor<?x4xi64>, tensor<?x4xi64>, tensor<?x4xi64>, tensor<?x4xi64>) {
  %zero = trace.constant dense<0> : tensor<i64>
  %one = trace.constant dense<1> : tensor<i64>
  %0 = trace.add %x, %zero : (tensor<?x4xi64>, tensor<i64>) -> tensor<?x4xi64>
  %1 = trace.sub %x, %zero : (tensor<?x4xi64>, tensor<i64>) -> tensor<?x4xi64>
  %2 = trace.mul %one, %x : (tensor<i64>, tensor<?x4xi64>) -> tensor<?x4xi64>
  %3 = trace.div %x, %one : (tensor<?x4xi64>, tensor<i64>) -> tensor<?x4xi64>
  %4 = trace.pow %x, %one : (tensor<?x4xi64>, tensor<i64>) -> tensor<?x4xi64>
  return %0, %1, %2, %3, %4 : tensor<?x4xi64>, tensor<?x4xi64>, tensor<?x4xi64>, tensor<?x4xi64>, tensor<?x4xi64>
}

// -----

// When broadcasting makes the result type differ from x's, x + 0 is not x.
// CHECK-LABEL: func.func @identity_broadcast_not_folded
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-DAG: %[[Z:.*]] = trace.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[O:.*]] = trace.constant dense<1.000000e+00> : tensor<1x3xf32>
// CHECK: %[[A:.*]] = trace.add %[[X]], %[[Z]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[B:.*]] = trace.add %[[Z]], %[[X]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[M:.*]] = trace.mul %[[X]], %[[O]] : (tensor<3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK: return %[[A]], %[[B]], %[[M]]
func.func @identity_broadcast_not_folded(%x: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>) {
  %zero = trace.constant dense<0.0> : tensor<2x3xf32>
  %0 = trace.add %x, %zero : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = trace.add %zero, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %one = trace.constant dense<1.0> : tensor<1x3xf32>
  %2 = trace.mul %x, %one : (tensor<3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>
}

// -----

// Identities hold on one side only: 0 - x, 1 / x and 1 ^ x are not x, and a
// non-splat or non-identity constant does not fold a non-constant x.
// CHECK-LABEL: func.func @not_identities
// CHECK: trace.sub %{{.*}}, %arg0
// CHECK: trace.div %{{.*}}, %arg0
// CHECK: trace.pow %{{.*}}, %arg0
// CHECK: trace.add %arg0, %{{.*}} : (tensor<2xf32>, tensor<2xf32>)
// CHECK: trace.mul %arg0, %{{.*}} : (tensor<2xf32>, tensor<2xf32>)
func.func @not_identities(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %zero = trace.constant dense<0.0> : tensor<2xf32>
  %one = trace.constant dense<1.0> : tensor<2xf32>
  %mixed = trace.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %two = trace.constant dense<2.0> : tensor<2xf32>
  %0 = trace.sub %zero, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = trace.div %one, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = trace.pow %one, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = trace.add %x, %mixed : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = trace.mul %x, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// neg(neg x) = x, relu(relu x) = relu x, max(x, x) = min(x, x) = x.
// CHECK-LABEL: func.func @involutions_and_idempotence
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NEXT: %[[R:.*]] = trace.relu %[[X]] : tensor<4xf32>
// CHECK-NEXT: return %[[X]], %[[I]], %[[R]], %[[X]], %[[I]]
func.func @involutions_and_idempotence(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %n = trace.neg %x : tensor<4xf32>
  %nn = trace.neg %n : tensor<4xf32>
  %m = trace.neg %i : tensor<4xi32>
  %mm = trace.neg %m : tensor<4xi32>
  %r = trace.relu %x : tensor<4xf32>
  %rr = trace.relu %r : tensor<4xf32>
  %max = trace.max %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %min = trace.min %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %nn, %mm, %rr, %max, %min : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// A single neg, and other unary ops on a non-constant, stay.
// CHECK-LABEL: func.func @unary_not_folded
// CHECK: trace.neg %arg0
// CHECK: trace.abs
// CHECK: trace.exp
// CHECK: trace.stop_gradient
func.func @unary_not_folded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = trace.neg %x : tensor<4xf32>
  %1 = trace.abs %0 : tensor<4xf32>
  %2 = trace.exp %1 : tensor<4xf32>
  %3 = trace.stop_gradient %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// select with a splat condition picks a side; with equal sides it is that
// side. It does not fold when the picked side would need broadcasting.
// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[A:[^:]*]]: tensor<4xf32>, %[[B:[^:]*]]: tensor<4xf32>, %[[C:[^:]*]]: tensor<4xi1>, %[[S:[^:]*]]: tensor<f32>)
// CHECK: %[[T:.*]] = trace.constant dense<true> : tensor<4xi1>
// CHECK: %[[K:.*]] = trace.select %[[T]], %[[S]], %[[A]] : (tensor<4xi1>, tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[A]], %[[B]], %[[A]], %[[K]], %[[B]]
func.func @select(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xi1>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %true = trace.constant dense<true> : tensor<4xi1>
  %false = trace.constant dense<false> : tensor<i1>
  %0 = trace.select %true, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = trace.select %false, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = trace.select %c, %a, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = trace.select %true, %s, %a : (tensor<4xi1>, tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = trace.select %false, %s, %b : (tensor<i1>, tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A splat condition over a larger shape than the values broadcasts them: no
// fold. A non-splat constant condition does not fold either.
// CHECK-LABEL: func.func @select_not_folded
// CHECK: trace.select %{{.*}}, %arg0, %arg1 : (tensor<2x4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK: trace.select %{{.*}}, %arg0, %arg1 : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @select_not_folded(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<4xf32>) {
  %true = trace.constant dense<true> : tensor<2x4xi1>
  %mixed = trace.constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = trace.select %true, %a, %b : (tensor<2x4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = trace.select %mixed, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<4xf32>
}

// -----

// cast to the same type is the operand; stop_gradient of a constant is the
// constant (a constant has no gradient); of anything else it stays.
// CHECK-LABEL: func.func @cast_same_and_stop_gradient
// CHECK-SAME: (%[[X:.*]]: tensor<?x2xi32>)
// CHECK: %[[C:.*]] = trace.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT: trace.cast
// CHECK-NOT: trace.stop_gradient
// CHECK: return %[[X]], %[[C]]
func.func @cast_same_and_stop_gradient(%x: tensor<?x2xi32>) -> (tensor<?x2xi32>, tensor<2xf32>) {
  %0 = trace.cast %x : tensor<?x2xi32> to tensor<?x2xi32>
  %c = trace.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = trace.stop_gradient %c : tensor<2xf32>
  return %0, %1 : tensor<?x2xi32>, tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Constant folding: unary
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @unary_float
// CHECK-DAG: %[[EXP:.*]] = trace.constant dense<[1.000000e+00, 2.71828175]> : tensor<2xf32>
// CHECK-DAG: %[[LOG:.*]] = trace.constant dense<[0.000000e+00, 0xFF800000]> : tensor<2xf32>
// CHECK-DAG: %[[LOG1P:.*]] = trace.constant dense<0.000000e+00> : tensor<f64>
// CHECK-DAG: %[[SQRT:.*]] = trace.constant dense<[2.000000e+00, 5.000000e-01]> : tensor<2xf16>
// CHECK-DAG: %[[RSQRT:.*]] = trace.constant dense<[5.000000e-01, 2.000000e+00]> : tensor<2xbf16>
// CHECK-DAG: %[[TANH:.*]] = trace.constant dense<[0.000000e+00, 1.000000e+00, -1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[GELU:.*]] = trace.constant dense<[0.000000e+00, 0.84134474606854293]> : tensor<2xf64>
// CHECK-DAG: %[[SIGMOID:.*]] = trace.constant dense<[5.000000e-01, 1.000000e+00, 2.06115369E-9]> : tensor<3xf32>
// CHECK-DAG: %[[SIN:.*]] = trace.constant dense<[0.000000e+00, -8.74227765E-8, -0.841470957, 0.909297406]> : tensor<4xf32>
// CHECK-DAG: %[[COS:.*]] = trace.constant dense<[1.000000e+00, 5.405270e-01]> : tensor<2xf16>
// CHECK-DAG: %[[FLOOR:.*]] = trace.constant dense<[-2.000000e+00, 2.000000e+00, -0.000000e+00, 3.000000e+00]> : tensor<4xf32>
// CHECK-NOT: trace.{{exp|log|log1p|sqrt|rsqrt|tanh|gelu|sigmoid|sin|cos|floor}}
// CHECK: return %[[EXP]], %[[LOG]], %[[LOG1P]], %[[SQRT]], %[[RSQRT]], %[[TANH]], %[[GELU]], %[[SIGMOID]], %[[SIN]], %[[COS]], %[[FLOOR]]
func.func @unary_float() -> (tensor<2xf32>, tensor<2xf32>, tensor<f64>, tensor<2xf16>, tensor<2xbf16>, tensor<3xf32>, tensor<2xf64>, tensor<3xf32>, tensor<4xf32>, tensor<2xf16>, tensor<4xf32>) {
  %e = trace.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %exp = trace.exp %e : tensor<2xf32>
  %l = trace.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %log = trace.log %l : tensor<2xf32>
  %lp = trace.constant dense<0.0> : tensor<f64>
  %log1p = trace.log1p %lp : tensor<f64>
  %s = trace.constant dense<[4.0, 0.25]> : tensor<2xf16>
  %sqrt = trace.sqrt %s : tensor<2xf16>
  %r = trace.constant dense<[4.0, 0.25]> : tensor<2xbf16>
  %rsqrt = trace.rsqrt %r : tensor<2xbf16>
  %t = trace.constant dense<[0.0, 20.0, -20.0]> : tensor<3xf32>
  %tanh = trace.tanh %t : tensor<3xf32>
  %g = trace.constant dense<[0.0, 1.0]> : tensor<2xf64>
  %gelu = trace.gelu %g : tensor<2xf64>
  %sigmoid = trace.sigmoid %t : tensor<3xf32>
  %sc = trace.constant dense<[0.0, 3.14159274, -1.0, 2.0]> : tensor<4xf32>
  %sin = trace.sin %sc : tensor<4xf32>
  %cs = trace.constant dense<[0.0, 1.0]> : tensor<2xf16>
  %cos = trace.cos %cs : tensor<2xf16>
  %f = trace.constant dense<[-1.5, 2.5, -0.0, 3.0]> : tensor<4xf32>
  %floor = trace.floor %f : tensor<4xf32>
  return %exp, %log, %log1p, %sqrt, %rsqrt, %tanh, %gelu, %sigmoid, %sin, %cos, %floor : tensor<2xf32>, tensor<2xf32>, tensor<f64>, tensor<2xf16>, tensor<2xbf16>, tensor<3xf32>, tensor<2xf64>, tensor<3xf32>, tensor<4xf32>, tensor<2xf16>, tensor<4xf32>
}
