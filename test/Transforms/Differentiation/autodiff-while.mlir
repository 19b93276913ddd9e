// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// scf.while: the forward loop carries a count, a capacity and a tape of the
// carried value besides the value itself; the tape starts empty and, when
// the count reaches the capacity, is copied into one twice as large (at
// least 16 rows). The backward function sweeps the exiting condition
// (row count), then runs count after/before pairs in reverse.

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
// CHECK:      %[[EMPTY:[a-z0-9_]+]] = tensor.empty(%{{[a-z0-9_]+}}) : tensor<?x3xf32>
// CHECK-NEXT: %[[LOOP:[a-z0-9_]+]]:4 = scf.while (%[[V:[a-z0-9_]+]] = %[[X]], %[[N:[a-z0-9_]+]] = %[[C0:[a-z0-9_]+]], %[[CAP:[a-z0-9_]+]] = %[[C0]], %[[TAPE:[a-z0-9_]+]] = %[[EMPTY]]) : (tensor<3xf32>, index, index, tensor<?x3xf32>) -> (tensor<3xf32>, index, index, tensor<?x3xf32>) {
// CHECK:        %[[GO:[a-z0-9_]+]] = tensor.extract
// Full: a tape of max(2 capacity, 16) rows, the old rows copied in.
// CHECK-NEXT:   %[[FULL:[a-z0-9_]+]] = arith.cmpi eq, %[[N]], %[[CAP]] : index
// CHECK-NEXT:   %[[GROWN:[a-z0-9_]+]]:2 = scf.if %[[FULL]] -> (index, tensor<?x3xf32>) {
// CHECK:          %[[TWICE:[a-z0-9_]+]] = arith.muli %[[CAP]], %{{[a-z0-9_]+}} : index
// CHECK:          %[[NEWCAP:[a-z0-9_]+]] = arith.maxsi %[[TWICE]], %{{[a-z0-9_]+}} : index
// CHECK-NEXT:     %[[BIGGER:[a-z0-9_]+]] = tensor.empty(%[[NEWCAP]]) : tensor<?x3xf32>
// CHECK:          %[[OLDROWS:[a-z0-9_]+]] = tensor.dim %[[TAPE]], %{{[a-z0-9_]+}} : tensor<?x3xf32>
// CHECK-NEXT:     %[[COPY:[a-z0-9_]+]] = tensor.insert_slice %[[TAPE]] into %[[BIGGER]][0, 0] [%[[OLDROWS]], 3] [1, 1]
// CHECK-NEXT:     scf.yield %[[NEWCAP]], %[[COPY]] : index, tensor<?x3xf32>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.yield %[[CAP]], %[[TAPE]] : index, tensor<?x3xf32>
// CHECK-NEXT:   }
// Row count: this execution's v.
// CHECK-NEXT:   %[[REC:[a-z0-9_]+]] = tensor.insert_slice %[[V]] into %[[GROWN]]#1[%[[N]], 0] [1, 3] [1, 1]
// CHECK-NEXT:   scf.condition(%[[GO]]) %[[V]], %[[N]], %[[GROWN]]#0, %[[REC]] : tensor<3xf32>, index, index, tensor<?x3xf32>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[AV:[a-z0-9_]+]]: tensor<3xf32>, %[[AN:[a-z0-9_]+]]: index, %[[ACAP:[a-z0-9_]+]]: index, %[[ATAPE:[a-z0-9_]+]]: tensor<?x3xf32>):
// CHECK-NEXT:   %[[H:[a-z0-9_]+]] = trace.mul %[[AV]], %[[W]]
// CHECK-NEXT:   %[[ONE:[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:   %[[NEXT:[a-z0-9_]+]] = arith.addi %[[AN]], %[[ONE]] : index
// CHECK-NEXT:   scf.yield %[[H]], %[[NEXT]], %[[ACAP]], %[[ATAPE]]
// CHECK:      return %{{[a-z0-9_]+}}, %[[LOOP]]#1, %[[LOOP]]#3, %[[W]] :

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
// tensor): that value gets a tape of its own, whose `?` row size is the
// recorded value's at the first growth and the old tape's after it. An i32
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
// CHECK-SAME: -> (tensor<f32>, tensor<?xf32>, tensor<?x?xf32>, index, tensor<?xi32>, tensor<?x?xf32>, tensor<i32>)
// Three tapes: v, i (the before arguments) and sin(v) (computed by before).
// CHECK:      %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[TV:[a-z0-9_]+]] = tensor.empty(%[[C0]], %[[C0]]) : tensor<?x?xf32>
// CHECK-NEXT: %[[TI:[a-z0-9_]+]] = tensor.empty(%[[C0]]) : tensor<?xi32>
// CHECK-NEXT: %[[TT:[a-z0-9_]+]] = tensor.empty(%[[C0]], %[[C0]]) : tensor<?x?xf32>
// CHECK:      scf.while (%[[V:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[I:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[N:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[CAP:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[T0:[a-z0-9_]+]] = %[[TV]], %[[T1:[a-z0-9_]+]] = %[[TI]], %[[T2:[a-z0-9_]+]] = %[[TT]])
// CHECK-NEXT:   %[[SIN:[a-z0-9_]+]] = trace.sin %[[V]]
// CHECK:        %[[GROWN:[a-z0-9_]+]]:4 = scf.if
// The `?` row size: the value's at the first growth (capacity 0), else the
// old tape's.
// CHECK:          %[[FIRST:[a-z0-9_]+]] = arith.cmpi eq, %[[CAP]], %{{[a-z0-9_]+}} : index
// CHECK:          %[[VDIM:[a-z0-9_]+]] = tensor.dim %[[V]], %{{[a-z0-9_]+}} : tensor<?xf32>
// CHECK-NEXT:     %{{[a-z0-9_]+}} = arith.constant 1 : index
// CHECK-NEXT:     %[[TDIM:[a-z0-9_]+]] = tensor.dim %[[T0]], %{{[a-z0-9_]+}} : tensor<?x?xf32>
// CHECK-NEXT:     %{{[a-z0-9_]+}} = arith.select %[[FIRST]], %[[VDIM]], %[[TDIM]] : index
// CHECK:        cf.assert %{{[a-z0-9_]+}}, "scf.while gradient: a dynamic dim of a carried value changed size between iterations"
// CHECK-NEXT:   %[[R0:[a-z0-9_]+]] = tensor.insert_slice %[[V]] into %[[GROWN]]#1[%[[N]], 0] [1, %{{[a-z0-9_]+}}] [1, 1]
// CHECK-NEXT:   %[[R1:[a-z0-9_]+]] = tensor.insert_slice %[[I]] into %[[GROWN]]#2[%[[N]]] [1] [1] : tensor<i32> into tensor<?xi32>
// CHECK:        %[[R2:[a-z0-9_]+]] = tensor.insert_slice %[[SIN]] into %[[GROWN]]#3[%[[N]], 0]
// CHECK-NEXT:   scf.condition(%{{[a-z0-9_]+}}) %[[SIN]], %[[I]], %[[N]], %[[GROWN]]#0, %[[R0]], %[[R1]], %[[R2]]

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
