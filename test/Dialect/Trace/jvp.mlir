// RUN: tracec-opt %s | tracec-opt | FileCheck %s
// RUN: tracec-opt %s --mlir-print-op-generic | tracec-opt | FileCheck %s

// Round-trips of jvp: the callee's results, then one tangent per float
// result; one tangent operand per `wrt` index; non-float arguments and
// results, and variables passed (not differentiated).

func.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %y = trace.mul %x, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @jvp
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[W:[a-z0-9_]+]]: tensor<3xf32>, %[[T:[a-z0-9_]+]]: tensor<3xf32>)
func.func @jvp(%x: tensor<3xf32>, %w: tensor<3xf32>, %tx: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[R:[a-z0-9_]+]]:2 = trace.jvp @f(%[[X]], %[[W]]) tangents(%[[T]]) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  // CHECK: return %[[R]]#0, %[[R]]#1
  %y, %ty = trace.jvp @f(%x, %w) tangents(%tx) {wrt = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %y, %ty : tensor<3xf32>, tensor<3xf32>
}

// Both arguments, in any order: the tangents follow `wrt`.
// CHECK-LABEL: func.func @jvp_several
func.func @jvp_several(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: trace.jvp @f(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) tangents(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 1, 0>}
  %y, %ty = trace.jvp @f(%x, %w) tangents(%w, %x) {wrt = array<i64: 1, 0>} : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %ty : tensor<3xf32>
}

// An integer argument and result, and a variable: only the float result
// gets a tangent.
func.func @mixed(%v: !trace.resource<tensor<3xf32>>, %x: tensor<3xf32>, %n: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xf32>) {
  %r, %c = trace.var.read %v : !trace.resource<tensor<3xf32>>
  %y = trace.mul %x, %r : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %n, %y : tensor<3xi32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @jvp_mixed
func.func @jvp_mixed(%v: !trace.resource<tensor<3xf32>>, %x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  // CHECK: trace.jvp @mixed(%{{.*}}) tangents(%{{.*}}) {wrt = array<i64: 1>} : (!trace.resource<tensor<3xf32>>, tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>)
  %r:3 = trace.jvp @mixed(%v, %x, %n) tangents(%x) {wrt = array<i64: 1>} : (!trace.resource<tensor<3xf32>>, tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>)
  return %r#2 : tensor<3xf32>
}

// `?` dims.
func.func @dyn(%x: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %y = trace.tanh %x : tensor<?x3xf64>
  return %y : tensor<?x3xf64>
}

// CHECK-LABEL: func.func @jvp_dynamic
func.func @jvp_dynamic(%x: tensor<?x3xf64>, %t: tensor<?x3xf64>) -> tensor<?x3xf64> {
  // CHECK: trace.jvp @dyn(%{{.*}}) tangents(%{{.*}}) {wrt = array<i64: 0>} : (tensor<?x3xf64>), (tensor<?x3xf64>) -> (tensor<?x3xf64>, tensor<?x3xf64>)
  %y, %ty = trace.jvp @dyn(%x) tangents(%t) {wrt = array<i64: 0>} : (tensor<?x3xf64>), (tensor<?x3xf64>) -> (tensor<?x3xf64>, tensor<?x3xf64>)
  return %ty : tensor<?x3xf64>
}

// Ordered (the callee reads a variable): `after` tokens follow the
// tangents, a token follows the tangent results.
// CHECK-LABEL: func.func @jvp_ordered
func.func @jvp_ordered(%v: !trace.resource<tensor<3xf32>>, %x: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  // CHECK: %[[C:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %{{[a-z0-9_]+}}:4 = trace.jvp @mixed(%{{.*}}) tangents(%{{[a-z0-9_]+}}) after(%[[C]]) {wrt = array<i64: 1>} : (!trace.resource<tensor<3xf32>>, tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, !trace.control)
  %c = trace.var.assign %v, %x : !trace.resource<tensor<3xf32>>
  %r:4 = trace.jvp @mixed(%v, %x, %n) tangents(%x) after(%c) {wrt = array<i64: 1>} : (!trace.resource<tensor<3xf32>>, tensor<3xf32>, tensor<3xi32>), (tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, !trace.control)
  return %r#2 : tensor<3xf32>
}
