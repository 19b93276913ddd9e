// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// What the verifiers of broadcast_to/reshape `like` and trace.size reject.

func.func @broadcast_like_wrong_result(%b: tensor<4xf32>, %x: tensor<?x4xf32>) -> tensor<3x4xf32> {
  // expected-error @below {{'trace.broadcast_to' op result shape 3x4 must be the shape of 'like' ?x4}}
  %0 = trace.broadcast_to %b like %x : tensor<4xf32>, tensor<?x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @broadcast_like_mismatch(%b: tensor<3xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.broadcast_to' op operand shape 3 does not broadcast to ?x4: operand dim 0 is 3 but result dim 1 is 4}}
  %0 = trace.broadcast_to %b like %x : tensor<3xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @broadcast_like_rank(%b: tensor<2x4xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{'trace.broadcast_to' op cannot broadcast rank 2 to the lower rank 1}}
  %0 = trace.broadcast_to %b like %x : tensor<2x4xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @broadcast_unsized(%b: tensor<1x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.broadcast_to' op result dim 0 is dynamic, but operand dim 0 is a static 1 and gives no size at run time (give the shape with 'like')}}
  %0 = trace.broadcast_to %b : tensor<1x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @reshape_like_wrong_result(%f: tensor<?x4xf32>, %y: tensor<?x?x4xf32>) -> tensor<?x2x4xf32> {
  // expected-error @below {{'trace.reshape' op result shape ?x2x4 must be the shape of 'like' ?x?x4}}
  %0 = trace.reshape %f like %y : tensor<?x4xf32>, tensor<?x?x4xf32> -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}

// -----

func.func @reshape_like_count(%f: tensor<3x4xf32>, %y: tensor<5x2xf32>) -> tensor<5x2xf32> {
  // expected-error @below {{'trace.reshape' op element count differs: operand 3x4 (12) vs result 5x2 (10)}}
  %0 = trace.reshape %f like %y : tensor<3x4xf32>, tensor<5x2xf32> -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

func.func @reshape_two_unknown(%f: tensor<?x4xf32>) -> tensor<?x?x2xf32> {
  // expected-error @below {{'trace.reshape' op result ?x?x2 has 2 dynamic dims, but only one can be inferred from the element count (unless the reshape only inserts or removes unit dims; else give the shape with 'like')}}
  %0 = trace.reshape %f : tensor<?x4xf32> -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// -----

func.func @size_not_scalar(%x: tensor<?x4xf32>) -> tensor<1xf32> {
  // expected-error @below {{'trace.size' op result must be a scalar (rank 0), got 'tensor<1xf32>'}}
  %0 = trace.size %x : tensor<?x4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @size_axis(%x: tensor<?x4xf32>) -> tensor<f32> {
  // expected-error @below {{'trace.size' op axis 2 is out of range for rank 2}}
  %0 = trace.size %x {axes = array<i64: 2>} : tensor<?x4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @size_repeated(%x: tensor<?x4xf32>) -> tensor<f32> {
  // expected-error @below {{'trace.size' op axes [0, -2] repeat dim 0}}
  %0 = trace.size %x {axes = array<i64: 0, -2>} : tensor<?x4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @size_bool(%x: tensor<?x4xf32>) -> tensor<i1> {
  // expected-error @below {{'trace.size' op result #0 must be ranked tensor of}}
  %0 = trace.size %x : tensor<?x4xf32> -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @slice_like_and_limit(%dy: tensor<?x6xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.slice' op takes either 'limit' or 'like', not both}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %dy like %x {start = array<i64: 0, 1>, limit = array<i64: 1, 5>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @slice_neither(%x: tensor<?x4xf32>) -> tensor<1x4xf32> {
  // expected-error @below {{'trace.slice' op needs 'limit' or 'like'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 0>} : tensor<?x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @slice_like_rank(%dy: tensor<?x6xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{'trace.slice' op 'like' must have the operand's rank 2, got 'tensor<?xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %dy like %x {start = array<i64: 0, 1>} : tensor<?x6xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @slice_like_start(%dy: tensor<?x6xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.slice' op start needs one entry per dim (rank 2), got 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %dy like %x {start = array<i64: 1>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @slice_like_negative(%dy: tensor<?x6xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.slice' op start of dim 1 must be non-negative, got -1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %dy like %x {start = array<i64: 0, -1>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @slice_like_too_big(%dy: tensor<?x6xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.slice' op dim 1 needs start + like's size <= 6, got 3 + 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %dy like %x {start = array<i64: 0, 3>} : tensor<?x6xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @slice_like_strides(%dy: tensor<?x6xf32>, %x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  // expected-error @below {{'trace.slice' op with 'like' takes unit strides, got [1, 2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %dy like %x {start = array<i64: 0, 0>, strides = array<i64: 1, 2>} : tensor<?x6xf32>, tensor<?x2xf32> -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @pad_like_and_high(%s: tensor<2x4xf32>, %x: tensor<?x6xf32>) -> tensor<?x6xf32> {
  // expected-error @below {{'trace.pad' op takes either 'high' or 'like', not both}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %s like %x {low = array<i64: 0, 1>, high = array<i64: 0, 1>} : tensor<2x4xf32>, tensor<?x6xf32> -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// -----

func.func @pad_neither(%s: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{'trace.pad' op needs 'high' or 'like'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %s {low = array<i64: 0, 0>} : tensor<2x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @pad_like_too_small(%s: tensor<2x4xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.pad' op dim 1 needs low + operand size <= like's size 4, got 1 + 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %s like %x {low = array<i64: 0, 1>} : tensor<2x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @pad_like_wrong_result(%s: tensor<2x4xf32>, %x: tensor<?x4xf32>) -> tensor<3x4xf32> {
  // expected-error @below {{'trace.pad' op inferred type(s) 'tensor<?x4xf32>' are incompatible with return type(s) of operation 'tensor<3x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %s like %x {low = array<i64: 0, 0>} : tensor<2x4xf32>, tensor<?x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @split_no_like(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.split' op needs at least one 'like' operand}}
  // expected-error @below {{failed to infer returned types}}
  %0 = "trace.split"(%x) {axis = 0 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @split_axis(%x: tensor<?x4xf32>, %a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{'trace.split' op axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.split %x like %a {axis = 2 : i64} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @split_other_dim(%x: tensor<?x4xf32>, %a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @below {{'trace.split' op 'like' operand 0 has shape ?x3 but the operand has ?x4 (only dim 0 may differ)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.split %x like %a {axis = 0 : i64} : tensor<?x4xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @split_rank(%x: tensor<?x4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'trace.split' op 'like' operand 0 must have the operand's rank 2, got 'tensor<4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.split %x like %a {axis = 1 : i64} : tensor<?x4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @split_cover(%x: tensor<5x4xf32>, %a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{'trace.split' op pieces cover 4 elements along axis 0 but the operand has 5}}
  // expected-error @below {{failed to infer returned types}}
  %0:2 = trace.split %x like %a, %b {axis = 0 : i64} : tensor<5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>
  return %0#0 : tensor<2x4xf32>
}
