// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// What the verifiers reject at dynamic (`?`) dims. Statically an error:
// two different static sizes (neither 1) where equal sizes are needed, ranks,
// attributes out of range for a static size, and a `?` result dim that no
// operand gives the size of. A `?` against a static size or another `?` is
// valid (checked at run time). See DESIGN.md, "Dynamic dims".

//===----------------------------------------------------------------------===//
// Broadcasting: the messages name the operand and the dim
//===----------------------------------------------------------------------===//

func.func @add_static_mismatch(%a: tensor<?x3xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.add' op shapes are not broadcast-compatible: lhs ?x3 vs rhs ?x4 (lhs dim 1 is 3, rhs dim 1 is 4; only a static 1 broadcasts)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.add %a, %b : (tensor<?x3xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @sub_rank_broadcast_mismatch(%a: tensor<?x2x3xf32>, %b: tensor<5x3xf32>) -> tensor<?x5x3xf32> {
  // expected-error @below {{'trace.sub' op shapes are not broadcast-compatible: lhs ?x2x3 vs rhs 5x3 (lhs dim 1 is 2, rhs dim 0 is 5; only a static 1 broadcasts)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.sub %a, %b : (tensor<?x2x3xf32>, tensor<5x3xf32>) -> tensor<?x5x3xf32>
  return %0 : tensor<?x5x3xf32>
}

// -----

