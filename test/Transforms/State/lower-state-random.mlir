// RUN: tracec-opt %s --trace-lower-state -split-input-file | FileCheck %s

// Each random op gets its own run counter: a private mutable i64 global
// starting at 0, advanced atomically on every run. The numbers come from a
// linalg.generic: Philox4x32-10 (ten rounds of two widening multiplies) on
// (element index, run) keyed by the seed, then the distribution.

// CHECK-DAG: memref.global "private" @__trace_random_counter : memref<i64> = dense<0>
// CHECK-DAG: memref.global "private" @__trace_random_counter_{{[0-9]+}} : memref<i64> = dense<0>
// CHECK-LABEL: func.func @uniform_then_normal
// CHECK: %[[G0:.+]] = memref.get_global @__trace_random_counter{{(_[0-9]+)?}} : memref<i64>
// CHECK: %[[RUN0:.+]] = memref.atomic_rmw addi %{{.+}}, %[[G0]][] : (i64, memref<i64>) -> i64
// CHECK: linalg.generic
// CHECK-COUNT-10: arith.mului_extended
// CHECK: arith.uitofp
// CHECK: arith.minimumf
// CHECK: %[[G1:.+]] = memref.get_global @__trace_random_counter{{(_[0-9]+)?}} : memref<i64>
// CHECK: memref.atomic_rmw addi %{{.+}}, %[[G1]][]
// CHECK: linalg.generic
// CHECK: math.log
// CHECK: math.cos
// CHECK-NOT: trace.
func.func @uniform_then_normal() -> (tensor<2x3xf32>, tensor<4xf64>) {
  %u, %c0 = trace.random_uniform {seed = 1, low = -1.0, high = 1.0} : tensor<2x3xf32>
  %n, %c1 = trace.random_normal after(%c0) {seed = 2} : tensor<4xf64>
  %r = trace.identity %n after(%c1) : tensor<4xf64>
  return %u, %r : tensor<2x3xf32>, tensor<4xf64>
}

// -----

// f16 is drawn in f32 and rounded; the uniform result is clamped to the
// largest f16 below high (2.0 - 2^-10 = 1.9990234375).
// CHECK-LABEL: func.func @uniform_f16
// CHECK: linalg.generic
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: arith.minimumf %{{.+}}, %{{.+}} : f16
func.func @uniform_f16() -> tensor<8xf16> {
  %u, %c = trace.random_uniform {seed = 3, high = 2.0} : tensor<8xf16>
  return %u : tensor<8xf16>
}

// -----

// f32 log and cos become polynomials that vectorize; no libm call remains.
// CHECK-LABEL: func.func @normal_f32
// CHECK: linalg.generic
// CHECK-NOT: math.log
// CHECK-NOT: math.cos
// CHECK: math.fma
// CHECK: linalg.yield
func.func @normal_f32() -> tensor<8xf32> {
  %n, %c = trace.random_normal {seed = 3} : tensor<8xf32>
  return %n : tensor<8xf32>
}

// -----

// The keyed ops are pure: no counter global; the key's words are read from
// the key tensor and are the Philox key, the counter's high words are 0 (or
// the counter and stream of stateless_random_bits, whose element is x0).
// CHECK-LABEL: func.func @keyed
// CHECK-NOT: memref.global
// CHECK-NOT: memref.atomic_rmw
// CHECK-DAG: %[[K0:.+]] = tensor.extract %arg0[%c0{{.*}}] : tensor<2xi32>
// CHECK-DAG: %[[K1:.+]] = tensor.extract %arg0[%c1{{.*}}] : tensor<2xi32>
// CHECK: linalg.generic
// CHECK-COUNT-10: arith.mului_extended
// CHECK: arith.minimumf
// CHECK: linalg.generic
// CHECK: linalg.yield %{{.+}} : f32
// CHECK: tensor.extract %arg1[] : tensor<i32>
// CHECK: linalg.generic
// CHECK-COUNT-10: arith.mului_extended
// CHECK: linalg.yield %{{.+}} : i32
// CHECK-NOT: trace.
func.func @keyed(%key: tensor<2xi32>, %counter: tensor<i32>) -> (tensor<2x3xf32>, tensor<4xf32>, tensor<3x2xi32>) {
  %u = trace.stateless_random_uniform %key {low = -1.0, high = 1.0} : tensor<2xi32> -> tensor<2x3xf32>
  %n = trace.stateless_random_normal %key : tensor<2xi32> -> tensor<4xf32>
  %b = trace.stateless_random_bits %key, %counter {stream = 1} : tensor<2xi32>, tensor<i32> -> tensor<3x2xi32>
  return %u, %n, %b : tensor<2x3xf32>, tensor<4xf32>, tensor<3x2xi32>
}
