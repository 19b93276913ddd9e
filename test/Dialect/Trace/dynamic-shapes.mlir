// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// Every op of the dialect at dynamic (`?`) dims. The ops that infer their
// result type are verified against the inferred one exactly (a less static
// result type is rejected, see dynamic-shapes-invalid.mlir), so each result
// type written here is the one inference gives: static wherever the operands
// fix the size. The rule (DESIGN.md, "Dynamic dims"): a `?` never
// broadcasts implicitly, only a static 1 does; `?` vs N gives N and `?` vs
// `?` gives `?`, both checked at run time.

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<?x4xf32>, %i: tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi32>) {
  // CHECK: trace.exp %{{[a-z0-9_]+}} : tensor<?x4xf32>
  %0 = trace.exp %x : tensor<?x4xf32>
  // CHECK: trace.stop_gradient %{{[a-z0-9_]+}} : tensor<?x4xf32>
  %1 = trace.stop_gradient %0 : tensor<?x4xf32>
  // CHECK: trace.relu %{{[a-z0-9_]+}} : tensor<?xi32>
  %2 = trace.relu %i : tensor<?xi32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi32>
}

// CHECK-LABEL: func.func @binary_broadcast
func.func @binary_broadcast(%a: tensor<?x4xf32>, %b: tensor<8x4xf32>, %c: tensor<4xf32>, %d: tensor<1x4xf32>, %e: tensor<?x1xf32>, %f: tensor<?x?xf32>, %g: tensor<8x?xf32>, %h: tensor<?xf32>, %s: tensor<f32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x4xf32>, tensor<?x?xf32>, tensor<?x4xf32>) {
  // `?` vs 8: the result is 8 (the `?` must be 8 at run time).
  // CHECK: trace.add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %0 = trace.add %a, %b : (tensor<?x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK: trace.sub %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<8x4xf32>, tensor<?x4xf32>) -> tensor<8x4xf32>
  %1 = trace.sub %b, %a : (tensor<8x4xf32>, tensor<?x4xf32>) -> tensor<8x4xf32>
  // A missing leading dim broadcasts (rank broadcast).
  // CHECK: trace.mul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %2 = trace.mul %a, %c : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  // A static 1 broadcasts against `?`.
  // CHECK: trace.div %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %3 = trace.div %a, %d : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  // dim 0: `?` vs `?` (equal at run time); dim 1: 4 vs a static 1.
  // CHECK: trace.pow %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %4 = trace.pow %a, %e : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  // CHECK: trace.max %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %5 = trace.max %f, %f : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  // CHECK: trace.min %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<8x?xf32>, tensor<?x1xf32>) -> tensor<8x?xf32>
  %6 = trace.min %g, %e : (tensor<8x?xf32>, tensor<?x1xf32>) -> tensor<8x?xf32>
  // Each dim takes the static size wherever one operand has it.
  // CHECK: trace.add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<8x?xf32>, tensor<?x4xf32>) -> tensor<8x4xf32>
  %7 = trace.add %g, %a : (tensor<8x?xf32>, tensor<?x4xf32>) -> tensor<8x4xf32>
  // CHECK: trace.add %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %8 = trace.add %f, %h : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  // CHECK: trace.mul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<f32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %9 = trace.mul %s, %a : (tensor<f32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x4xf32>, tensor<?x?xf32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @compare_select_cast
func.func @compare_select_cast(%a: tensor<?x4xf32>, %b: tensor<8x1xf32>, %c: tensor<?x1xi1>, %t: tensor<4xf32>, %i: tensor<?x?xi32>, %k: tensor<?xi1>, %p: tensor<?x2xf32>, %q: tensor<3x?xf32>) -> (tensor<8x4xi1>, tensor<?x4xf32>, tensor<?x4xi32>, tensor<?x?xi1>, tensor<3x2xf32>) {
  // CHECK: trace.lt %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x4xf32>, tensor<8x1xf32>) -> tensor<8x4xi1>
  %0 = trace.lt %a, %b : (tensor<?x4xf32>, tensor<8x1xf32>) -> tensor<8x4xi1>
  // CHECK: trace.select %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x1xi1>, tensor<4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = trace.select %c, %t, %a : (tensor<?x1xi1>, tensor<4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  // CHECK: trace.cast %{{[a-z0-9_]+}} : tensor<?x4xf32> to tensor<?x4xi32>
  %2 = trace.cast %a : tensor<?x4xf32> to tensor<?x4xi32>
  // CHECK: trace.eq %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi1>
  %3 = trace.eq %i, %i : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi1>
  // cond `?` vs 2 (run-time check), then vs 3 from on_false.
  // CHECK: trace.select %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?xi1>, tensor<?x2xf32>, tensor<3x?xf32>) -> tensor<3x2xf32>
  %4 = trace.select %k, %p, %q : (tensor<?xi1>, tensor<?x2xf32>, tensor<3x?xf32>) -> tensor<3x2xf32>
  return %0, %1, %2, %3, %4 : tensor<8x4xi1>, tensor<?x4xf32>, tensor<?x4xi32>, tensor<?x?xi1>, tensor<3x2xf32>
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%x: tensor<?x784xf32>, %w: tensor<784x10xf32>, %a: tensor<8x?xf32>, %b: tensor<?x10xf32>, %c: tensor<?x3x?xf32>, %d: tensor<5x?x2xf32>, %e: tensor<?x3xf32>, %f: tensor<?x2xf32>, %g: tensor<1x4x3xf32>, %k: tensor<?x3x2xf32>) -> (tensor<?x10xf32>, tensor<8x10xf32>, tensor<5x3x2xf32>, tensor<3x2xf32>, tensor<?x4x2xf32>) {
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x784xf32>, tensor<784x10xf32>) -> tensor<?x10xf32>
  %0 = trace.matmul %x, %w : (tensor<?x784xf32>, tensor<784x10xf32>) -> tensor<?x10xf32>
  // Two `?` contraction dims: equal at run time.
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<8x?xf32>, tensor<?x10xf32>) -> tensor<8x10xf32>
  %1 = trace.matmul %a, %b : (tensor<8x?xf32>, tensor<?x10xf32>) -> tensor<8x10xf32>
  // Batch `?` vs 5 gives 5, as elementwise broadcasting does.
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x3x?xf32>, tensor<5x?x2xf32>) -> tensor<5x3x2xf32>
  %2 = trace.matmul %c, %d : (tensor<?x3x?xf32>, tensor<5x?x2xf32>) -> tensor<5x3x2xf32>
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {transpose_a} : (tensor<?x3xf32>, tensor<?x2xf32>) -> tensor<3x2xf32>
  %3 = trace.matmul %e, %f {transpose_a} : (tensor<?x3xf32>, tensor<?x2xf32>) -> tensor<3x2xf32>
  // A static batch 1 broadcasts against `?`.
  // CHECK: trace.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<1x4x3xf32>, tensor<?x3x2xf32>) -> tensor<?x4x2xf32>
  %4 = trace.matmul %g, %k : (tensor<1x4x3xf32>, tensor<?x3x2xf32>) -> tensor<?x4x2xf32>
  return %0, %1, %2, %3, %4 : tensor<?x10xf32>, tensor<8x10xf32>, tensor<5x3x2xf32>, tensor<3x2xf32>, tensor<?x4x2xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<?x4xf32>, %i: tensor<?x?xi32>) -> (tensor<4xf32>, tensor<?x1xf32>, tensor<f32>, tensor<?xi32>, tensor<1x?xi32>, tensor<?xi32>, tensor<4xi64>, tensor<?x4xf32>, tensor<?x4xf32>) {
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<4xf32>
  %0 = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<?x4xf32> -> tensor<4xf32>
  // keepdims keeps a reduced `?` as a static 1.
  // CHECK: trace.reduce_mean %{{[a-z0-9_]+}} {axes = array<i64: -1>, keepdims} : tensor<?x4xf32> -> tensor<?x1xf32>
  %1 = trace.reduce_mean %x {axes = array<i64: -1>, keepdims} : tensor<?x4xf32> -> tensor<?x1xf32>
  // CHECK: trace.reduce_max %{{[a-z0-9_]+}} {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  %2 = trace.reduce_max %x {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  // CHECK: trace.reduce_min %{{[a-z0-9_]+}} {axes = array<i64: 1>} : tensor<?x?xi32> -> tensor<?xi32>
  %3 = trace.reduce_min %i {axes = array<i64: 1>} : tensor<?x?xi32> -> tensor<?xi32>
  // CHECK: trace.reduce_prod %{{[a-z0-9_]+}} {axes = array<i64: 0>, keepdims} : tensor<?x?xi32> -> tensor<1x?xi32>
  %4 = trace.reduce_prod %i {axes = array<i64: 0>, keepdims} : tensor<?x?xi32> -> tensor<1x?xi32>
  // CHECK: trace.reduce_sum %{{[a-z0-9_]+}} {axes = array<i64: 0>} : tensor<?x?xi32> -> tensor<?xi32>
  %5 = trace.reduce_sum %i {axes = array<i64: 0>} : tensor<?x?xi32> -> tensor<?xi32>
  // CHECK: trace.argmax %{{[a-z0-9_]+}} {axis = 0 : i64} : tensor<?x4xf32> -> tensor<4xi64>
  %6 = trace.argmax %x {axis = 0} : tensor<?x4xf32> -> tensor<4xi64>
  // CHECK: trace.softmax %{{[a-z0-9_]+}} {axis = 0 : i64} : tensor<?x4xf32>
  %7 = trace.softmax %x {axis = 0} : tensor<?x4xf32>
  // CHECK: trace.log_softmax %{{[a-z0-9_]+}} : tensor<?x4xf32>
  %8 = trace.log_softmax %x : tensor<?x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xf32>, tensor<?x1xf32>, tensor<f32>, tensor<?xi32>, tensor<1x?xi32>, tensor<?xi32>, tensor<4xi64>, tensor<?x4xf32>, tensor<?x4xf32>
}

