// RUN: tracec-opt %s | tracec-opt | FileCheck %s
// RUN: tracec-opt %s --mlir-print-op-generic | tracec-opt | FileCheck %s
// RUN: tracec-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// Round-trips of the state ops and `after(...)` control tokens, and what
// canonicalization does to them (only identity without tokens folds).

// CHECK-LABEL: func.func @state
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CANON-LABEL: func.func @state
func.func @state(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[C0:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] : !trace.resource<tensor<4xf32>>
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  // CHECK: %[[R:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[C0]]) : !trace.resource<tensor<4xf32>>
  %r, %c1 = trace.var.read %v after(%c0) : !trace.resource<tensor<4xf32>>
  // CHECK: %[[C2:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[R]] after(%[[C1]]) : !trace.resource<tensor<4xf32>>
  %c2 = trace.var.assign_add %v, %r after(%c1) : !trace.resource<tensor<4xf32>>
  // CHECK: %[[C3:[a-z0-9_]+]] = trace.var.assign_sub %[[V]], %[[X]] after(%[[C1]], %[[C2]]) : !trace.resource<tensor<4xf32>>
  %c3 = trace.var.assign_sub %v, %x after(%c1, %c2) : !trace.resource<tensor<4xf32>>
  // CHECK: %[[P:[a-z0-9_]+]] = trace.print %[[R]] after(%[[C1]]) {message = "r"} : tensor<4xf32>
  %p = trace.print %r after(%c1) {message = "r"} : tensor<4xf32>
  // The default message is empty and not printed.
  // CHECK: trace.print %[[R]] after(%[[C3]]) : tensor<4xf32>
  %p2 = trace.print %r after(%c3) {message = ""} : tensor<4xf32>
  // CHECK: %[[Y:[a-z0-9_]+]] = trace.identity %[[R]] after(%[[C1]], %[[P]]) : tensor<4xf32>
  %y = trace.identity %r after(%c1, %p) : tensor<4xf32>
  // CHECK: %[[Z:[a-z0-9_]+]] = trace.identity %[[Y]] : tensor<4xf32>
  %z = trace.identity %y : tensor<4xf32>
  // CHECK: return %[[Z]]
  return %z : tensor<4xf32>

  // Every stateful op stays; the identity with tokens stays, the one
  // without folds away.
  // CANON: %[[C0:[a-z0-9_]+]] = trace.var.assign
  // CANON: %[[R:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} after(%[[C0]])
  // CANON: %[[C2:[a-z0-9_]+]] = trace.var.assign_add
  // CANON: %[[C3:[a-z0-9_]+]] = trace.var.assign_sub
  // CANON: %[[P:[a-z0-9_]+]] = trace.print %[[R]] after(%[[C1]]) {message = "r"}
  // CANON: trace.print %[[R]] after(%[[C3]])
  // CANON: %[[Y:[a-z0-9_]+]] = trace.identity %[[R]] after(%[[C1]], %[[P]])
  // CANON-NOT: trace.identity
  // CANON: return %[[Y]]
}

// Variables of every element type, ranks and dynamic dims; ops without
// tokens.
// CHECK-LABEL: func.func @element_types
// CHECK-SAME: !trace.resource<tensor<f64>>, %{{[a-z0-9_]+}}: !trace.resource<tensor<2x?xi32>>, %{{[a-z0-9_]+}}: !trace.resource<tensor<3xi1>>, %{{[a-z0-9_]+}}: !trace.resource<tensor<2xbf16>>
func.func @element_types(%a: !trace.resource<tensor<f64>>, %b: !trace.resource<tensor<2x?xi32>>, %c: !trace.resource<tensor<3xi1>>, %d: !trace.resource<tensor<2xbf16>>) -> (tensor<f64>, tensor<2x?xi32>, tensor<3xi1>) {
  // CHECK: trace.var.read %{{[a-z0-9_]+}} : !trace.resource<tensor<f64>>
  %ra, %ca = trace.var.read %a : !trace.resource<tensor<f64>>
  // CHECK: trace.var.read %{{[a-z0-9_]+}} : !trace.resource<tensor<2x?xi32>>
  %rb, %cb = trace.var.read %b : !trace.resource<tensor<2x?xi32>>
  // CHECK: trace.var.assign_add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !trace.resource<tensor<2x?xi32>>
  %cb2 = trace.var.assign_add %b, %rb : !trace.resource<tensor<2x?xi32>>
  // CHECK: trace.var.read %{{[a-z0-9_]+}} : !trace.resource<tensor<3xi1>>
  %rc, %cc = trace.var.read %c : !trace.resource<tensor<3xi1>>
  // CHECK: trace.var.assign %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !trace.resource<tensor<3xi1>>
  %cc2 = trace.var.assign %c, %rc : !trace.resource<tensor<3xi1>>
  // CHECK: trace.print %{{[a-z0-9_]+}} {message = "b"} : tensor<2x?xi32>
  %p = trace.print %rb {message = "b"} : tensor<2x?xi32>
  // CHECK: trace.identity %{{[a-z0-9_]+}} after(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) : tensor<f64>
  %ya = trace.identity %ra after(%cb2, %cc2, %p) : tensor<f64>
  return %ya, %rb, %rc : tensor<f64>, tensor<2x?xi32>, tensor<3xi1>
}

// Control tokens are ordinary SSA values: function arguments and results.
// CHECK-LABEL: func.func @tokens
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[T:[a-z0-9_]+]]: !trace.control) -> !trace.control
// CANON-LABEL: func.func @tokens
func.func @tokens(%v: !trace.resource<tensor<4xf32>>, %t: !trace.control) -> !trace.control {
  // CHECK: %{{[a-z0-9_]+}}, %[[C:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[T]], %[[T]])
  // CHECK: return %[[C]] : !trace.control
  %r, %c = trace.var.read %v after(%t, %t) : !trace.resource<tensor<4xf32>>
  return %c : !trace.control
  // CANON: %{{[a-z0-9_]+}}, %[[C:[a-z0-9_]+]] = trace.var.read
  // CANON: return %[[C]]
}

// CANON-LABEL: func.func @identity_chain
func.func @identity_chain(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CANON-NOT: trace.identity
  // CANON: return %arg0
  %a = trace.identity %x : tensor<2xf32>
  %b = trace.identity %a : tensor<2xf32>
  return %b : tensor<2xf32>
}
