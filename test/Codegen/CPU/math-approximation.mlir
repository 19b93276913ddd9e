// RUN: tracec-opt %s --trace-cpu-math-approximation | FileCheck %s

// f32 tanh, exp, log, erf become polynomials of FMAs on the same vectors.
// CHECK-LABEL: func.func @vectors
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.erf
// CHECK: math.fma {{.*}} : vector<16xf32>
// CHECK: return
func.func @vectors(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.tanh %x : vector<16xf32>
  %1 = math.exp %0 : vector<16xf32>
  %2 = math.log %1 : vector<16xf32>
  %3 = math.erf %2 : vector<16xf32>
  return %3 : vector<16xf32>
}

// x ** 3 is two multiplications; x ** 0.5 a square root.
// CHECK-LABEL: func.func @powers
// CHECK: %[[SQ:.*]] = arith.mulf %arg0, %arg0 : vector<16xf32>
// CHECK: arith.mulf %arg0, %[[SQ]] : vector<16xf32>
// CHECK: math.sqrt %arg0 : vector<16xf32>
// CHECK-NOT: math.powf
func.func @powers(%x: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>) {
  %c3 = arith.constant dense<3.0> : vector<16xf32>
  %h = arith.constant dense<0.5> : vector<16xf32>
  %0 = math.powf %x, %c3 : vector<16xf32>
  %1 = math.powf %x, %h : vector<16xf32>
  return %0, %1 : vector<16xf32>, vector<16xf32>
}

// 1 + erf(y) is erfc(-y), which keeps its digits where erf(y) is near -1.
// CHECK-LABEL: func.func @one_plus_erf
// CHECK-NOT: math.erf
// CHECK: math.fma
func.func @one_plus_erf(%y: vector<16xf32>) -> vector<16xf32> {
  %one = arith.constant dense<1.0> : vector<16xf32>
  %0 = math.erf %y : vector<16xf32>
  %1 = arith.addf %one, %0 : vector<16xf32>
  return %1 : vector<16xf32>
}

// f64 keeps libm; sin and cos too.
// CHECK-LABEL: func.func @kept
// CHECK: math.exp %{{.*}} : vector<8xf64>
// CHECK: math.sin %{{.*}} : vector<16xf32>
func.func @kept(%x: vector<8xf64>, %y: vector<16xf32>) -> (vector<8xf64>, vector<16xf32>) {
  %0 = math.exp %x : vector<8xf64>
  %1 = math.sin %y : vector<16xf32>
  return %0, %1 : vector<8xf64>, vector<16xf32>
}