// reshape: a `?` in the result is NumPy's -1 (at most one, inferred from the
// element count); a static result from a `?` operand is checked at run time.
// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<?x4xf32>, %y: tensor<2x6xf32>, %z: tensor<?x?xf32>) -> (tensor<?x2x2xf32>, tensor<16xf32>, tensor<?xf32>, tensor<?xf32>, tensor<3x?xf32>) {
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x4xf32> -> tensor<?x2x2xf32>
  %0 = trace.reshape %x : tensor<?x4xf32> -> tensor<?x2x2xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x4xf32> -> tensor<16xf32>
  %1 = trace.reshape %x : tensor<?x4xf32> -> tensor<16xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<2x6xf32> -> tensor<?xf32>
  %2 = trace.reshape %y : tensor<2x6xf32> -> tensor<?xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x?xf32> -> tensor<?xf32>
  %3 = trace.reshape %z : tensor<?x?xf32> -> tensor<?xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x?xf32> -> tensor<3x?xf32>
  %4 = trace.reshape %z : tensor<?x?xf32> -> tensor<3x?xf32>
  return %0, %1, %2, %3, %4 : tensor<?x2x2xf32>, tensor<16xf32>, tensor<?xf32>, tensor<?xf32>, tensor<3x?xf32>
}

// broadcast_to: a `?` result dim takes its size from a `?` operand dim; a
// `?` operand dim against a static result dim must equal it at run time.
// CHECK-LABEL: func.func @transpose_broadcast
func.func @transpose_broadcast(%x: tensor<?x4xf32>, %y: tensor<?x1xf32>, %v: tensor<?xf32>, %o: tensor<1x4xf32>) -> (tensor<4x?xf32>, tensor<?x4xf32>, tensor<8x4xf32>, tensor<3x?xf32>, tensor<8x4xf32>) {
  // CHECK: trace.transpose %{{[a-z0-9_]+}} {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  %0 = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<?x1xf32> -> tensor<?x4xf32>
  %1 = trace.broadcast_to %y : tensor<?x1xf32> -> tensor<?x4xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<?x4xf32> -> tensor<8x4xf32>
  %2 = trace.broadcast_to %x : tensor<?x4xf32> -> tensor<8x4xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<?xf32> -> tensor<3x?xf32>
  %3 = trace.broadcast_to %v : tensor<?xf32> -> tensor<3x?xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<1x4xf32> -> tensor<8x4xf32>
  %4 = trace.broadcast_to %o : tensor<1x4xf32> -> tensor<8x4xf32>
  return %0, %1, %2, %3, %4 : tensor<4x?xf32>, tensor<?x4xf32>, tensor<8x4xf32>, tensor<3x?xf32>, tensor<8x4xf32>
}

