// RUN: tracec-opt %s --trace-to-linalg | FileCheck %s

// sort is a bottom-up merge sort: passes of doubling width (scf.while over
// fresh tensors), the rows, the runs, and a merge loop that moves every
// operand with the keys. Ascending floats go before when less, or a number
// before NaN.
// CHECK-LABEL: func.func @argsort
// CHECK: %[[PASSES:.+]]:3 = scf.while (%[[W:.+]] = %c1{{.*}}, %[[K:.+]] = %arg0, %[[I:.+]] = %arg1)
// CHECK: arith.cmpi slt, %[[W]]
// CHECK: tensor.empty() : tensor<3x8xf32>
// CHECK: tensor.empty() : tensor<3x8xi32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.while
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ord
// CHECK: arith.cmpf uno
// CHECK: tensor.insert
// CHECK: tensor.extract
// CHECK: tensor.insert
// CHECK: return %[[PASSES]]#1, %[[PASSES]]#2
// CHECK-NOT: trace.sort
func.func @argsort(%x: tensor<3x8xf32>, %i: tensor<3x8xi32>) -> (tensor<3x8xf32>, tensor<3x8xi32>) {
  %v, %p = trace.sort %x, %i : tensor<3x8xf32>, tensor<3x8xi32>
  return %v, %p : tensor<3x8xf32>, tensor<3x8xi32>
}

// Integer keys compare signed; a `?` axis reads its size at run time.
// CHECK-LABEL: func.func @dynamic_axis
// CHECK: tensor.dim %arg0, %c0
// CHECK: scf.while
// CHECK: arith.cmpi slt, %{{.+}}, %{{.+}} : i64
func.func @dynamic_axis(%x: tensor<?x2xi64>) -> tensor<?x2xi64> {
  %0 = trace.sort %x {axis = 0, descending} : tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}
