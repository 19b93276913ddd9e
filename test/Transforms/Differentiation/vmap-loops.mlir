// RUN: tracec-opt %s --trace-vmap -split-input-file | FileCheck %s

// A loop with the same trip count for every example stays one loop, its
// body batched. The carry that starts unbatched (%acc, zeros) becomes
// batched in the body (it adds %x): it is batched throughout; the one that
// only reads unbatched values (%w) stays unbatched, computed once.

func.func private @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = trace.constant dense<0.0> : tensor<4xf32>
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero, %v = %w) -> (tensor<4xf32>, tensor<4xf32>) {
    %a = trace.add %acc, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %t = trace.tanh %v : tensor<4xf32>
    scf.yield %a, %t : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

func.func @caller(%xs: tensor<8x4xf32>, %w: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %r:2 = trace.vmap @f(%xs, %w) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0, 0>} : (tensor<8x4xf32>, tensor<4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
  return %r#0, %r#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// CHECK-LABEL: func.func private @__vmap_f_bu_8
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4xf32>, %[[W:.*]]: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>)
// CHECK:         %[[ZERO:.*]] = trace.broadcast_to {{.*}} -> tensor<8x4xf32>
// CHECK:         %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]], %[[V:.*]] = %[[W]]) -> (tensor<8x4xf32>, tensor<4xf32>)
// CHECK:           trace.add %[[ACC]], %[[X]] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK:           trace.tanh %[[V]] : tensor<4xf32>
// CHECK:         return %[[R]]#0, %[[R]]#1 : tensor<8x4xf32>, tensor<4xf32>
// The unbatched result is repeated for the caller.
// CHECK-LABEL: func.func @caller
// CHECK:         %[[B:.*]]:2 = call @__vmap_f_bu_8
// CHECK:         trace.broadcast_to %[[B]]#1 {{.*}} -> tensor<8x4xf32>

// -----

// A trip count per example: the loop runs once per example (the fallback
// for what no rule covers), each example's values sliced out and its
// results stacked.

func.func private @f(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.extract %n[] : tensor<i32>
  %ub = arith.index_cast %e : i32 to index
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%a = %x) -> tensor<f32> {
    %t = trace.exp %a : tensor<f32>
    scf.yield %t : tensor<f32>
  }
  return %r : tensor<f32>
}