// concat: the axis dim is `?` if any input's is; the other dims take the
// size of any input where it is static (the `?` ones are checked at run time).
// CHECK-LABEL: func.func @concat
func.func @concat(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>, %c: tensor<?x?xf32>, %d: tensor<4x?xf32>) -> (tensor<?x3xf32>, tensor<2x?xf32>, tensor<?x3xf32>, tensor<?x?xf32>) {
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %0 = trace.concat %a, %b {axis = 0} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 1 : i64} : (tensor<?x?xf32>, tensor<2x3xf32>) -> tensor<2x?xf32>
  %1 = trace.concat %c, %b {axis = 1} : (tensor<?x?xf32>, tensor<2x3xf32>) -> tensor<2x?xf32>
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : (tensor<4x?xf32>, tensor<?x3xf32>, tensor<?x?xf32>) -> tensor<?x3xf32>
  %2 = trace.concat %d, %a, %c {axis = 0} : (tensor<4x?xf32>, tensor<?x3xf32>, tensor<?x?xf32>) -> tensor<?x3xf32>
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = -1 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = trace.concat %c, %c {axis = -1} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1, %2, %3 : tensor<?x3xf32>, tensor<2x?xf32>, tensor<?x3xf32>, tensor<?x?xf32>
}

// slice sizes come from the attributes (static; `limit <= dim` is checked
// at run time for a `?` dim); pad keeps a `?` dim `?`.
// CHECK-LABEL: func.func @slice_pad
func.func @slice_pad(%x: tensor<?x4xf32>) -> (tensor<3x2xf32>, tensor<100x4xf32>, tensor<?x6xf32>) {
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 4, 4>, start = array<i64: 1, 0>, strides = array<i64: 1, 2>} : tensor<?x4xf32> -> tensor<3x2xf32>
  %0 = trace.slice %x {start = array<i64: 1, 0>, limit = array<i64: 4, 4>, strides = array<i64: 1, 2>} : tensor<?x4xf32> -> tensor<3x2xf32>
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 100, 4>, start = array<i64: 0, 0>} : tensor<?x4xf32> -> tensor<100x4xf32>
  %1 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 100, 4>} : tensor<?x4xf32> -> tensor<100x4xf32>
  // CHECK: trace.pad %{{[a-z0-9_]+}} {high = array<i64: 0, 1>, low = array<i64: 3, 1>} : tensor<?x4xf32> -> tensor<?x6xf32>
  %2 = trace.pad %x {low = array<i64: 3, 1>, high = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<?x6xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<100x4xf32>, tensor<?x6xf32>
}

