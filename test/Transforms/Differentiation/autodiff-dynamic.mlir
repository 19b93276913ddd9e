// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s

// Gradients of functions with `?` dims: the rules read sizes from the
// primal values instead of folding them into constants. Numbers are checked
// in unittests/Gradients/DynamicGradientTest.cpp and
// test/Execution/dynamic-autodiff.test.

// A mean over a `?` dim: the cotangent is broadcast back `like` the input
// (no operand dim gives the batch size), and the count is trace.size, read
// at run time. The input becomes a residual for its shape.
func.func @mean(%x: tensor<?x4xf32>) -> tensor<f32> {
  %m = trace.reduce_mean %x {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %m : tensor<f32>
}
func.func @dmean(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %g = trace.grad @mean(%x) {wrt = array<i64: 0>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
// CHECK-LABEL: func.func private @__forward_mean(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x4xf32>) -> (tensor<f32>, tensor<?x4xf32>)
// CHECK: return %{{[a-z0-9_]+}}, %[[X]]
// CHECK-LABEL: func.func private @__backward_mean(
// CHECK-SAME: %[[RX:[a-z0-9_]+]]: tensor<?x4xf32>, %[[DY:[a-z0-9_]+]]: tensor<f32>) -> tensor<?x4xf32>
// CHECK: %[[K:[a-z0-9_]+]] = trace.reshape %[[DY]] : tensor<f32> -> tensor<1x1xf32>
// CHECK: %[[B:[a-z0-9_]+]] = trace.broadcast_to %[[K]] like %[[RX]] : tensor<1x1xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: %[[N:[a-z0-9_]+]] = trace.size %[[RX]] {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
// CHECK: %[[DX:[a-z0-9_]+]] = trace.div %[[B]], %[[N]]
// CHECK: return %[[DX]] : tensor<?x4xf32>

// -----

// A dense layer over a `?` batch: the bias's cotangent sums over the batch
// (a static 1x4 after keepdims); reduce_sum over the static dim keeps the
// `?`, so its cotangent broadcasts without `like`; reduce_max over the
// batch splits dy among the maxima.
func.func @dense(%x: tensor<?x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %h = trace.matmul %x, %w : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  %hb = trace.add %h, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %r = trace.reduce_sum %hb {axes = array<i64: 1>} : tensor<?x4xf32> -> tensor<?xf32>
  %s = trace.reduce_max %r {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @ddense(%x: tensor<?x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<?x3xf32>, tensor<3x4xf32>, tensor<4xf32>) {
  %g:3 = trace.grad @dense(%x, %w, %b) {wrt = array<i64: 0, 1, 2>} : (tensor<?x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> (tensor<?x3xf32>, tensor<3x4xf32>, tensor<4xf32>)
  return %g#0, %g#1, %g#2 : tensor<?x3xf32>, tensor<3x4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func private @__backward_dense(
// CHECK-SAME: %[[W:[a-z0-9_]+]]: tensor<3x4xf32>, %[[X:[a-z0-9_]+]]: tensor<?x3xf32>, %{{[a-z0-9_]+}}: tensor<f32>) -> (tensor<?x3xf32>, tensor<3x4xf32>, tensor<4xf32>)
// CHECK: %[[MASK:[a-z0-9_]+]] = trace.cast %{{[a-z0-9_]+}} : tensor<?xi1> to tensor<?xf32>
// CHECK: %[[TIES:[a-z0-9_]+]] = trace.reduce_sum %[[MASK]] {axes = array<i64: 0>, keepdims} : tensor<?xf32> -> tensor<1xf32>
// CHECK: %[[DR:[a-z0-9_]+]] = trace.mul %[[MASK]], %{{[a-z0-9_]+}} : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
// CHECK: %[[DRK:[a-z0-9_]+]] = trace.reshape %[[DR]] : tensor<?xf32> -> tensor<?x1xf32>
// CHECK: %[[DH:[a-z0-9_]+]] = trace.broadcast_to %[[DRK]] : tensor<?x1xf32> -> tensor<?x4xf32>
// CHECK: %[[DB1:[a-z0-9_]+]] = trace.reduce_sum %[[DH]] {axes = array<i64: 0>, keepdims} : tensor<?x4xf32> -> tensor<1x4xf32>
// CHECK: %[[DB:[a-z0-9_]+]] = trace.reshape %[[DB1]] : tensor<1x4xf32> -> tensor<4xf32>
// CHECK: %[[DX:[a-z0-9_]+]] = trace.matmul %[[DH]], %[[W]] {transpose_b} : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x3xf32>
// CHECK: %[[DW:[a-z0-9_]+]] = trace.matmul %[[X]], %[[DH]] {transpose_a} : (tensor<?x3xf32>, tensor<?x4xf32>) -> tensor<3x4xf32>
// CHECK: return %[[DX]], %[[DW]], %[[DB]]

// -----

// A reshape flattening two `?` dims: its gradient restores them `like` the
// input. A `?` operand added to a static 3x4 gets a 3x4 cotangent, cast
// back to its type.
func.func @flatten(%x: tensor<?x?x4xf32>, %y: tensor<?x4xf32>, %z: tensor<3x4xf32>) -> tensor<f32> {
  %f = trace.reshape %x : tensor<?x?x4xf32> -> tensor<?x4xf32>
  %t = trace.tanh %f : tensor<?x4xf32>
  %p = trace.add %y, %z : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %a = trace.reduce_sum %t {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  %b = trace.reduce_sum %p {axes = array<i64: 0, 1>} : tensor<3x4xf32> -> tensor<f32>
  %s = trace.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dflatten(%x: tensor<?x?x4xf32>, %y: tensor<?x4xf32>, %z: tensor<3x4xf32>) -> (tensor<?x?x4xf32>, tensor<?x4xf32>) {
  %g:2 = trace.grad @flatten(%x, %y, %z) {wrt = array<i64: 0, 1>} : (tensor<?x?x4xf32>, tensor<?x4xf32>, tensor<3x4xf32>) -> (tensor<?x?x4xf32>, tensor<?x4xf32>)
  return %g#0, %g#1 : tensor<?x?x4xf32>, tensor<?x4xf32>
}
// CHECK-LABEL: func.func private @__backward_flatten_wrt_0_1(
// CHECK-SAME: %[[T:[a-z0-9_]+]]: tensor<?x4xf32>, %[[X:[a-z0-9_]+]]: tensor<?x?x4xf32>, %{{[a-z0-9_]+}}: tensor<f32>) -> (tensor<?x?x4xf32>, tensor<?x4xf32>)
// CHECK: %[[DP:[a-z0-9_]+]] = trace.broadcast_to %{{[a-z0-9_]+}} : tensor<1x1xf32> -> tensor<3x4xf32>
// CHECK: %[[DY:[a-z0-9_]+]] = tensor.cast %[[DP]] : tensor<3x4xf32> to tensor<?x4xf32>
// CHECK: %[[DX:[a-z0-9_]+]] = trace.reshape %{{[a-z0-9_]+}} like %[[X]] : tensor<?x4xf32>, tensor<?x?x4xf32> -> tensor<?x?x4xf32>
// CHECK: return %[[DX]], %[[DY]]

// -----

// The zero gradient of an unconnected `?` argument: a scalar zero broadcast
// like it.
func.func @unused(%x: tensor<?x4xf32>, %u: tensor<?x?xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dunused(%x: tensor<?x4xf32>, %u: tensor<?x?xf32>) -> (tensor<?x4xf32>, tensor<?x?xf32>) {
  %g:2 = trace.grad @unused(%x, %u) {wrt = array<i64: 0, 1>, unconnected = #trace.unconnected<zero>} : (tensor<?x4xf32>, tensor<?x?xf32>) -> (tensor<?x4xf32>, tensor<?x?xf32>)
  return %g#0, %g#1 : tensor<?x4xf32>, tensor<?x?xf32>
}
// CHECK-LABEL: func.func private @__backward_unused(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x4xf32>, %[[U:[a-z0-9_]+]]: tensor<?x?xf32>, %{{[a-z0-9_]+}}: tensor<f32>)
// CHECK: %[[ZERO:[a-z0-9_]+]] = trace.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[DU:[a-z0-9_]+]] = trace.broadcast_to %[[ZERO]] like %[[U]] : tensor<f32>, tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: return %{{[a-z0-9_]+}}, %[[DU]]

// -----

// A loop carrying a `?`-shaped value: the tape has one row per trip, each
// of the initial value's run-time size (checked on every iteration), read
// back with that size.
func.func @loop(%x: tensor<?x4xf32>, %n: index) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<?x4xf32>) {
    %t = trace.tanh %h : tensor<?x4xf32>
    scf.yield %t : tensor<?x4xf32>
  }
  %s = trace.reduce_sum %r {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dloop(%x: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
  %g = trace.grad @loop(%x, %n) {wrt = array<i64: 0>} : (tensor<?x4xf32>, index) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
// CHECK-LABEL: func.func private @__forward_loop(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x4xf32>, %{{[a-z0-9_]+}}: index)
// CHECK: %[[ROWS:[a-z0-9_]+]] = tensor.dim %[[X]], %{{[a-z0-9_]+}} : tensor<?x4xf32>
// CHECK: %[[TAPE:[a-z0-9_]+]] = tensor.empty(%[[TRIPS:[a-z0-9_]+]], %[[ROWS]]) : tensor<?x?x4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[H:[a-z0-9_]+]] = %[[X]], %[[T:[a-z0-9_]+]] = %[[TAPE]])
// CHECK: %[[N:[a-z0-9_]+]] = tensor.dim %[[H]], %{{[a-z0-9_]+}} : tensor<?x4xf32>
// CHECK: %[[M:[a-z0-9_]+]] = tensor.dim %[[T]], %{{[a-z0-9_]+}} : tensor<?x?x4xf32>
// CHECK: %[[SAME:[a-z0-9_]+]] = arith.cmpi eq, %[[N]], %[[M]] : index
// CHECK: cf.assert %[[SAME]], "scf.for gradient: a dynamic dim of a carried value changed size between iterations"
// CHECK: tensor.insert_slice %[[H]] into %[[T]][%{{[a-z0-9_]+}}, 0, 0] [1, %[[N]], 4] [1, 1, 1]
// CHECK-LABEL: func.func private @__backward_loop(
// CHECK-SAME: %[[RX:[a-z0-9_]+]]: tensor<?x4xf32>, %{{[a-z0-9_]+}}: index, %[[RTAPE:[a-z0-9_]+]]: tensor<?x?x4xf32>, %{{[a-z0-9_]+}}: tensor<f32>)
// CHECK: trace.broadcast_to %{{[a-z0-9_]+}} like %[[RX]]
// The initial value x is the loop's operand, not a value its body
// captures: no zero cotangent is carried for it.
// CHECK-NOT: trace.broadcast_to
// CHECK: scf.for
// CHECK: %[[ROWS:[a-z0-9_]+]] = tensor.dim %[[RTAPE]], %{{[a-z0-9_]+}} : tensor<?x?x4xf32>
// CHECK: tensor.extract_slice %[[RTAPE]][%{{[a-z0-9_]+}}, 0, 0] [1, %[[ROWS]], 4] [1, 1, 1] : tensor<?x?x4xf32> to tensor<?x4xf32>

// -----

// gather with `?` indices (an embedding lookup over a dynamic batch): the
// cotangent is scattered (trace.scatter_add) into zeros like params.
func.func @emb(%p: tensor<10x3xf32>, %i: tensor<?xi32>) -> tensor<f32> {
  %c = trace.gather %p, %i {axis = 0} : (tensor<10x3xf32>, tensor<?xi32>) -> tensor<?x3xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1>} : tensor<?x3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @demb(%p: tensor<10x3xf32>, %i: tensor<?xi32>) -> tensor<10x3xf32> {
  %g = trace.grad @emb(%p, %i) {wrt = array<i64: 0>} : (tensor<10x3xf32>, tensor<?xi32>) -> tensor<10x3xf32>
  return %g : tensor<10x3xf32>
}
// CHECK-LABEL: func.func private @__backward_emb(
// CHECK-SAME: %[[I:[a-z0-9_]+]]: tensor<?xi32>
// CHECK-NOT: trace.one_hot
// CHECK-NOT: trace.matmul
// CHECK: %[[Z:[a-z0-9_]+]] = trace.constant dense<0.000000e+00> : tensor<10x3xf32>
// CHECK: %[[S:[a-z0-9_]+]] = trace.scatter_add %[[Z]], %[[I]], %{{[a-z0-9_]+}} : (tensor<10x3xf32>, tensor<?xi32>, tensor<?x3xf32>) -> tensor<10x3xf32>
// CHECK: return %[[S]]

// -----

// conv2d over a `?` batch, differentiated with respect to the filter only:
// conv2d_backprop_filter needs only the filter's (static) shape.
func.func @conv(%x: tensor<?x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<f32> {
  %c = trace.conv2d %x, %w : (tensor<?x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<?x3x3x4xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1, 2, 3>} : tensor<?x3x3x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dconv(%x: tensor<?x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<3x3x2x4xf32> {
  %g = trace.grad @conv(%x, %w) {wrt = array<i64: 1>} : (tensor<?x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<3x3x2x4xf32>
  return %g : tensor<3x3x2x4xf32>
}
// CHECK-LABEL: func.func private @__backward_conv_wrt_1(
// CHECK: trace.conv2d_backprop_filter %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {filter_shape = array<i64: 3, 3, 2, 4>} : (tensor<?x5x5x2xf32>, tensor<?x3x3x4xf32>) -> tensor<3x3x2x4xf32>

// -----

// max_pool2d_grad takes the primal input, so its shape follows it.
func.func @pool(%x: tensor<?x4x4x2xf32>) -> tensor<f32> {
  %c = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x4x4x2xf32> -> tensor<?x2x2x2xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1, 2, 3>} : tensor<?x2x2x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dpool(%x: tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32> {
  %g = trace.grad @pool(%x) {wrt = array<i64: 0>} : (tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32>
  return %g : tensor<?x4x4x2xf32>
}
// CHECK-LABEL: func.func private @__backward_pool(
// CHECK: trace.max_pool2d_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<?x4x4x2xf32>, tensor<?x2x2x2xf32>) -> tensor<?x4x4x2xf32>

// -----

// concat along the `?` axis: the offsets are run-time sums, so the
// cotangent is cut with trace.split like the inputs (residuals for their
// shapes).
func.func @cat(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>, %c: tensor<?x3xf32>) -> tensor<f32> {
  %j = trace.concat %a, %b, %c {axis = 0} : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %t = trace.tanh %j : tensor<?x3xf32>
  %s = trace.reduce_sum %t {axes = array<i64: 0, 1>} : tensor<?x3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dcat(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>, %c: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %g:3 = trace.grad @cat(%a, %b, %c) {wrt = array<i64: 0, 1, 2>} : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>)
  return %g#0, %g#1, %g#2 : tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}
// CHECK-LABEL: func.func private @__backward_cat(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<?x3xf32>, %[[B:[a-z0-9_]+]]: tensor<2x3xf32>, %[[C:[a-z0-9_]+]]: tensor<?x3xf32>
// CHECK: %[[P:[a-z0-9_]+]]:3 = trace.split %{{[a-z0-9_]+}} like %[[A]], %[[B]], %[[C]] {axis = 0 : i64} : tensor<?x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
// CHECK: return %[[P]]#0, %[[P]]#1, %[[P]]#2

// -----

// A static window of a `?` operand: the cotangent (static, strided: dilated
// first) is padded back up to the operand's run-time shape, `like` it.
func.func @sl(%x: tensor<?x4xf32>) -> tensor<f32> {
  %c = trace.slice %x {start = array<i64: 1, 0>, limit = array<i64: 2, 4>, strides = array<i64: 1, 2>} : tensor<?x4xf32> -> tensor<1x2xf32>
  %t = trace.tanh %c : tensor<1x2xf32>
  %s = trace.reduce_sum %t {axes = array<i64: 0, 1>} : tensor<1x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dsl(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %g = trace.grad @sl(%x) {wrt = array<i64: 0>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
// CHECK-LABEL: func.func private @__backward_sl(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x4xf32>
// CHECK: %[[D:[a-z0-9_]+]] = trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 1, 3>, start = array<i64: 0, 0>} : tensor<1x4xf32> -> tensor<1x3xf32>
// CHECK: %[[DX:[a-z0-9_]+]] = trace.pad %[[D]] like %[[X]] {low = array<i64: 1, 0>} : tensor<1x3xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: return %[[DX]]

// -----

// pad of a `?` operand: its window is sliced back out `like` it.
func.func @pd(%x: tensor<?x3xf32>) -> tensor<f32> {
  %c = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 2, 1>} : tensor<?x3xf32> -> tensor<?x4xf32>
  %t = trace.tanh %c : tensor<?x4xf32>
  %s = trace.reduce_sum %t {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dpd(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %g = trace.grad @pd(%x) {wrt = array<i64: 0>} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %g : tensor<?x3xf32>
}
// CHECK-LABEL: func.func private @__backward_pd(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x3xf32>
// CHECK: %[[DX:[a-z0-9_]+]] = trace.slice %{{[a-z0-9_]+}} like %[[X]] {start = array<i64: 1, 0>} : tensor<?x4xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
// CHECK: return %[[DX]]

// -----

// conv2d and avg_pool2d with respect to a `?`-batch input: the backprop
// ops take the input's shape from the input itself (`like`).
func.func @convpool(%x: tensor<?x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<f32> {
  %c = trace.conv2d %x, %w : (tensor<?x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<?x3x3x4xf32>
  %p = trace.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x5x5x2xf32> -> tensor<?x2x2x2xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1, 2, 3>} : tensor<?x3x3x4xf32> -> tensor<f32>
  %q = trace.reduce_sum %p {axes = array<i64: 0, 1, 2, 3>} : tensor<?x2x2x2xf32> -> tensor<f32>
  %r = trace.add %s, %q : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @dconvpool(%x: tensor<?x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<?x5x5x2xf32> {
  %g = trace.grad @convpool(%x, %w) {wrt = array<i64: 0>} : (tensor<?x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<?x5x5x2xf32>
  return %g : tensor<?x5x5x2xf32>
}
// CHECK-LABEL: func.func private @__backward_convpool_wrt_0(
// CHECK-DAG: trace.avg_pool2d_grad %{{[a-z0-9_]+}} like %[[X:[a-z0-9_]+]] {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<?x2x2x2xf32>, tensor<?x5x5x2xf32> -> tensor<?x5x5x2xf32>
// CHECK-DAG: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} like %[[X]] : (tensor<3x3x2x4xf32>, tensor<?x3x3x4xf32>, tensor<?x5x5x2xf32>) -> tensor<?x5x5x2xf32>

// -----

// gather from params with `?` rows before the axis, `?` indices, and a `?`
// gathered dim: zeros broadcast like params, then scatter_add (no size
// needs to be static).
func.func @cols(%p: tensor<?x?xf32>, %i: tensor<?xi32>) -> tensor<f32> {
  %c = trace.gather %p, %i {axis = 1} : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  %s = trace.reduce_sum %c {axes = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dcols(%p: tensor<?x?xf32>, %i: tensor<?xi32>) -> tensor<?x?xf32> {
  %g = trace.grad @cols(%p, %i) {wrt = array<i64: 0>} : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %g : tensor<?x?xf32>
}
// CHECK-LABEL: func.func private @__backward_cols(
// CHECK-SAME: %[[P:[a-z0-9_]+]]: tensor<?x?xf32>, %[[I:[a-z0-9_]+]]: tensor<?xi32>
// CHECK: %[[Z:[a-z0-9_]+]] = trace.broadcast_to %{{[a-z0-9_]+}} like %[[P]]
// CHECK: %[[S:[a-z0-9_]+]] = trace.scatter_add %[[Z]], %[[I]], %{{[a-z0-9_]+}} {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: return %[[S]]