// The result type is the inferred one: `?` vs 8 is 8, not `?`.
func.func @less_static_result(%a: tensor<?x4xf32>, %b: tensor<8x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.add' op inferred type(s) 'tensor<8x4xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.add %a, %b : (tensor<?x4xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// ... nor a guess: `?` vs a static 1 stays `?`.
func.func @more_static_result(%a: tensor<?x4xf32>, %b: tensor<1x4xf32>) -> tensor<8x4xf32> {
  // expected-error @below {{'trace.mul' op inferred type(s) 'tensor<?x4xf32>' are incompatible with return type(s) of operation 'tensor<8x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.mul %a, %b : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @compare_mismatch(%a: tensor<?x3xf32>, %b: tensor<4x?x2xf32>) -> tensor<4x?x3xi1> {
  // expected-error @below {{'trace.ge' op shapes are not broadcast-compatible: lhs ?x3 vs rhs 4x?x2 (lhs dim 1 is 3, rhs dim 2 is 2; only a static 1 broadcasts)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.ge %a, %b : (tensor<?x3xf32>, tensor<4x?x2xf32>) -> tensor<4x?x3xi1>
  return %0 : tensor<4x?x3xi1>
}

// -----

func.func @select_cond(%c: tensor<3xi1>, %t: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.select' op shapes are not broadcast-compatible: cond 3 vs values ?x4 (cond dim 0 is 3, values dim 1 is 4; only a static 1 broadcasts)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.select %c, %t, %t : (tensor<3xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @cast_shape(%x: tensor<?x4xf32>) -> tensor<8x4xi32> {
  // expected-error @below {{'trace.cast' op shape must be preserved: operand ?x4 vs result 8x4}}
  %0 = trace.cast %x : tensor<?x4xf32> to tensor<8x4xi32>
  return %0 : tensor<8x4xi32>
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_contraction(%a: tensor<?x3xf32>, %b: tensor<4x?xf32>) -> tensor<?x?xf32> {
  // expected-error @below {{'trace.matmul' op contraction dims differ: lhs 3 vs rhs 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<?x3xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @matmul_batch(%a: tensor<?x2x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<?x5x3x2xf32> {
  // expected-error @below {{'trace.matmul' op batch dims are not broadcast-compatible: lhs ?x2 vs rhs 5 (lhs dim 1 is 2, rhs dim 0 is 5; only a static 1 broadcasts)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.matmul %a, %b : (tensor<?x2x3x4xf32>, tensor<5x4x2xf32>) -> tensor<?x5x3x2xf32>
  return %0 : tensor<?x5x3x2xf32>
}

//===----------------------------------------------------------------------===//
// Sources: no operand gives a size, so the result is static
//===----------------------------------------------------------------------===//

// -----

func.func @fill_dynamic(%v: tensor<f32>) -> tensor<4x?xf32> {
  // expected-error @below {{'trace.fill' op result dim 1 is dynamic, but no operand gives its size at run time; the result shape must be static, got 4x?}}
  %0 = trace.fill %v : tensor<f32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @iota_dynamic() -> tensor<?xi32> {
  // expected-error @below {{'trace.iota' op result dim 0 is dynamic, but no operand gives its size at run time; the result shape must be static, got ?}}
  %0 = trace.iota : tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

func.func @random_uniform_dynamic() -> tensor<?x8xf64> {
  // expected-error @below {{'trace.random_uniform' op result dim 0 is dynamic, but no operand gives its size at run time; the result shape must be static, got ?x8}}
  %r, %c = trace.random_uniform : tensor<?x8xf64>
  return %r : tensor<?x8xf64>
}

// -----

func.func @random_normal_dynamic() -> tensor<?xf32> {
  // expected-error @below {{'trace.random_normal' op result dim 0 is dynamic, but no operand gives its size at run time; the result shape must be static, got ?}}
  %r, %c = trace.random_normal : tensor<?xf32>
  return %r : tensor<?xf32>
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// -----

func.func @broadcast_to_from_missing_dim(%x: tensor<4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.broadcast_to' op result dim 0 is dynamic, but the operand 4 has no dim aligned with it to give its size at run time}}
  %0 = trace.broadcast_to %x : tensor<4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A static 1 broadcasts to any static size, but gives no `?` size.
func.func @broadcast_to_from_static_one(%x: tensor<1x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.broadcast_to' op result dim 0 is dynamic, but operand dim 0 is a static 1 and gives no size at run time}}
  %0 = trace.broadcast_to %x : tensor<1x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @broadcast_to_from_static(%x: tensor<?x4xf32>) -> tensor<?x?xf32> {
  // expected-error @below {{'trace.broadcast_to' op result dim 1 is dynamic, but operand dim 1 is a static 4 and gives no size at run time}}
  %0 = trace.broadcast_to %x : tensor<?x4xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @broadcast_to_static_mismatch(%x: tensor<?x4xf32>) -> tensor<?x8xf32> {
  // expected-error @below {{'trace.broadcast_to' op operand shape ?x4 does not broadcast to ?x8 (each dim must equal the target's or be 1)}}
  %0 = trace.broadcast_to %x : tensor<?x4xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @reshape_two_dynamic(%x: tensor<?x4xf32>) -> tensor<?x?xf32> {
  // expected-error @below {{'trace.reshape' op result ?x? has 2 dynamic dims, but only one can be inferred from the element count}}
  %0 = trace.reshape %x : tensor<?x4xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_empty_dynamic(%x: tensor<?x0xf32>) -> tensor<?x0xf32> {
  // expected-error @below {{'trace.reshape' op result ?x0 has a dynamic dim that cannot be inferred: its other dims hold no elements}}
  %0 = trace.reshape %x : tensor<?x0xf32> -> tensor<?x0xf32>
  return %0 : tensor<?x0xf32>
}

// -----

func.func @reshape_not_multiple(%x: tensor<?x4xf32>) -> tensor<?x3xf32> {
  // expected-error @below {{'trace.reshape' op element count differs}}
  %0 = trace.reshape %x : tensor<?x4xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @transpose_result(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.transpose' op inferred type(s) 'tensor<4x?xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// The message names the input that fixed the size (input 1), not input 0.
func.func @concat_mismatch(%a: tensor<4x?xf32>, %b: tensor<?x3xf32>, %c: tensor<?x5xf32>) -> tensor<?x3xf32> {
  // expected-error @below {{'trace.concat' op input 2 has shape ?x5 but input 1 has ?x3 (only dim 0 may differ)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %b, %c {axis = 0} : (tensor<4x?xf32>, tensor<?x3xf32>, tensor<?x5xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @concat_rank(%a: tensor<?x3xf32>, %b: tensor<?xf32>) -> tensor<?x3xf32> {
  // expected-error @below {{'trace.concat' op input 1 has rank 1 but input 0 has rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %b {axis = 0} : (tensor<?x3xf32>, tensor<?xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// A static dim bounds the slice statically; a `?` one only at run time.
func.func @slice_static_dim(%x: tensor<?x4xf32>) -> tensor<2x5xf32> {
  // expected-error @below {{'trace.slice' op dim 1 needs 0 <= start <= limit <= 4, got start 0, limit 5}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 5>} : tensor<?x4xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @slice_dynamic_dim(%x: tensor<?x4xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{'trace.slice' op dim 0 needs 0 <= start <= limit <= the dim size (?), got start 3, limit 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 3, 0>, limit = array<i64: 1, 4>} : tensor<?x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @pad_result(%x: tensor<?x3xf32>) -> tensor<5x3xf32> {
  // expected-error @below {{'trace.pad' op inferred type(s) 'tensor<?x3xf32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 1, 0>} : tensor<?x3xf32> -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @gather_result(%p: tensor<?x3xf32>, %i: tensor<?xi32>) -> tensor<4x3xf32> {
  // expected-error @below {{'trace.gather' op inferred type(s) 'tensor<?x3xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.gather %p, %i : (tensor<?x3xf32>, tensor<?xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @one_hot_result(%i: tensor<?xi32>) -> tensor<4x3xf32> {
  // expected-error @below {{'trace.one_hot' op result shape must be ?x3 (indices ? with depth 3 at axis -1), got 4x3}}
  %0 = trace.one_hot %i {depth = 3} : tensor<?xi32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  // expected-error @below {{'trace.reduce_sum' op axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_sum %x {axes = array<i64: 2>} : tensor<?x4xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @reduce_keepdims(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.reduce_max' op inferred type(s) 'tensor<1x4xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.reduce_max %x {axes = array<i64: 0>, keepdims} : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @softmax_axis(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.softmax' op axis 2 is out of range for rank 2}}
  %0 = trace.softmax %x {axis = 2} : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

//===----------------------------------------------------------------------===//
// Neural nets
//===----------------------------------------------------------------------===//

// -----

func.func @conv2d_channels(%x: tensor<1x?x?x3xf32>, %f: tensor<3x3x4x8xf32>) -> tensor<1x?x?x8xf32> {
  // expected-error @below {{'trace.conv2d' op input channels differ: input 3 vs filter 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %x, %f : (tensor<1x?x?x3xf32>, tensor<3x3x4x8xf32>) -> tensor<1x?x?x8xf32>
  return %0 : tensor<1x?x?x8xf32>
}

// -----

// A static dim must fit the filter even when the other one is `?`.
func.func @conv2d_fit(%x: tensor<?x?x2x3xf32>, %f: tensor<3x3x3x8xf32>) -> tensor<?x?x0x8xf32> {
  // expected-error @below {{'trace.conv2d' op filter 3x3 (dilated) does not fit the padded input ?x?x2x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d %x, %f : (tensor<?x?x2x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x?x0x8xf32>
  return %0 : tensor<?x?x0x8xf32>
}

// -----

func.func @pool_fit(%x: tensor<?x?x1x2xf32>) -> tensor<?x?x0x2xf32> {
  // expected-error @below {{'trace.max_pool2d' op window 2x2 does not fit the padded input ?x?x1x2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>} : tensor<?x?x1x2xf32> -> tensor<?x?x0x2xf32>
  return %0 : tensor<?x?x0x2xf32>
}

// -----

// The backprop ops' shape attributes are static: a `?` batch cannot be
// written there (see the report: they need an operand giving the size).
func.func @conv2d_backprop_input_dynamic(%f: tensor<3x3x3x16xf32>, %dy: tensor<?x6x6x16xf32>) -> tensor<?x8x8x3xf32> {
  // expected-error @below {{'trace.conv2d_backprop_input' op input_shape must be 4 positive sizes [N, H, W, C], got [-1, 8, 8, 3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: -1, 8, 8, 3>} : (tensor<3x3x3x16xf32>, tensor<?x6x6x16xf32>) -> tensor<?x8x8x3xf32>
  return %0 : tensor<?x8x8x3xf32>
}

// -----

func.func @max_pool2d_grad_dy(%x: tensor<?x4x4x2xf32>, %dy: tensor<?x3x2x2xf32>) -> tensor<?x4x4x2xf32> {
  // expected-error @below {{'trace.max_pool2d_grad' op dy shape ?x3x2x2 does not match ?x2x2x2, the max_pool2d output shape of input}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x4x4x2xf32>, tensor<?x3x2x2xf32>) -> tensor<?x4x4x2xf32>
  return %0 : tensor<?x4x4x2xf32>
}

//===----------------------------------------------------------------------===//
// Gradients: the argument types must be the callee's exactly, `?` included
//===----------------------------------------------------------------------===//

// -----

func.func private @loss(%x: tensor<?x4xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0, 1>} : tensor<?x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @grad_arg_type(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @below {{'trace.grad' op argument 0 has type 'tensor<8x4xf32>' but @loss expects 'tensor<?x4xf32>'}}
  %g = trace.grad @loss(%x) {wrt = array<i64: 0>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %g : tensor<8x4xf32>
}