// CHECK-LABEL: func.func @gather_one_hot
func.func @gather_one_hot(%p: tensor<?x3xf32>, %i: tensor<4xi32>, %q: tensor<5x?xf32>, %j: tensor<?x2xi64>, %k: tensor<?xi32>) -> (tensor<4x3xf32>, tensor<?x2x?xf32>, tensor<5x?xf32>, tensor<?x3xf32>, tensor<3x?xf16>) {
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %0 = trace.gather %p, %i : (tensor<?x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<5x?xf32>, tensor<?x2xi64>) -> tensor<?x2x?xf32>
  %1 = trace.gather %q, %j : (tensor<5x?xf32>, tensor<?x2xi64>) -> tensor<?x2x?xf32>
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 1 : i64} : (tensor<5x?xf32>, tensor<?xi32>) -> tensor<5x?xf32>
  %2 = trace.gather %q, %k {axis = 1} : (tensor<5x?xf32>, tensor<?xi32>) -> tensor<5x?xf32>
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {depth = 3 : i64} : tensor<?xi32> -> tensor<?x3xf32>
  %3 = trace.one_hot %k {depth = 3} : tensor<?xi32> -> tensor<?x3xf32>
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {axis = 0 : i64, depth = 3 : i64} : tensor<?xi32> -> tensor<3x?xf16>
  %4 = trace.one_hot %k {depth = 3, axis = 0} : tensor<?xi32> -> tensor<3x?xf16>
  return %0, %1, %2, %3, %4 : tensor<4x3xf32>, tensor<?x2x?xf32>, tensor<5x?xf32>, tensor<?x3xf32>, tensor<3x?xf16>
}

