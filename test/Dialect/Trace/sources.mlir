// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// Round trip of the source ops: constant, fill, iota, random_uniform and
// random_normal, over every element type each accepts.

// CHECK-LABEL: func.func @constant_every_dtype
// CHECK: trace.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf16>
// CHECK: trace.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xbf16>
// CHECK: trace.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x3xf32>
// CHECK: trace.constant dense<-2.500000e+00> : tensor<f64>
// CHECK: trace.constant dense<[true, false]> : tensor<2xi1>
// CHECK: trace.constant dense<[1, -2, 3]> : tensor<3xi32>
// CHECK: trace.constant dense<9223372036854775807> : tensor<4x4xi64>
// CHECK: trace.constant dense<> : tensor<0xf32>
func.func @constant_every_dtype() {
  %0 = trace.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %1 = trace.constant dense<[1.0, 2.0]> : tensor<2xbf16>
  %2 = trace.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %3 = trace.constant dense<-2.5> : tensor<f64>
  %4 = trace.constant dense<[true, false]> : tensor<2xi1>
  %5 = trace.constant dense<[1, -2, 3]> : tensor<3xi32>
  %6 = trace.constant dense<9223372036854775807> : tensor<4x4xi64>
  %7 = trace.constant dense<> : tensor<0xf32>
  return
}

// The attribute may carry a dictionary; the result type comes from the value.
// CHECK-LABEL: func.func @constant_attr_dict
// CHECK: %[[C:.*]] = trace.constant {note = "bias"} dense<0.000000e+00> : tensor<8xf32>
// CHECK: return %[[C]] : tensor<8xf32>
func.func @constant_attr_dict() -> tensor<8xf32> {
  %0 = trace.constant {note = "bias"} dense<0.0> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// The generic form with a matching result type prints back in custom form.
// CHECK-LABEL: func.func @constant_generic_form
// CHECK: trace.constant dense<[1, 2]> : tensor<2xi32>
func.func @constant_generic_form() -> tensor<2xi32> {
  %0 = "trace.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @fill_every_dtype
// CHECK: trace.fill %arg0 : tensor<f16> -> tensor<2x3xf16>
// CHECK: trace.fill %arg1 : tensor<bf16> -> tensor<4xbf16>
// CHECK: trace.fill %arg2 : tensor<f32> -> tensor<f32>
// CHECK: trace.fill %arg3 : tensor<f64> -> tensor<1x1x1xf64>
// CHECK: trace.fill %arg4 : tensor<i1> -> tensor<5xi1>
// CHECK: trace.fill %arg5 : tensor<i32> -> tensor<2x2xi32>
// CHECK: trace.fill %arg6 : tensor<i64> -> tensor<0x3xi64>
func.func @fill_every_dtype(%a: tensor<f16>, %b: tensor<bf16>, %c: tensor<f32>,
                            %d: tensor<f64>, %e: tensor<i1>, %f: tensor<i32>,
                            %g: tensor<i64>) {
  %0 = trace.fill %a : tensor<f16> -> tensor<2x3xf16>
  %1 = trace.fill %b : tensor<bf16> -> tensor<4xbf16>
  %2 = trace.fill %c : tensor<f32> -> tensor<f32>
  %3 = trace.fill %d : tensor<f64> -> tensor<1x1x1xf64>
  %4 = trace.fill %e : tensor<i1> -> tensor<5xi1>
  %5 = trace.fill %f : tensor<i32> -> tensor<2x2xi32>
  %6 = trace.fill %g : tensor<i64> -> tensor<0x3xi64>
  return
}

// The default axis (0) is not printed; negative axes count from the end.
// CHECK-LABEL: func.func @iota_axes_and_dtypes
// CHECK: trace.iota : tensor<4xi32>
// CHECK: trace.iota {axis = 1 : i64} : tensor<2x3xi64>
// CHECK: trace.iota {axis = -1 : i64} : tensor<2x3xf32>
// CHECK: trace.iota {axis = -2 : i64} : tensor<2x3xf16>
// CHECK: trace.iota {axis = 2 : i64} : tensor<1x2x3xbf16>
// CHECK: trace.iota : tensor<8xf64>
func.func @iota_axes_and_dtypes() {
  %0 = trace.iota : tensor<4xi32>
  %1 = trace.iota {axis = 1} : tensor<2x3xi64>
  %2 = trace.iota {axis = -1} : tensor<2x3xf32>
  %3 = trace.iota {axis = -2} : tensor<2x3xf16>
  %4 = trace.iota {axis = 2} : tensor<1x2x3xbf16>
  %5 = trace.iota {axis = 0} : tensor<8xf64>
  return
}

// Default attributes are elided; explicit ones survive the round trip.
// CHECK-LABEL: func.func @random_uniform
// CHECK: %[[R0:.*]], %[[C0:.*]] = trace.random_uniform : tensor<4xf32>
// CHECK: %{{.*}}, %[[C1:.*]] = trace.random_uniform after(%[[C0]]) {high = 2.000000e+00 : f64, low = -2.000000e+00 : f64, seed = 7 : i64} : tensor<2x3xf16>
// CHECK: trace.random_uniform after(%[[C0]], %[[C1]]) {seed = -1 : i64} : tensor<bf16>
func.func @random_uniform() -> tensor<4xf32> {
  %r0, %c0 = trace.random_uniform : tensor<4xf32>
  %r1, %c1 = trace.random_uniform after(%c0) {seed = 7, low = -2.0, high = 2.0} : tensor<2x3xf16>
  %r2, %c2 = trace.random_uniform after(%c0, %c1) {seed = -1} : tensor<bf16>
  return %r0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @random_normal
// CHECK: %{{.*}}, %[[C0:.*]] = trace.random_normal {seed = 3 : i64} : tensor<16xf32>
// CHECK: trace.random_normal after(%[[C0]]) {mean = -1.000000e+00 : f64, stddev = 5.000000e-01 : f64} : tensor<2x2xf64>
// CHECK: trace.random_normal : tensor<3xf16>
// CHECK: trace.random_normal : tensor<3xbf16>
func.func @random_normal() {
  %r0, %c0 = trace.random_normal {seed = 3} : tensor<16xf32>
  %r1, %c1 = trace.random_normal after(%c0) {mean = -1.0, stddev = 0.5} : tensor<2x2xf64>
  %r2, %c2 = trace.random_normal : tensor<3xf16>
  %r3, %c3 = trace.random_normal : tensor<3xbf16>
  return
}

// CHECK-LABEL: func.func @stateless_random
// CHECK: trace.stateless_random_uniform %arg0 {high = 2.000000e+00 : f64, low = -1.000000e+00 : f64} : tensor<2xi32> -> tensor<3x4xf32>
// CHECK: trace.stateless_random_normal %arg0 : tensor<2xi32> -> tensor<5xf64>
// CHECK: trace.stateless_random_bits %arg0, %arg1 {stream = 2 : i64} : tensor<2xi32>, tensor<i32> -> tensor<2xi32>
func.func @stateless_random(%key: tensor<2xi32>, %counter: tensor<i32>) {
  %0 = trace.stateless_random_uniform %key {low = -1.0, high = 2.0} : tensor<2xi32> -> tensor<3x4xf32>
  %1 = trace.stateless_random_normal %key : tensor<2xi32> -> tensor<5xf64>
  %2 = trace.stateless_random_bits %key, %counter {stream = 2} : tensor<2xi32>, tensor<i32> -> tensor<2xi32>
  return
}
