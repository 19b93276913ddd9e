// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=CANON

// A stateful op whose token and value nobody uses is routed into the result
// identity, so it stays when dead code goes.

// CHECK-LABEL: func.func @unused_assign
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] :
// CHECK-NEXT: %[[E:[a-z0-9_]+]] = trace.exp %[[X]]
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[E]] after(%[[C]]) :
// CHECK-NEXT: return %[[Y]]
// CANON-LABEL: func.func @unused_assign
// CANON-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign
// CANON-NEXT: %[[E:[a-z0-9_]+]] = trace.exp
// CANON-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[E]] after(%[[C]]) :
// CANON-NEXT: return %[[Y]]
func.func @unused_assign(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %e = trace.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A read whose value is unused but which a later write waits for: the read
// stays, because the write uses its token.
// CANON-LABEL: func.func @unused_read_ordered
// CANON-NEXT: %{{[a-z0-9_]+}}, %[[C:[a-z0-9_]+]] = trace.var.read
// CANON-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign {{.*}} after(%[[C]]) :
// CANON-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %{{[a-z0-9_]+}} after(%[[W]]) :
// CANON-NEXT: return %[[Y]]
func.func @unused_read_ordered(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return %x : tensor<4xf32>
}

// -----

// No tensor result to route through: the assign and the print stay alive by
// their declared memory effects (writes are never trivially dead), and are
// still ordered with each other.
// CHECK-LABEL: func.func @no_results
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign
// CHECK-NEXT: trace.print %{{[a-z0-9_]+}} after(%[[C]])
// CHECK-NEXT: return
// CANON-LABEL: func.func @no_results
// CANON-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign
// CANON-NEXT: trace.print %{{[a-z0-9_]+}} after(%[[C]])
// CANON-NEXT: return
func.func @no_results(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %p = trace.print %x : tensor<4xf32>
  return
}
