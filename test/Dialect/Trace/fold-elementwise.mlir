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
// The identity of float addition is -0.0 (see @add_plus_zero_not_identity).
func.func @identities_float(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %minus_zero = trace.constant dense<-0.0> : tensor<2x3xf32>
  %zero = trace.constant dense<0.0> : tensor<2x3xf32>
  %one = trace.constant dense<1.0> : tensor<2x3xf32>
  %0 = trace.add %x, %minus_zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = trace.add %minus_zero, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = trace.sub %x, %zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = trace.mul %x, %one : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = trace.mul %one, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = trace.div %x, %one : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = trace.pow %x, %one : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// +0.0 is not the identity of float addition: -0.0 + +0.0 = +0.0, so
// x + 0.0 and 0.0 + x are not x when x is -0.0. Nor is x - -0.0
// (-0.0 - -0.0 = +0.0). test/Execution/signed-zero.mlir runs them.
// CHECK-LABEL: func.func @add_plus_zero_not_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[H:.*]]: tensor<4xbf16>)
// CHECK: trace.add %[[X]], %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: trace.add %{{.*}}, %[[X]] : (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: trace.add %[[H]], %{{.*}} : (tensor<4xbf16>, tensor<bf16>)
// CHECK: trace.sub %[[X]], %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>)
func.func @add_plus_zero_not_identity(%x: tensor<2x3xf32>, %h: tensor<4xbf16>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xbf16>, tensor<2x3xf32>) {
  %zero = trace.constant dense<0.0> : tensor<2x3xf32>
  %zero_bf16 = trace.constant dense<0.0> : tensor<bf16>
  %minus_zero = trace.constant dense<-0.0> : tensor<2x3xf32>
  %0 = trace.add %x, %zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = trace.add %zero, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = trace.add %h, %zero_bf16 : (tensor<4xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %3 = trace.sub %x, %minus_zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xbf16>, tensor<2x3xf32>
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

// -----

// sign of a negative float is -1 (this used to fold to 2^64 - 1); zeros keep
// their sign and NaN propagates, in relu and sign alike.
// CHECK-LABEL: func.func @unary_signed
// CHECK-DAG: %[[NEG:.*]] = trace.constant dense<[-1.500000e+00, 2.500000e+00, -0.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[ABS:.*]] = trace.constant dense<[1.500000e+00, 2.500000e+00, 0.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[RELU:.*]] = trace.constant dense<[0.000000e+00, 2.000000e+00, 0.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: %[[SIGN:.*]] = trace.constant dense<[-1.000000e+00, 1.000000e+00, -0.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: %[[NEGI:.*]] = trace.constant dense<[3, -4]> : tensor<2xi32>
// CHECK-DAG: %[[ABSI:.*]] = trace.constant dense<[3, 4]> : tensor<2xi32>
// CHECK-DAG: %[[RELUI:.*]] = trace.constant dense<[0, 0, 8]> : tensor<3xi64>
// CHECK-DAG: %[[SIGNI:.*]] = trace.constant dense<[-1, 0, 1]> : tensor<3xi64>
// CHECK: return %[[NEG]], %[[ABS]], %[[RELU]], %[[SIGN]], %[[NEGI]], %[[ABSI]], %[[RELUI]], %[[SIGNI]]
func.func @unary_signed() -> (tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<3xi64>, tensor<3xi64>) {
  %f = trace.constant dense<[1.5, -2.5, 0.0]> : tensor<3xf32>
  %neg = trace.neg %f : tensor<3xf32>
  %abs = trace.abs %f : tensor<3xf32>
  %g = trace.constant dense<[-1.0, 2.0, -0.0, 0x7FC00000]> : tensor<4xf32>
  %relu = trace.relu %g : tensor<4xf32>
  %sign = trace.sign %g : tensor<4xf32>
  %i = trace.constant dense<[-3, 4]> : tensor<2xi32>
  %negi = trace.neg %i : tensor<2xi32>
  %absi = trace.abs %i : tensor<2xi32>
  %j = trace.constant dense<[-7, 0, 8]> : tensor<3xi64>
  %relui = trace.relu %j : tensor<3xi64>
  %signi = trace.sign %j : tensor<3xi64>
  return %neg, %abs, %relu, %sign, %negi, %absi, %relui, %signi : tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<3xi64>, tensor<3xi64>
}

// -----

// Float sign of the other dtypes (f16, bf16, f64), and of a splat.
// CHECK-LABEL: func.func @sign_other_floats
// CHECK-DAG: %[[H:.*]] = trace.constant dense<[-1.000000e+00, 1.000000e+00]> : tensor<2xf16>
// CHECK-DAG: %[[B:.*]] = trace.constant dense<-1.000000e+00> : tensor<8xbf16>
// CHECK-DAG: %[[D:.*]] = trace.constant dense<-1.000000e+00> : tensor<f64>
// CHECK: return %[[H]], %[[B]], %[[D]]
func.func @sign_other_floats() -> (tensor<2xf16>, tensor<8xbf16>, tensor<f64>) {
  %h = trace.constant dense<[-0.5, 7.0]> : tensor<2xf16>
  %b = trace.constant dense<-3.0> : tensor<8xbf16>
  %d = trace.constant dense<-1.0e-300> : tensor<f64>
  %0 = trace.sign %h : tensor<2xf16>
  %1 = trace.sign %b : tensor<8xbf16>
  %2 = trace.sign %d : tensor<f64>
  return %0, %1, %2 : tensor<2xf16>, tensor<8xbf16>, tensor<f64>
}

//===----------------------------------------------------------------------===//
// Constant folding: binary
//===----------------------------------------------------------------------===//

// -----

// Operands broadcast as in NumPy; float division by zero gives inf/NaN; max
// and min propagate NaN.
// CHECK-LABEL: func.func @binary_float
// CHECK-DAG: %[[ADD:.*]] = trace.constant dense<{{\[}}[1.100000e+01, 2.100000e+01, 3.100000e+01], [1.200000e+01, 2.200000e+01, 3.200000e+01]]> : tensor<2x3xf32>
// CHECK-DAG: %[[SUB:.*]] = trace.constant dense<[3.000000e+00, -5.000000e-01]> : tensor<2xf32>
// CHECK-DAG: %[[MUL:.*]] = trace.constant dense<[1.000000e+01, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[DIV:.*]] = trace.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<3xf32>
// CHECK-DAG: %[[POW:.*]] = trace.constant dense<[1.024000e+03, 3.000000e+00, 2.500000e-01]> : tensor<3xf64>
// CHECK-DAG: %[[MAX:.*]] = trace.constant dense<[0x7FC00000, 0x7FC00000, 2.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[MIN:.*]] = trace.constant dense<[0x7FC00000, 0x7FC00000, -3.000000e+00]> : tensor<3xf32>
// CHECK-NOT: trace.{{add|sub|mul|div|pow|max|min}}
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[POW]], %[[MAX]], %[[MIN]]
func.func @binary_float() -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<3xf64>, tensor<3xf32>, tensor<3xf32>) {
  %col = trace.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %row = trace.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %add = trace.add %col, %row : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %a = trace.constant dense<[5.0, 1.5]> : tensor<2xf32>
  %b = trace.constant dense<2.0> : tensor<f32>
  %sub = trace.sub %a, %b : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %mul = trace.mul %b, %a : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
  %n = trace.constant dense<[1.0, -1.0, 0.0]> : tensor<3xf32>
  %z = trace.constant dense<0.0> : tensor<3xf32>
  %div = trace.div %n, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %pa = trace.constant dense<[2.0, 9.0, 4.0]> : tensor<3xf64>
  %pb = trace.constant dense<[10.0, 0.5, -1.0]> : tensor<3xf64>
  %pow = trace.pow %pa, %pb : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %ma = trace.constant dense<[0x7FC00000, 1.0, -3.0]> : tensor<3xf32>
  %mb = trace.constant dense<[1.0, 0x7FC00000, 2.0]> : tensor<3xf32>
  %max = trace.max %ma, %mb : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %min = trace.min %ma, %mb : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %add, %sub, %mul, %div, %pow, %max, %min : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<3xf64>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Integers wrap (two's complement); division truncates toward zero, so
// 7 / 2 = 3 and -7 / 2 = -3.
// CHECK-LABEL: func.func @binary_int
// CHECK-DAG: %[[ADD:.*]] = trace.constant dense<[9, -5, -2147483648, -5]> : tensor<4xi32>
// CHECK-DAG: %[[SUB:.*]] = trace.constant dense<[5, -9, 2147483646, 5]> : tensor<4xi32>
// CHECK-DAG: %[[MUL:.*]] = trace.constant dense<[14, -14, 2147483647, 0]> : tensor<4xi32>
// CHECK-DAG: %[[DIV:.*]] = trace.constant dense<[3, -3, 2147483647, 0]> : tensor<4xi32>
// CHECK-DAG: %[[POW:.*]] = trace.constant dense<[81, -8, 1, 4611686018427387904]> : tensor<4xi64>
// CHECK-DAG: %[[MAX:.*]] = trace.constant dense<[7, 2, 2147483647, 0]> : tensor<4xi32>
// CHECK-DAG: %[[MIN:.*]] = trace.constant dense<[2, -7, 1, -5]> : tensor<4xi32>
// CHECK-NOT: trace.{{add|sub|mul|div|pow|max|min}}
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[POW]], %[[MAX]], %[[MIN]]
func.func @binary_int() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi32>, tensor<4xi32>) {
  %a = trace.constant dense<[7, -7, 2147483647, 0]> : tensor<4xi32>
  %b = trace.constant dense<[2, 2, 1, -5]> : tensor<4xi32>
  %add = trace.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %sub = trace.sub %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %mul = trace.mul %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %div = trace.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %pa = trace.constant dense<[3, -2, 5, 2]> : tensor<4xi64>
  %pb = trace.constant dense<[4, 3, 0, 62]> : tensor<4xi64>
  %pow = trace.pow %pa, %pb : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %max = trace.max %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %min = trace.min %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %add, %sub, %mul, %div, %pow, %max, %min : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Integer division is defined everywhere, as at run time: x / 0 is 0 and
// INT_MIN / -1 wraps to INT_MIN (NumPy's results). Left to run time: an
// integer power with a negative exponent.
// CHECK-LABEL: func.func @binary_int_edges
// CHECK-DAG: %[[BYZERO:.*]] = trace.constant dense<[4, 0]> : tensor<2xi32>
// CHECK-DAG: %[[WRAPS:.*]] = trace.constant dense<[-2147483648, -6]> : tensor<2xi32>
// CHECK-DAG: %[[SCALAR:.*]] = trace.constant dense<0> : tensor<i64>
// CHECK-NOT: trace.div
// CHECK: %[[POW:.*]] = trace.pow %{{.*}}, %{{.*}} : (tensor<i32>, tensor<2xi32>) -> tensor<2xi32>
// CHECK: return %[[BYZERO]], %[[WRAPS]], %[[SCALAR]], %[[POW]]
func.func @binary_int_edges() -> (tensor<2xi32>, tensor<2xi32>, tensor<i64>, tensor<2xi32>) {
  %a = trace.constant dense<[4, 5]> : tensor<2xi32>
  %z = trace.constant dense<[1, 0]> : tensor<2xi32>
  %0 = trace.div %a, %z : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %min = trace.constant dense<[-2147483648, 6]> : tensor<2xi32>
  %m1 = trace.constant dense<-1> : tensor<i32>
  %1 = trace.div %min, %m1 : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  %s = trace.constant dense<9> : tensor<i64>
  %zs = trace.constant dense<0> : tensor<i64>
  %2 = trace.div %s, %zs : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %two = trace.constant dense<2> : tensor<i32>
  %e = trace.constant dense<[3, -1]> : tensor<2xi32>
  %3 = trace.pow %two, %e : (tensor<i32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<2xi32>, tensor<2xi32>, tensor<i64>, tensor<2xi32>
}

//===----------------------------------------------------------------------===//
// Constant folding: comparisons
//===----------------------------------------------------------------------===//

// -----

// [1, 2, 3, NaN] against a broadcast scalar 2: every comparison with NaN is
// false except `ne`.
// CHECK-LABEL: func.func @compare
// CHECK-DAG: %[[EQ:.*]] = trace.constant dense<[false, true, false, false]> : tensor<4xi1>
// CHECK-DAG: %[[NE:.*]] = trace.constant dense<[true, false, true, true]> : tensor<4xi1>
// CHECK-DAG: %[[LT:.*]] = trace.constant dense<[true, false, false, false]> : tensor<4xi1>
// CHECK-DAG: %[[LE:.*]] = trace.constant dense<[true, true, false, false]> : tensor<4xi1>
// CHECK-DAG: %[[GT:.*]] = trace.constant dense<[false, false, true, false]> : tensor<4xi1>
// CHECK-DAG: %[[GE:.*]] = trace.constant dense<[false, true, true, false]> : tensor<4xi1>
// CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]]
func.func @compare() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = trace.constant dense<[1.0, 2.0, 3.0, 0x7FC00000]> : tensor<4xf32>
  %b = trace.constant dense<2.0> : tensor<f32>
  %eq = trace.eq %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %ne = trace.ne %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %lt = trace.lt %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %le = trace.le %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %gt = trace.gt %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %ge = trace.ge %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Integers compare signed; booleans order false < true (rows [false, true]
// against columns [false, true]).
// CHECK-LABEL: func.func @compare_int_bool
// CHECK-DAG: %[[LT:.*]] = trace.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG: %[[GE:.*]] = trace.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: %[[BLT:.*]] = trace.constant dense<{{\[}}[false, true], [false, false]]> : tensor<2x2xi1>
// CHECK-DAG: %[[BGE:.*]] = trace.constant dense<{{\[}}[true, false], [true, true]]> : tensor<2x2xi1>
// CHECK-DAG: %[[BEQ:.*]] = trace.constant dense<{{\[}}[true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-DAG: %[[BGT:.*]] = trace.constant dense<{{\[}}[false, false], [true, false]]> : tensor<2x2xi1>
// CHECK: return %[[LT]], %[[GE]], %[[BLT]], %[[BGE]], %[[BEQ]], %[[BGT]]
func.func @compare_int_bool() -> (tensor<3xi1>, tensor<3xi1>, tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xi1>) {
  %a = trace.constant dense<[-1, 0, 1]> : tensor<3xi64>
  %z = trace.constant dense<0> : tensor<i64>
  %lt = trace.lt %a, %z : (tensor<3xi64>, tensor<i64>) -> tensor<3xi1>
  %ge = trace.ge %a, %z : (tensor<3xi64>, tensor<i64>) -> tensor<3xi1>
  %p = trace.constant dense<[[false], [true]]> : tensor<2x1xi1>
  %q = trace.constant dense<[false, true]> : tensor<2xi1>
  %blt = trace.lt %p, %q : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  %bge = trace.ge %p, %q : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  %beq = trace.eq %p, %q : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  %bgt = trace.gt %p, %q : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  return %lt, %ge, %blt, %bge, %beq, %bgt : tensor<3xi1>, tensor<3xi1>, tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xi1>
}

// -----

// Comparisons of splats give a splat, whatever the size.
// CHECK-LABEL: func.func @compare_splat
// CHECK: %[[C:.*]] = trace.constant dense<true> : tensor<512x512xi1>
// CHECK: return %[[C]]
func.func @compare_splat() -> tensor<512x512xi1> {
  %a = trace.constant dense<1.0> : tensor<512x512xf16>
  %b = trace.constant dense<2.0> : tensor<f16>
  %0 = trace.le %a, %b : (tensor<512x512xf16>, tensor<f16>) -> tensor<512x512xi1>
  return %0 : tensor<512x512xi1>
}

//===----------------------------------------------------------------------===//
// Constant folding: cast
//===----------------------------------------------------------------------===//

// -----

// float -> int truncates toward zero; -> bool tests for non-zero; bool -> x
// gives 0/1; int -> narrower int wraps; out-of-range float -> float rounds
// to inf.
// CHECK-LABEL: func.func @cast
// CHECK-DAG: %[[FI:.*]] = trace.constant dense<[1, -2, 0, 0]> : tensor<4xi32>
// CHECK-DAG: %[[FB:.*]] = trace.constant dense<[true, true, false, true]> : tensor<4xi1>
// CHECK-DAG: %[[BF:.*]] = trace.constant dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[LI:.*]] = trace.constant dense<[705032704, -1, -2147483648]> : tensor<3xi32>
// CHECK-DAG: %[[DH:.*]] = trace.constant dense<[1.000000e+00, 3.140630e+00, 0x7F80]> : tensor<3xbf16>
// CHECK-DAG: %[[IH:.*]] = trace.constant dense<[3.000000e+00, 0x7C00]> : tensor<2xf16>
// CHECK-DAG: %[[BI:.*]] = trace.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-DAG: %[[NB:.*]] = trace.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-NOT: trace.cast
// CHECK: return %[[FI]], %[[FB]], %[[BF]], %[[LI]], %[[DH]], %[[IH]], %[[BI]], %[[NB]]
func.func @cast() -> (tensor<4xi32>, tensor<4xi1>, tensor<2xf32>, tensor<3xi32>, tensor<3xbf16>, tensor<2xf16>, tensor<2xi64>, tensor<3xi1>) {
  %f = trace.constant dense<[1.9, -2.9, 0.0, -0.5]> : tensor<4xf32>
  %fi = trace.cast %f : tensor<4xf32> to tensor<4xi32>
  %fb = trace.cast %f : tensor<4xf32> to tensor<4xi1>
  %b = trace.constant dense<[true, false]> : tensor<2xi1>
  %bf = trace.cast %b : tensor<2xi1> to tensor<2xf32>
  %l = trace.constant dense<[5000000000, -1, 2147483648]> : tensor<3xi64>
  %li = trace.cast %l : tensor<3xi64> to tensor<3xi32>
  %d = trace.constant dense<[1.0, 3.14159265, 1.0e39]> : tensor<3xf64>
  %dh = trace.cast %d : tensor<3xf64> to tensor<3xbf16>
  %i = trace.constant dense<[3, 70000]> : tensor<2xi32>
  %ih = trace.cast %i : tensor<2xi32> to tensor<2xf16>
  %bi = trace.cast %b : tensor<2xi1> to tensor<2xi64>
  %n = trace.constant dense<[0, -4, 2]> : tensor<3xi32>
  %nb = trace.cast %n : tensor<3xi32> to tensor<3xi1>
  return %fi, %fb, %bf, %li, %dh, %ih, %bi, %nb : tensor<4xi32>, tensor<4xi1>, tensor<2xf32>, tensor<3xi32>, tensor<3xbf16>, tensor<2xf16>, tensor<2xi64>, tensor<3xi1>
}

// -----

// float -> int of NaN or of a value out of range is undefined at run time:
// not folded.
// CHECK-LABEL: func.func @cast_not_folded
// CHECK: trace.cast %{{.*}} : tensor<2xf32> to tensor<2xi32>
// CHECK: trace.cast %{{.*}} : tensor<f64> to tensor<i64>
func.func @cast_not_folded() -> (tensor<2xi32>, tensor<i64>) {
  %a = trace.constant dense<[1.0, 3.0e9]> : tensor<2xf32>
  %0 = trace.cast %a : tensor<2xf32> to tensor<2xi32>
  %n = trace.constant dense<0x7FF8000000000000> : tensor<f64>
  %1 = trace.cast %n : tensor<f64> to tensor<i64>
  return %0, %1 : tensor<2xi32>, tensor<i64>
}

//===----------------------------------------------------------------------===//
// Size limits
//===----------------------------------------------------------------------===//

// -----

// Splats fold whatever their size: the result is one splat value.
// CHECK-LABEL: func.func @splat_large
// CHECK-DAG: %[[ADD:.*]] = trace.constant dense<3.000000e+00> : tensor<2048x2048xf32>
// CHECK-DAG: %[[EXP:.*]] = trace.constant dense<1.000000e+00> : tensor<4096x4096xf32>
// CHECK-DAG: %[[CAST:.*]] = trace.constant dense<7> : tensor<100000xi64>
// CHECK-NOT: trace.{{add|exp|cast}}
// CHECK: return %[[ADD]], %[[EXP]], %[[CAST]]
func.func @splat_large() -> (tensor<2048x2048xf32>, tensor<4096x4096xf32>, tensor<100000xi64>) {
  %a = trace.constant dense<1.0> : tensor<2048x2048xf32>
  %b = trace.constant dense<2.0> : tensor<2048xf32>
  %0 = trace.add %a, %b : (tensor<2048x2048xf32>, tensor<2048xf32>) -> tensor<2048x2048xf32>
  %z = trace.constant dense<0.0> : tensor<4096x4096xf32>
  %1 = trace.exp %z : tensor<4096x4096xf32>
  %s = trace.constant dense<7.9> : tensor<100000xf64>
  %2 = trace.cast %s : tensor<100000xf64> to tensor<100000xi64>
  return %0, %1, %2 : tensor<2048x2048xf32>, tensor<4096x4096xf32>, tensor<100000xi64>
}

// -----

// A non-splat result folds up to kMaxFoldedElements (1024) elements: [1, 2]
// broadcast over 512x2 folds (printed as little-endian hex), over 513x2 it
// does not, and neither does a unary op on a 1025-element constant.
// CHECK-LABEL: func.func @non_splat_limit
// CHECK-DAG: %[[FOLDED:.*]] = trace.constant dense<"0x0000803F00000040{{(0000803F00000040)+}}"> : tensor<512x2xf32>
// CHECK-DAG: %[[BIG:.*]] = trace.add %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<513x2xf32>) -> tensor<513x2xf32>
// CHECK-DAG: %[[NEG:.*]] = trace.neg %{{.*}} : tensor<1025xi32>
// CHECK: return %[[FOLDED]], %[[BIG]], %[[NEG]]
func.func @non_splat_limit() -> (tensor<512x2xf32>, tensor<513x2xf32>, tensor<1025xi32>) {
  %row = trace.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %z0 = trace.constant dense<0.0> : tensor<512x2xf32>
  %z1 = trace.constant dense<0.0> : tensor<513x2xf32>
  %0 = trace.add %row, %z0 : (tensor<2xf32>, tensor<512x2xf32>) -> tensor<512x2xf32>
  %1 = trace.add %row, %z1 : (tensor<2xf32>, tensor<513x2xf32>) -> tensor<513x2xf32>
  %i = trace.iota : tensor<1025xi32>
  %2 = trace.neg %i : tensor<1025xi32>
  return %0, %1, %2 : tensor<512x2xf32>, tensor<513x2xf32>, tensor<1025xi32>
}

// -----

// Empty tensors fold to empty constants.
// CHECK-LABEL: func.func @empty
// CHECK-DAG: %[[F:.*]] = trace.constant dense<> : tensor<0xf32>
// CHECK-DAG: %[[M:.*]] = trace.constant dense<> : tensor<2x0xf32>
// CHECK-DAG: %[[B:.*]] = trace.constant dense<> : tensor<0xi1>
// CHECK-DAG: %[[I:.*]] = trace.constant dense<> : tensor<0xi32>
// CHECK: return %[[F]], %[[M]], %[[B]], %[[I]]
func.func @empty() -> (tensor<0xf32>, tensor<2x0xf32>, tensor<0xi1>, tensor<0xi32>) {
  %c = trace.constant dense<> : tensor<0xf32>
  %0 = trace.exp %c : tensor<0xf32>
  %col = trace.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %e = trace.constant dense<> : tensor<2x0xf32>
  %1 = trace.mul %col, %e : (tensor<2x1xf32>, tensor<2x0xf32>) -> tensor<2x0xf32>
  %s = trace.constant dense<1.0> : tensor<f32>
  %2 = trace.lt %c, %s : (tensor<0xf32>, tensor<f32>) -> tensor<0xi1>
  %3 = trace.cast %c : tensor<0xf32> to tensor<0xi32>
  return %0, %1, %2, %3 : tensor<0xf32>, tensor<2x0xf32>, tensor<0xi1>, tensor<0xi32>
}

// -----

// (Types whose element count overflows int64_t no longer reach the
// folders: the verifier rejects every tensor over 2^48 bytes,
// invalid-sizes.mlir.)

// -----

// rem is C's fmod: exact, with the sign of the dividend; x rem 0 is NaN for
// floats and 0 for integers, as is INT_MIN rem -1 (never a trap).
// CHECK-LABEL: func.func @rem
// CHECK-DAG: %[[F:.*]] = trace.constant dense<[1.000000e+00, -1.000000e+00, 1.000000e+00, 0x7FC00000, 5.000000e-01]> : tensor<5xf32>
// CHECK-DAG: %[[I:.*]] = trace.constant dense<[1, -1, 1, 0, 0]> : tensor<5xi32>
// CHECK-NOT: trace.rem
// CHECK: return %[[F]], %[[I]]
func.func @rem() -> (tensor<5xf32>, tensor<5xi32>) {
  %fa = trace.constant dense<[7.0, -7.0, 7.0, 1.0, 2.5]> : tensor<5xf32>
  %fb = trace.constant dense<[3.0, 3.0, -3.0, 0.0, 1.0]> : tensor<5xf32>
  %f = trace.rem %fa, %fb : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %ia = trace.constant dense<[7, -7, 7, 5, -2147483648]> : tensor<5xi32>
  %ib = trace.constant dense<[3, 3, -3, 0, -1]> : tensor<5xi32>
  %i = trace.rem %ia, %ib : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  return %f, %i : tensor<5xf32>, tensor<5xi32>
}

// -----

// The inverse functions fold through libm in double.
// CHECK-LABEL: func.func @inverse_trigonometric
// CHECK: trace.constant dense<[0.000000e+00, 0.52359877559829893]>
// CHECK: trace.constant dense<[1.5707963267948966, 1.0471975511965979]>
// CHECK: trace.constant dense<[0.78539816339744828, 1.1071487177940904]>
// CHECK: trace.constant dense<[0.000000e+00, 0.48121182505960347]>
// CHECK: trace.constant dense<[0.000000e+00, 1.3169578969248166]>
// CHECK: trace.constant dense<[0.000000e+00, 0.54930614433405478]>
// CHECK: trace.constant dense<[0.78539816339744828, -2.3561944901923448]>
// CHECK-NOT: trace.{{asin|acos|atan|asinh|acosh|atanh|atan2}}
// CHECK: return
func.func @inverse_trigonometric() -> (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) {
  %x = trace.constant dense<[0.0, 0.5]> : tensor<2xf64>
  %y = trace.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %m = trace.constant dense<[1.0, -1.0]> : tensor<2xf64>
  %0 = trace.asin %x : tensor<2xf64>
  %1 = trace.acos %x : tensor<2xf64>
  %2 = trace.atan %y : tensor<2xf64>
  %3 = trace.asinh %x : tensor<2xf64>
  %4 = trace.acosh %y : tensor<2xf64>
  %5 = trace.atanh %x : tensor<2xf64>
  %6 = trace.atan2 %m, %m : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>
}
