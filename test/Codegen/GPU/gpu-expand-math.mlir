// RUN: tracec-opt %s --trace-gpu-expand-math | FileCheck %s

// f32 functions become polynomials, f16 ones go through f32, integer abs
// is max(x, -x); f64 functions are left to LLVM's NVPTX back end.
// CHECK-LABEL: func.func @math(
// CHECK-NOT: math.erf %{{.*}} : f32
// CHECK-NOT: math.tanh
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[I:.*]] : i32
// CHECK: arith.maxsi %[[I]], %[[NEG]] : i32
// CHECK: math.exp %{{.*}} : f64
func.func @math(%x: f32, %h: f16, %i: i32, %d: f64) -> (f32, f32, f16, i32, f64) {
  %0 = math.erf %x : f32
  %1 = math.tanh %x : f32
  %2 = math.exp %h : f16
  %3 = math.absi %i : i32
  %4 = math.exp %d : f64
  return %0, %1, %2, %3, %4 : f32, f32, f16, i32, f64
}
