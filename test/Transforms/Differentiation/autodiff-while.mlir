// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// scf.while: the forward pass is two nested loops carrying a tape of the
// carried value (16 rows to start with), a count and a capacity besides
// the value. The inner loop is the original one; each condition execution
// records v at row count, in place, and the loop stops early when the next
// row would not fit. The outer loop then runs the pending body execution
// and copies the tape into one twice as large. The backward function
// sweeps the exiting condition (row count), then runs count body/condition
// pairs in reverse.

func.func @halve(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<f32> {
  %one = trace.constant dense<1.0> : tensor<f32>
  %r = scf.while (%v = %x) : (tensor<3xf32>) -> tensor<3xf32> {
    %s = trace.reduce_sum %v {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
    %big = trace.gt %s, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b = tensor.extract %big[] : tensor<i1>
    scf.condition(%b) %v : tensor<3xf32>
  } do {
  ^bb0(%v: tensor<3xf32>):
    %h = trace.mul %v, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %h : tensor<3xf32>
  }
  %s = trace.reduce_sum %r {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dhalve(%x: tensor<3xf32>, %w: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %g:2 = trace.grad @halve(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %g#0, %g#1 : tensor<3xf32>, tensor<3xf32>
}

// Residuals: the count, the tape of v, and w.
// CHECK-LABEL: func.func private @__forward_halve(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<3xf32>, %[[W:[a-z0-9_]+]]: tensor<3xf32>) -> (tensor<f32>, index, tensor<?x3xf32>, tensor<3xf32>)
// CHECK:      %[[C16:[a-z0-9_]+]] = arith.constant 16 : index
// CHECK-NEXT: %[[EMPTY:[a-z0-9_]+]] = tensor.empty(%[[C16]]) : tensor<?x3xf32>
// CHECK-NEXT: %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[OUTER:[a-z0-9_]+]]:4 = scf.while (%[[T:[a-z0-9_]+]] = %[[EMPTY]], %[[N:[a-z0-9_]+]] = %[[C0]], %[[CAP:[a-z0-9_]+]] = %[[C16]], %[[V:[a-z0-9_]+]] = %[[X]]) : (tensor<?x3xf32>, index, index, tensor<3xf32>) -> (tensor<?x3xf32>, index, index, tensor<3xf32>) {
// CHECK-NEXT:   %[[INNER:[a-z0-9_]+]]:4 = scf.while (%[[IT:[a-z0-9_]+]] = %[[T]], %[[IN:[a-z0-9_]+]] = %[[N]], %[[IV:[a-z0-9_]+]] = %[[V]]) : (tensor<?x3xf32>, index, tensor<3xf32>) -> (tensor<?x3xf32>, index, tensor<3xf32>, i1) {
// CHECK:          %[[GO:[a-z0-9_]+]] = tensor.extract
// Row count: this execution's v, in place.
// CHECK-NEXT:     %[[REC:[a-z0-9_]+]] = tensor.insert_slice %[[IV]] into %[[IT]][%[[IN]], 0] [1, 3] [1, 1]
// CHECK:          %[[NEXT:[a-z0-9_]+]] = arith.addi %[[IN]], %{{[a-z0-9_]+}} : index
// CHECK-NEXT:     %[[ROOM:[a-z0-9_]+]] = arith.cmpi slt, %[[NEXT]], %[[CAP]] : index
// CHECK-NEXT:     %[[BOTH:[a-z0-9_]+]] = arith.andi %[[GO]], %[[ROOM]] : i1
// CHECK-NEXT:     scf.condition(%[[BOTH]]) %[[REC]], %[[IN]], %[[IV]], %[[GO]] : tensor<?x3xf32>, index, tensor<3xf32>, i1
// CHECK-NEXT:   } do {
// CHECK-NEXT:   ^bb0(%[[AT:[a-z0-9_]+]]: tensor<?x3xf32>, %[[AN:[a-z0-9_]+]]: index, %[[AV:[a-z0-9_]+]]: tensor<3xf32>, %{{[a-z0-9_]+}}: i1):
// CHECK-NEXT:     %[[H:[a-z0-9_]+]] = trace.mul %[[AV]], %[[W]]
// CHECK-NEXT:     %{{[a-z0-9_]+}} = arith.constant 1 : index
// CHECK-NEXT:     %[[AN1:[a-z0-9_]+]] = arith.addi %[[AN]], %{{[a-z0-9_]+}} : index
// CHECK-NEXT:     scf.yield %[[AT]], %[[AN1]], %[[H]]
// CHECK-NEXT:   }
// Out of the inner loop with the condition still true: the tape is full.
// CHECK-NEXT:   scf.condition(%[[INNER]]#3) %[[INNER]]#0, %[[INNER]]#1, %[[CAP]], %[[INNER]]#2
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[OT:[a-z0-9_]+]]: tensor<?x3xf32>, %[[ON:[a-z0-9_]+]]: index, %[[OCAP:[a-z0-9_]+]]: index, %[[OV:[a-z0-9_]+]]: tensor<3xf32>):
// The pending body execution, then a tape twice as long with the old rows.
// CHECK-NEXT:   %[[OH:[a-z0-9_]+]] = trace.mul %[[OV]], %[[W]]
// CHECK:        %[[TWICE:[a-z0-9_]+]] = arith.muli %[[OCAP]], %{{[a-z0-9_]+}} : index
// CHECK-NEXT:   %[[BIGGER:[a-z0-9_]+]] = tensor.empty(%[[TWICE]]) : tensor<?x3xf32>
// CHECK:        %[[OLDROWS:[a-z0-9_]+]] = tensor.dim %[[OT]], %{{[a-z0-9_]+}} : tensor<?x3xf32>
// CHECK-NEXT:   %[[COPY:[a-z0-9_]+]] = tensor.insert_slice %[[OT]] into %[[BIGGER]][0, 0] [%[[OLDROWS]], 3] [1, 1]
// CHECK:        %[[ON1:[a-z0-9_]+]] = arith.addi %[[ON]], %{{[a-z0-9_]+}} : index
// CHECK-NEXT:   scf.yield %[[COPY]], %[[ON1]], %[[TWICE]], %[[OH]]
// CHECK:      return %{{[a-z0-9_]+}}, %[[OUTER]]#1, %[[OUTER]]#0, %[[W]] :

// CHECK-LABEL: func.func private @__backward_halve(
// CHECK-SAME: %[[RN:[a-z0-9_]+]]: index, %[[RTAPE:[a-z0-9_]+]]: tensor<?x3xf32>, %[[RW:[a-z0-9_]+]]: tensor<3xf32>, %{{[a-z0-9_]+}}: tensor<f32>)
// CHECK:      %[[DR:[a-z0-9_]+]] = trace.broadcast_to
// CHECK-NEXT: %[[ZERO:[a-z0-9_]+]] = trace.constant dense<0.000000e+00> : tensor<3xf32>
// count after/before pairs in reverse: row count - 1 - k.
// CHECK:      %[[BACK:[a-z0-9_]+]]:2 = scf.for %[[K:[a-z0-9_]+]] = %{{[a-z0-9_]+}} to %[[RN]] step %{{[a-z0-9_]+}} iter_args(%[[DV:[a-z0-9_]+]] = %[[DR]], %[[DWSUM:[a-z0-9_]+]] = %[[ZERO]]) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:   %[[LAST:[a-z0-9_]+]] = arith.subi %[[RN]], %{{[a-z0-9_]+}} : index
// CHECK-NEXT:   %[[ROW:[a-z0-9_]+]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK-NEXT:   %[[OLD:[a-z0-9_]+]] = tensor.extract_slice %[[RTAPE]][%[[ROW]], 0] [1, 3] [1, 1] : tensor<?x3xf32> to tensor<3xf32>
// d v = d h * w; d w += d h * v (the v read back from the tape).
// CHECK-DAG:    %[[DPREV:[a-z0-9_]+]] = trace.mul %[[DV]], %[[RW]]
// CHECK-DAG:    %[[DWI:[a-z0-9_]+]] = trace.mul %[[DV]], %[[OLD]]
// CHECK:        %[[DWNEW:[a-z0-9_]+]] = trace.add %[[DWSUM]], %{{[a-z0-9_]+}}
// CHECK-NEXT:   scf.yield %[[DPREV]], %[[DWNEW]]
// CHECK:      return %[[BACK]]#0, %[[BACK]]#1

// -----

// A do-while whose condition region computes the value it forwards (a `?`
// tensor): the backward pass computes it again from the taped v. An i32
// counter is taped too (the regions are recomputed) but has no cotangent.

func.func @dowhile(%x: tensor<?xf32>, %n: tensor<i32>) -> tensor<f32> {
  %one = trace.constant dense<1> : tensor<i32>
  %r:2 = scf.while (%v = %x, %i = %one) : (tensor<?xf32>, tensor<i32>) -> (tensor<?xf32>, tensor<i32>) {
    %t = trace.sin %v : tensor<?xf32>
    %go = trace.lt %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %b = tensor.extract %go[] : tensor<i1>
    scf.condition(%b) %t, %i : tensor<?xf32>, tensor<i32>
  } do {
  ^bb0(%t: tensor<?xf32>, %i: tensor<i32>):
    %i1 = trace.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    scf.yield %t, %i1 : tensor<?xf32>, tensor<i32>
  }
  %s = trace.reduce_sum %r#0 {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @ddowhile(%x: tensor<?xf32>, %n: tensor<i32>) -> tensor<?xf32> {
  %g = trace.grad @dowhile(%x, %n) {wrt = array<i64: 0>} : (tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
  return %g : tensor<?xf32>
}

// CHECK-LABEL: func.func private @__forward_dowhile(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?xf32>, %{{[a-z0-9_]+}}: tensor<i32>) -> (tensor<f32>, tensor<?xf32>, tensor<?x?xf32>, index, tensor<?xi32>, tensor<i32>)
// Two tapes: v (rows of x's run-time size) and i.
// CHECK:      %[[LEN:[a-z0-9_]+]] = tensor.dim %[[X]], %{{[a-z0-9_]+}} : tensor<?xf32>
// CHECK-NEXT: %[[TV:[a-z0-9_]+]] = tensor.empty(%[[C16:[a-z0-9_]+]], %[[LEN]]) : tensor<?x?xf32>
// CHECK-NEXT: %[[TI:[a-z0-9_]+]] = tensor.empty(%[[C16]]) : tensor<?xi32>
// CHECK:      scf.while (%{{[a-z0-9_]+}} = %[[TV]], %{{[a-z0-9_]+}} = %[[TI]],
// CHECK-NEXT:   scf.while (%[[T0:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[T1:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[N:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[V:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[I:[a-z0-9_]+]] = %{{[a-z0-9_]+}})
// CHECK-NEXT:     %[[SIN:[a-z0-9_]+]] = trace.sin %[[V]]
// A `?` row must keep its size: checked before it is recorded.
// CHECK:          cf.assert %{{[a-z0-9_]+}}, "scf.while gradient: a dynamic dim of a carried value changed size between iterations"
// CHECK-NEXT:     %[[R0:[a-z0-9_]+]] = tensor.insert_slice %[[V]] into %[[T0]][%[[N]], 0] [1, %{{[a-z0-9_]+}}] [1, 1]
// CHECK-NEXT:     %[[R1:[a-z0-9_]+]] = tensor.insert_slice %[[I]] into %[[T1]][%[[N]]] [1] [1] : tensor<i32> into tensor<?xi32>
// The forwarded sin(v) is not taped: the backward pass computes it again.
// CHECK:          scf.condition(%{{[a-z0-9_]+}}) %[[R0]], %[[R1]], %[[N]], %[[SIN]], %[[I]], %{{[a-z0-9_]+}}

// The exiting before execution is swept first, at row count: sin' = cos.
// CHECK-LABEL: func.func private @__backward_dowhile(
// CHECK-SAME: %{{[a-z0-9_]+}}: tensor<?xf32>, %[[RTV:[a-z0-9_]+]]: tensor<?x?xf32>, %[[RN:[a-z0-9_]+]]: index,
// CHECK:      %[[LASTV:[a-z0-9_]+]] = tensor.extract_slice %[[RTV]][%[[RN]], 0]
// CHECK-NEXT: %[[COS:[a-z0-9_]+]] = trace.cos %[[LASTV]]
// CHECK-NEXT: %[[DV:[a-z0-9_]+]] = trace.mul %{{[a-z0-9_]+}}, %[[COS]]
// CHECK:      %[[BACK:[a-z0-9_]+]] = scf.for %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}} to %[[RN]] step %{{[a-z0-9_]+}} iter_args(%[[DA:[a-z0-9_]+]] = %[[DV]]) -> (tensor<?xf32>)
// CHECK:        %[[V:[a-z0-9_]+]] = tensor.extract_slice %[[RTV]]
// CHECK:        %[[C:[a-z0-9_]+]] = trace.cos %[[V]]
// CHECK-NEXT:   %[[D:[a-z0-9_]+]] = trace.mul %[[DA]], %[[C]]
// CHECK-NEXT:   scf.yield %[[D]] : tensor<?xf32>
// CHECK:      return %[[BACK]]
