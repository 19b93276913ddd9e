// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// trace.custom_jvp: forward mode calls the user's rule @clip_jvp instead
// of sweeping the body of @clip (whose own tangent would be zero outside
// [-1, 1]); with respect to fewer arguments than the rule takes tangents
// for, a generated function calls it with zero tangents for the others.

func.func @clip(%x: tensor<3xf32>, %s: tensor<f32>) -> tensor<3xf32>
    attributes {trace.custom_jvp = @clip_jvp} {
  %lo = trace.constant dense<-1.0> : tensor<f32>
  %hi = trace.constant dense<1.0> : tensor<f32>
  %a = trace.max %x, %lo : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %b = trace.min %a, %hi : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %y = trace.mul %b, %s : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func private @clip_jvp(%x: tensor<3xf32>, %s: tensor<f32>, %tx: tensor<3xf32>, %ts: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %y = func.call @clip(%x, %s) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %t = trace.mul %tx, %s : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %y, %t : tensor<3xf32>, tensor<3xf32>
}
func.func @all(%x: tensor<3xf32>, %s: tensor<f32>, %tx: tensor<3xf32>, %ts: tensor<f32>) -> tensor<3xf32> {
  %y, %t = trace.jvp @clip(%x, %s) tangents(%tx, %ts) {wrt = array<i64: 0, 1>} : (tensor<3xf32>, tensor<f32>), (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %t : tensor<3xf32>
}
func.func @first(%x: tensor<3xf32>, %s: tensor<f32>, %tx: tensor<3xf32>) -> tensor<3xf32> {
  %y, %t = trace.jvp @clip(%x, %s) tangents(%tx) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<f32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %t : tensor<3xf32>
}

// The attribute is gone after the pass; no __jvp_clip sweep is generated.
// CHECK-LABEL: func.func @clip(
// CHECK-NOT: trace.custom_jvp
// CHECK-LABEL: func.func private @__jvp_clip_wrt_0(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<f32>, %[[T:.*]]: tensor<3xf32>)
// CHECK: %[[Z:.*]] = trace.constant dense<0.000000e+00> : tensor<f32>
// CHECK: call @clip_jvp(%[[X]], %[[S]], %[[T]], %[[Z]])
// CHECK-LABEL: func.func @all(
// CHECK: call @clip_jvp(
// CHECK-LABEL: func.func @first(
// CHECK: call @__jvp_clip_wrt_0(
// CHECK-NOT: func.func private @__jvp_clip(