// conv2d and pooling: a `?` spatial input dim (or filter dim) gives a `?`
// output dim; `?` channels are checked at run time.
// CHECK-LABEL: func.func @nn
func.func @nn(%x: tensor<?x5x5x3xf32>, %f: tensor<3x3x3x4xf32>, %y: tensor<1x?x?x3xf32>, %g: tensor<?x?x3x4xf32>, %s: tensor<1x5x5x3xf32>, %c: tensor<1x5x5x?xf32>, %p: tensor<?x4x4x2xf32>) -> (tensor<?x3x3x4xf32>, tensor<1x?x?x4xf32>, tensor<1x?x?x4xf32>, tensor<1x3x3x4xf32>, tensor<?x2x2x2xf32>, tensor<1x?x?x3xf32>) {
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x3x3x4xf32>
  %0 = trace.conv2d %x, %f : (tensor<?x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x3x3x4xf32>
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x?x?x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x?x?x4xf32>
  %1 = trace.conv2d %y, %f {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x?x?x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x?x?x4xf32>
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<1x5x5x3xf32>, tensor<?x?x3x4xf32>) -> tensor<1x?x?x4xf32>
  %2 = trace.conv2d %s, %g : (tensor<1x5x5x3xf32>, tensor<?x?x3x4xf32>) -> tensor<1x?x?x4xf32>
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<1x5x5x?xf32>, tensor<3x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %3 = trace.conv2d %c, %f : (tensor<1x5x5x?xf32>, tensor<3x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  // CHECK: trace.max_pool2d %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<?x4x4x2xf32> -> tensor<?x2x2x2xf32>
  %4 = trace.max_pool2d %p {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x4x4x2xf32> -> tensor<?x2x2x2xf32>
  // CHECK: trace.avg_pool2d %{{[a-z0-9_]+}} {window = array<i64: 3, 3>} : tensor<1x?x?x3xf32> -> tensor<1x?x?x3xf32>
  %5 = trace.avg_pool2d %y {window = array<i64: 3, 3>} : tensor<1x?x?x3xf32> -> tensor<1x?x?x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<?x3x3x4xf32>, tensor<1x?x?x4xf32>, tensor<1x?x?x4xf32>, tensor<1x3x3x4xf32>, tensor<?x2x2x2xf32>, tensor<1x?x?x3xf32>
}

// The backprop ops take a `?` dy (checked against the forward output shape
// at run time) and a `?` input; the shape attributes are static.
// CHECK-LABEL: func.func @nn_backprop
func.func @nn_backprop(%f: tensor<3x3x3x16xf32>, %dy: tensor<?x6x6x16xf32>, %x: tensor<?x8x8x3xf32>, %p: tensor<?x4x4x2xf32>, %dp: tensor<?x2x2x2xf32>) -> (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<?x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  // CHECK: trace.conv2d_backprop_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<?x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<?x6x6x16xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: trace.conv2d_backprop_filter %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<?x8x8x3xf32>, tensor<?x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  %1 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 16>} : (tensor<?x8x8x3xf32>, tensor<?x6x6x16xf32>) -> tensor<3x3x3x16xf32>
  // CHECK: trace.max_pool2d_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<?x4x4x2xf32>, tensor<?x2x2x2xf32>) -> tensor<?x4x4x2xf32>
  %2 = trace.max_pool2d_grad %p, %dp {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x4x4x2xf32>, tensor<?x2x2x2xf32>) -> tensor<?x4x4x2xf32>
  // CHECK: trace.avg_pool2d_grad %{{[a-z0-9_]+}} {input_shape = array<i64: 1, 4, 4, 2>, strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<?x2x2x2xf32> -> tensor<1x4x4x2xf32>
  %3 = trace.avg_pool2d_grad %dp {input_shape = array<i64: 1, 4, 4, 2>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x2x2x2xf32> -> tensor<1x4x4x2xf32>
  return %0, %1, %2, %3 : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<?x4x4x2xf32>, tensor<1x4x4x2xf32>
}

// The gradient ops take their types from the callee's: a `?` argument gets
// a `?` gradient.
func.func private @loss(%w: tensor<4x3xf32>, %x: tensor<?x4xf32>) -> tensor<f32> {
  %y = trace.matmul %x, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 0, 1>} : tensor<?x3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func @gradients
func.func @gradients(%w: tensor<4x3xf32>, %x: tensor<?x4xf32>, %ds: tensor<f32>) -> (tensor<4x3xf32>, tensor<?x4xf32>, tensor<f32>, tensor<?x4xf32>) {
  // CHECK: trace.grad @loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) {wrt = array<i64: 0, 1>} : (tensor<4x3xf32>, tensor<?x4xf32>) -> (tensor<4x3xf32>, tensor<?x4xf32>)
  %g:2 = trace.grad @loss(%w, %x) {wrt = array<i64: 0, 1>} : (tensor<4x3xf32>, tensor<?x4xf32>) -> (tensor<4x3xf32>, tensor<?x4xf32>)
  // CHECK: trace.value_and_grad @loss
  %v, %gx = trace.value_and_grad @loss(%w, %x) {wrt = array<i64: 1>} : (tensor<4x3xf32>, tensor<?x4xf32>) -> (tensor<f32>, tensor<?x4xf32>)
  // CHECK: trace.vjp @loss(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) cotangents(%{{[a-z0-9_]+}}) {wrt = array<i64: 1>} : (tensor<4x3xf32>, tensor<?x4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<?x4xf32>)
  %y, %vx = trace.vjp @loss(%w, %x) cotangents(%ds) {wrt = array<i64: 1>} : (tensor<4x3xf32>, tensor<?x4xf32>), (tensor<f32>) -> (tensor<f32>, tensor<?x4xf32>)
  return %g#0, %g#1, %v, %vx : tensor<4x3xf32>, tensor<?x4xf32>, tensor<f32>, tensor<?x4xf32>
}

// Variables may hold a dynamic shape (their buffer gives the size).
// CHECK-LABEL: func.func @state
func.func @state(%v: !trace.resource<tensor<?x4xf32>>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // CHECK: trace.var.assign %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !trace.resource<tensor<?x4xf32>>
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<?x4xf32>>
  // CHECK: trace.var.read %{{[a-z0-9_]+}} after(%{{[a-z0-9_]+}}) : !trace.resource<tensor<?x4xf32>>
  %r, %c1 = trace.var.read %v after(%c0) : !trace.resource<tensor<?x4xf32>>
  // CHECK: trace.print %{{[a-z0-9_]+}} : tensor<?x4xf32>
  %c2 = trace.print %r : tensor<?x4xf32>
  // CHECK: trace.identity %{{[a-z0-9_]+}} after(%{{[a-z0-9_]+}}) : tensor<?x4xf32>
  %y = trace.identity %r after(%c2) : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