func.func @caller(%xs: tensor<8xf32>, %ns: tensor<8xi32>) -> tensor<8xf32> {
  %r = trace.vmap @f(%xs, %ns) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func private @__vmap_f_bb_8
// CHECK-SAME:    (%[[X:.*]]: tensor<8xf32>, %[[N:.*]]: tensor<8xi32>)
// The trip count per example is a batched scalar (a rank-1 tensor), so the
// index cast runs per example too.
// CHECK:         scf.for %[[I:.*]] = %c0{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args(%[[S:.*]] = {{.*}}) -> (tensor<8xindex>)
// CHECK:           %[[NI:.*]] = tensor.extract %[[N]][%[[I]]] : tensor<8xi32>
// CHECK:           arith.index_cast %[[NI]]
// CHECK:         %[[R:.*]] = scf.for %[[J:.*]] = %c0{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args(%[[T:.*]] = {{.*}}) -> (tensor<8xf32>)
// CHECK:           %[[UB:.*]] = tensor.extract {{.*}}[%[[J]]] : tensor<8xindex>
// CHECK:           %[[XJ:.*]] = tensor.extract_slice %[[X]][%[[J]]] [1] [1] : tensor<8xf32> to tensor<f32>
// CHECK:           %[[L:.*]] = scf.for {{.*}} to %[[UB]] {{.*}} iter_args(%{{.*}} = %[[XJ]]) -> (tensor<f32>)
// CHECK:             trace.exp
// CHECK:           tensor.insert_slice %[[L]] into %[[T]][%[[J]]] [1] [1] : tensor<f32> into tensor<8xf32>
// CHECK:         return %[[R]] : tensor<8xf32>

// -----

// An op without a rule (scatter_add into a table per example) runs once
// per example; the unbatched operands are read as they are.

func.func private @f(%x: tensor<4xf32>, %i: tensor<2xi32>, %u: tensor<2xf32>) -> tensor<4xf32> {
  %g = trace.scatter_add %x, %i, %u : (tensor<4xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

func.func @caller(%xs: tensor<8x4xf32>, %i: tensor<2xi32>, %u: tensor<2xf32>) -> tensor<8x4xf32> {
  %g = trace.vmap @f(%xs, %i, %u) {in_axes = array<i64: 0, -1, -1>, out_axes = array<i64: 0>} : (tensor<8x4xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<8x4xf32>
  return %g : tensor<8x4xf32>
}

// CHECK-LABEL: func.func private @__vmap_f_buu_8
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4xf32>, %[[I:.*]]: tensor<2xi32>, %[[U:.*]]: tensor<2xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK:         %[[R:.*]] = scf.for %[[B:.*]] = {{.*}} iter_args(%[[S:.*]] = %[[EMPTY]]) -> (tensor<8x4xf32>)
// CHECK:           %[[XB:.*]] = tensor.extract_slice %[[X]][%[[B]], 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
// CHECK:           %[[G:.*]] = trace.scatter_add %[[XB]], %[[I]], %[[U]]
// CHECK:           %[[P:.*]] = tensor.insert_slice %[[G]] into %[[S]][%[[B]], 0] [1, 4] [1, 1]
// CHECK:           scf.yield %[[P]]
// CHECK:         return %[[R]]

// -----

// gather with a table and indices per example: one gather per example.

func.func private @f(%x: tensor<4xf32>, %i: tensor<2xi32>) -> tensor<2xf32> {
  %g = trace.gather %x, %i : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}

func.func @caller(%xs: tensor<8x4xf32>, %i: tensor<8x2xi32>) -> tensor<8x2xf32> {
  %g = trace.vmap @f(%xs, %i) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>} : (tensor<8x4xf32>, tensor<8x2xi32>) -> tensor<8x2xf32>
  return %g : tensor<8x2xf32>
}

// CHECK-LABEL: func.func private @__vmap_f_bb_8
// CHECK:         scf.for
// CHECK:           %[[XB:.*]] = tensor.extract_slice {{.*}} : tensor<8x4xf32> to tensor<4xf32>
// CHECK:           %[[IB:.*]] = tensor.extract_slice {{.*}} : tensor<8x2xi32> to tensor<2xi32>
// CHECK:           trace.gather %[[XB]], %[[IB]] : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>

// -----

// A while loop whose condition is the same for every example (a counter)
// stays one loop; one whose condition varies per example runs once per
// example.

func.func private @f(%x: tensor<3xf64>, %k: tensor<i64>) -> tensor<3xf64> {
  %r:2 = scf.while (%v = %x, %i = %k) : (tensor<3xf64>, tensor<i64>) -> (tensor<3xf64>, tensor<i64>) {
    %four = trace.constant dense<4> : tensor<i64>
    %c = trace.lt %i, %four : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %b = tensor.extract %c[] : tensor<i1>
    scf.condition(%b) %v, %i : tensor<3xf64>, tensor<i64>
  } do {
  ^bb0(%w: tensor<3xf64>, %j: tensor<i64>):
    %s = trace.sin %w : tensor<3xf64>
    %one = trace.constant dense<1> : tensor<i64>
    %n = trace.add %j, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    scf.yield %s, %n : tensor<3xf64>, tensor<i64>
  }
  return %r#0 : tensor<3xf64>
}

func.func private @g(%x: tensor<f64>) -> tensor<f64> {
  %r = scf.while (%v = %x) : (tensor<f64>) -> tensor<f64> {
    %one = trace.constant dense<1.0> : tensor<f64>
    %c = trace.gt %v, %one : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %b = tensor.extract %c[] : tensor<i1>
    scf.condition(%b) %v : tensor<f64>
  } do {
  ^bb0(%w: tensor<f64>):
    %two = trace.constant dense<2.0> : tensor<f64>
    %h = trace.div %w, %two : (tensor<f64>, tensor<f64>) -> tensor<f64>
    scf.yield %h : tensor<f64>
  }
  return %r : tensor<f64>
}

func.func @caller(%xs: tensor<8x3xf64>, %k: tensor<i64>, %ys: tensor<8xf64>) -> (tensor<8x3xf64>, tensor<8xf64>) {
  %r = trace.vmap @f(%xs, %k) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>} : (tensor<8x3xf64>, tensor<i64>) -> tensor<8x3xf64>
  %s = trace.vmap @g(%ys) {in_axes = array<i64: 0>, out_axes = array<i64: 0>} : (tensor<8xf64>) -> tensor<8xf64>
  return %r, %s : tensor<8x3xf64>, tensor<8xf64>
}

// CHECK-LABEL: func.func private @__vmap_f_bu_8
// CHECK:         scf.while ({{.*}}) : (tensor<8x3xf64>, tensor<i64>) -> (tensor<8x3xf64>, tensor<i64>)
// CHECK:           trace.lt {{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK:         } do {
// CHECK:           trace.sin {{.*}} : tensor<8x3xf64>
// CHECK-LABEL: func.func private @__vmap_g_b_8
// CHECK:         scf.for %[[B:[a-z0-9_]+]] = {{.*}} -> (tensor<8xf64>)
// CHECK:           %[[Y:.*]] = tensor.extract_slice %{{.*}}[%[[B]]] [1] [1] : tensor<8xf64> to tensor<f64>
// CHECK:           scf.while ({{.*}} = %[[Y]]) : (tensor<f64>) -> tensor<f64>

// -----

// A loop inside a loop's body that reads nothing batched stays as it is
// when the outer body is emitted again (its carry turned out batched).

func.func private @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = trace.constant dense<0.0> : tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (tensor<4xf32>) {
    %t = scf.for %j = %c0 to %c3 step %c1 iter_args(%v = %w) -> (tensor<4xf32>) {
      %s = trace.tanh %v : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    %a = trace.add %acc, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %b = trace.add %a, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @caller(%xs: tensor<8x4xf32>, %w: tensor<4xf32>) -> tensor<8x4xf32> {
  %r = trace.vmap @f(%xs, %w) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>} : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// CHECK-LABEL: func.func private @__vmap_f_bu_8
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4xf32>, %[[W:.*]]: tensor<4xf32>)
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<8x4xf32>)
// CHECK:           %[[T:.*]] = scf.for {{.*}} iter_args(%[[V:.*]] = %[[W]]) -> (tensor<4xf32>)
// CHECK:             trace.tanh %[[V]] : tensor<4xf32>
// CHECK:           %[[A:.*]] = trace.add %[[ACC]], %[[X]]
// CHECK:           trace.add %[[A]], %[[T]] : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
