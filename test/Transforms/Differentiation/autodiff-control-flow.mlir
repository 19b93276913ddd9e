// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// scf.if: the backward function branches on the saved condition and
// recomputes the taken branch to sweep it (the branch's values are not
// saved, only its captured inputs and the condition).

func.func @cond(%x: tensor<3xf32>, %flag: i1) -> tensor<f32> {
  %r = scf.if %flag -> tensor<3xf32> {
    %s = trace.sin %x : tensor<3xf32>
    scf.yield %s : tensor<3xf32>
  } else {
    %e = trace.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  }
  %t = trace.reduce_sum %r {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %t : tensor<f32>
}
func.func @dcond(%x: tensor<3xf32>, %flag: i1) -> tensor<3xf32> {
  %g = trace.grad @cond(%x, %flag) {wrt = array<i64: 0>} : (tensor<3xf32>, i1) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// CHECK-LABEL: func.func private @__forward_cond(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[FLAG:[a-z0-9_]+]]: i1) -> (tensor<f32>, tensor<3xf32>, i1)
// CHECK:      scf.if %[[FLAG]]
// CHECK:      return %{{[a-z0-9_]+}}, %[[X]], %[[FLAG]] :
// CHECK-LABEL: func.func private @__backward_cond(
// CHECK-SAME: %[[RX:[a-z0-9_]+]]: tensor<3xf32>, %[[RFLAG:[a-z0-9_]+]]: i1, %[[DT:[a-z0-9_]+]]: tensor<f32>) -> tensor<3xf32>
// CHECK:      %[[DR:[a-z0-9_]+]] = trace.broadcast_to
// CHECK:      %[[DX:[a-z0-9_]+]] = scf.if %[[RFLAG]] -> (tensor<3xf32>) {
// sin' = cos: the branch is swept from the saved x.
// CHECK:        %[[COS:[a-z0-9_]+]] = trace.cos %[[RX]]
// CHECK-NEXT:   %[[D0:[a-z0-9_]+]] = trace.mul %[[DR]], %[[COS]]
// CHECK-NEXT:   scf.yield %[[D0]]
// CHECK-NEXT: } else {
// exp' = exp: the else branch recomputes exp(x).
// CHECK-NEXT:   %[[E:[a-z0-9_]+]] = trace.exp %[[RX]]
// CHECK-NEXT:   %[[D1:[a-z0-9_]+]] = trace.mul %[[DR]], %[[E]]
// CHECK-NEXT:   scf.yield %[[D1]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[DX]]

// -----

// scf.for: the forward loop records each iteration's incoming carried value
// on a tape (tensor<?x3xf32>, one row per iteration, sized by the trip
// count); the backward loop runs the iterations in reverse, reads the
// carried value back from the tape and carries the cotangent, summing the
// cotangent of the captured %x.

func.func @power(%x: tensor<3xf32>, %n: tensor<i64>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %one = trace.constant dense<1.0> : tensor<3xf32>
  %p = scf.for %i = %c0 to %ni step %c1 iter_args(%acc = %one) -> (tensor<3xf32>) {
    %next = trace.mul %acc, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %next : tensor<3xf32>
  }
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dpower(%x: tensor<3xf32>, %n: tensor<i64>) -> tensor<3xf32> {
  %g = trace.grad @power(%x, %n) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<i64>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// Residuals: the trip count, the tape and x.
// CHECK-LABEL: func.func private @__forward_power(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<i64>) -> (tensor<f32>, index, tensor<?x3xf32>, tensor<3xf32>)
// CHECK:      %[[UB:[a-z0-9_]+]] = arith.index_cast
// CHECK:      %[[TRIPS:[a-z0-9_]+]] = arith.maxsi
// CHECK-NEXT: %[[EMPTY:[a-z0-9_]+]] = tensor.empty(%[[TRIPS]]) : tensor<?x3xf32>
// CHECK-NEXT: %[[LOOP:[a-z0-9_]+]]:2 = scf.for %[[IV:[a-z0-9_]+]] = %{{[a-z0-9_]+}} to %[[UB]] step %{{[a-z0-9_]+}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[TAPE:[a-z0-9_]+]] = %[[EMPTY]]) -> (tensor<3xf32>, tensor<?x3xf32>)
// CHECK:        %[[ROW:[a-z0-9_]+]] = arith.divsi
// CHECK-NEXT:   %[[REC:[a-z0-9_]+]] = tensor.insert_slice %[[ACC]] into %[[TAPE]][%[[ROW]], 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<?x3xf32>
// CHECK-NEXT:   %[[NEXT:[a-z0-9_]+]] = trace.mul %[[ACC]], %[[X]]
// CHECK-NEXT:   scf.yield %[[NEXT]], %[[REC]]
// CHECK:      %[[S:[a-z0-9_]+]] = trace.reduce_sum %[[LOOP]]#0
// CHECK-NEXT: return %[[S]], %[[TRIPS]], %[[LOOP]]#1, %[[X]] :

// CHECK-LABEL: func.func private @__backward_power(
// CHECK-SAME: %[[RTRIPS:[a-z0-9_]+]]: index, %[[RTAPE:[a-z0-9_]+]]: tensor<?x3xf32>, %[[RX:[a-z0-9_]+]]: tensor<3xf32>, %[[DS:[a-z0-9_]+]]: tensor<f32>) -> tensor<3xf32>
// CHECK:      %[[DP:[a-z0-9_]+]] = trace.broadcast_to
// The captured x's cotangent starts at zero.
// CHECK-NEXT: %[[ZERO:[a-z0-9_]+]] = trace.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK:      %[[BACK:[a-z0-9_]+]]:2 = scf.for %[[K:[a-z0-9_]+]] = %{{[a-z0-9_]+}} to %[[RTRIPS]] step %{{[a-z0-9_]+}} iter_args(%[[DACC:[a-z0-9_]+]] = %[[DP]], %[[DXSUM:[a-z0-9_]+]] = %[[ZERO]]) -> (tensor<3xf32>, tensor<3xf32>)
// Row trips - 1 - k: the iterations in reverse.
// CHECK-NEXT:   %[[LAST:[a-z0-9_]+]] = arith.subi %[[RTRIPS]], %{{[a-z0-9_]+}} : index
// CHECK-NEXT:   %[[RROW:[a-z0-9_]+]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK:        %[[OLD:[a-z0-9_]+]] = tensor.extract_slice %[[RTAPE]][%[[RROW]], 0] [1, 3] [1, 1] : tensor<?x3xf32> to tensor<3xf32>
// d acc = d next * x; d x += d next * acc (the acc read back from the tape).
// CHECK-DAG:    %[[DPREV:[a-z0-9_]+]] = trace.mul %[[DACC]], %[[RX]]
// CHECK-DAG:    %[[DXI:[a-z0-9_]+]] = trace.mul %[[DACC]], %[[OLD]]
// CHECK:        %[[DXNEW:[a-z0-9_]+]] = trace.add %[[DXSUM]], %[[DXI]]
// CHECK-NEXT:   scf.yield %[[DPREV]], %[[DXNEW]]
// CHECK:      return %[[BACK]]#1

// -----

// A loop no differentiated value reaches (it reads only the constant and the
// argument outside `wrt`) is cloned as it is: no tape, nothing saved.
func.func @inactive_loop(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> (tensor<3xf32>) {
    %t = trace.tanh %acc : tensor<3xf32>
    scf.yield %t : tensor<3xf32>
  }
  %p = trace.mul %s, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %r = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %r : tensor<f32>
}
func.func @dinactive_loop(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %g = trace.grad @inactive_loop(%x, %y) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// CHECK-LABEL: func.func private @__forward_inactive_loop_wrt_0(
// CHECK-SAME: -> (tensor<f32>, tensor<3xf32>)
// CHECK-NOT:  tensor.empty
// CHECK:      scf.for {{.*}} -> (tensor<3xf32>) {
// CHECK-NOT:    tensor.insert_slice
// CHECK:      return
