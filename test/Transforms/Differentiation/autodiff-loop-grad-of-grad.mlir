// RUN: tracec-opt --trace-autodiff --canonicalize --cse %s | FileCheck %s

// Reverse-over-reverse through scf.for: the inner gradient's forward
// function tapes the carried value and the matmul's result in its loop
// (tensor.insert_slice), its backward function reads the rows back
// (tensor.extract_slice). The outer
// gradient differentiates both loops again, in linear memory: the tape's
// own carry is taped by its size only (no tape of tapes), and the captured
// tape's cotangent grows one row per iteration, in place.

func.func @loss(%x: tensor<3xf64>, %w: tensor<3x3xf64>, %n: index) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %y = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %r = trace.reshape %h : tensor<3xf64> -> tensor<1x3xf64>
    %m = trace.matmul %r, %w : (tensor<1x3xf64>, tensor<3x3xf64>) -> tensor<1x3xf64>
    %t = trace.tanh %m : tensor<1x3xf64>
    %f = trace.reshape %t : tensor<1x3xf64> -> tensor<3xf64>
    scf.yield %f : tensor<3xf64>
  }
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

func.func @gv(%x: tensor<3xf64>, %w: tensor<3x3xf64>, %n: index, %v: tensor<3x3xf64>) -> tensor<f64> {
  %g = trace.grad @loss(%x, %w, %n) {wrt = array<i64: 1>} : (tensor<3xf64>, tensor<3x3xf64>, index) -> tensor<3x3xf64>
  %p = trace.mul %g, %v : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %s = trace.reduce_sum %p {axes = array<i64: 0, 1>} : tensor<3x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

func.func @hv(%x: tensor<3xf64>, %w: tensor<3x3xf64>, %n: index, %v: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %g = trace.grad @gv(%x, %w, %n, %v) {wrt = array<i64: 1>} : (tensor<3xf64>, tensor<3x3xf64>, index, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %g : tensor<3x3xf64>
}

// The first gradient tapes h and the matmul's result (a contraction, which
// the default policy saves); its backward loop reads both back and does not
// compute the matmul again (checked below, in the order of the output).
// CHECK-LABEL: func.func private @__forward_loss_wrt_1
// CHECK:         scf.for {{.*}} -> (tensor<3xf64>, tensor<?x3xf64>, tensor<?x1x3xf64>)
// CHECK:           %[[M:.*]] = trace.matmul
// CHECK:           tensor.insert_slice %[[M]] into {{.*}} : tensor<1x3xf64> into tensor<?x1x3xf64>

// The inner forward loop again, taping h (its own tape) beside the inner
// gradient's tapes, whose contents it never reads: of those only the
// sizes are taped (an index per iteration), not the whole tapes.
// CHECK-LABEL: func.func private @__forward___forward_loss_wrt_1
// CHECK:         scf.for {{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[TAPE:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, {{.*}}) -> (tensor<3xf64>, tensor<?x3xf64>, tensor<?x1x3xf64>, tensor<?x3xf64>, tensor<?x1xindex>, tensor<?x1xindex>, tensor<?x1x3xf64>)
// CHECK:           tensor.insert_slice {{.*}} : tensor<3xf64> into tensor<?x3xf64>
// CHECK:           %[[ROWS:.*]] = tensor.dim %[[TAPE]], %c0
// CHECK:           %[[SIZES:.*]] = tensor.from_elements %[[ROWS]] : tensor<1xindex>
// CHECK:           tensor.insert_slice %[[SIZES]] into {{.*}} : tensor<1xindex> into tensor<?x1xindex>
// CHECK:           tensor.insert_slice {{.*}} into %[[TAPE]]
// CHECK-NOT:     tensor<?x?x3xf64>
// CHECK-LABEL: func.func private @__backward___forward_loss_wrt_1
// The inner tape's cotangent passes through the loop: each iteration takes
// its row and leaves zeros there.
// CHECK:         scf.for {{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[CT:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, {{.*}}) -> (tensor<3xf64>, tensor<?x3xf64>, tensor<?x1x3xf64>, tensor<3x3xf64>)
// CHECK:           %[[ROW:.*]] = tensor.extract_slice %[[CT]][%{{.*}}, 0] [1, 3] [1, 1] : tensor<?x3xf64> to tensor<3xf64>
// CHECK:           trace.add %{{.*}}, %[[ROW]]
// CHECK:           tensor.insert_slice %{{.*}} into %[[CT]][%{{.*}}, 0] [1, 3] [1, 1]
// CHECK-LABEL: func.func private @__backward_loss_wrt_1
// CHECK:         scf.for
// CHECK:           %[[MT:.*]] = tensor.extract_slice {{.*}} : tensor<?x1x3xf64> to tensor<1x3xf64>
// CHECK-NEXT:      trace.tanh %[[MT]]
// CHECK-NOT:       trace.matmul {{.*}} : (tensor<1x3xf64>, tensor<3x3xf64>) -> tensor<1x3xf64>
// CHECK:           trace.matmul {{.*}} {transpose_b}
// The weight gradient, an outer product (a contraction dim of 1), is a
// multiply (canonicalized).
// CHECK:           trace.mul {{.*}} : (tensor<3x1xf64>, tensor<1x3xf64>) -> tensor<3x3xf64>
// CHECK-LABEL: func.func private @__backward___backward_loss_wrt_1
// The captured tape's cotangent: one row added per iteration, in place.
// CHECK:         scf.for {{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[SUM:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, {{.*}}) -> (tensor<3xf64>, tensor<?x3xf64>, tensor<?x1x3xf64>, tensor<3x3xf64>)
// CHECK:           %[[OLD:.*]] = tensor.extract_slice %[[SUM]][%[[R:.*]], 0] [1, 3] [1, 1]
// CHECK:           %[[NEW:.*]] = trace.add %[[OLD]], %{{.*}} : (tensor<3xf64>, tensor<3xf64>)
// CHECK:           tensor.insert_slice %[[NEW]] into %[[SUM]][%[[R]], 0] [1, 3] [1, 1]
