// RUN: tracec-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @below {{element count differs: operand 2x3 (6) vs result 7 (7)}}
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @reshape_scalar_count(%x: tensor<f32>) -> tensor<2xf32> {
  // expected-error @below {{element count differs: operand scalar (1) vs result 2 (2)}}
  %0 = trace.reshape %x : tensor<f32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @below {{element type must be preserved: operand 'f32' vs result 'i32'}}
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

func.func @reshape_dynamic_operand(%x: tensor<?x3xf32>) -> tensor<7xf32> {
  // expected-error @below {{element count differs: result 7 has 7 elements, not a multiple of 3 (the product of the static dims of operand ?x3)}}
  %0 = trace.reshape %x : tensor<?x3xf32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @reshape_dynamic_result(%x: tensor<2x3xf32>) -> tensor<?x4xf32> {
  // expected-error @below {{element count differs: operand 2x3 has 6 elements, not a multiple of 4 (the product of the static dims of result ?x4)}}
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A zero-size static dim makes any shape empty.
func.func @reshape_dynamic_empty(%x: tensor<2x3xf32>) -> tensor<?x0xf32> {
  // expected-error @below {{element count differs: operand 2x3 has 6 elements but result ?x0 has none}}
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<?x0xf32>
  return %0 : tensor<?x0xf32>
}

// -----

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

func.func @transpose_perm_too_short(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error @below {{perm has 2 entries but the operand has rank 3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @transpose_perm_repeated(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @below {{perm [0, 0] is not a permutation of 0..1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.transpose %x {perm = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @transpose_perm_out_of_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @below {{perm [2, 0] is not a permutation of 0..1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.transpose %x {perm = array<i64: 2, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// perm entries are dims, not axes: negative values are not allowed.
func.func @transpose_perm_negative(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @below {{perm [-1, 0] is not a permutation of 0..1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.transpose %x {perm = array<i64: -1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_wrong_result(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  // expected-error @below {{inferred type(s) 'tensor<3x4x2xf32>' are incompatible with return type(s) of operation 'tensor<4x3x2xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// broadcast_to
//===----------------------------------------------------------------------===//

func.func @broadcast_incompatible(%x: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{operand shape 3 does not broadcast to 2x4 (each dim must equal the target's or be 1)}}
  %0 = trace.broadcast_to %x : tensor<3xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Broadcasting never shrinks a dim.
func.func @broadcast_shrinks(%x: tensor<2x3xf32>) -> tensor<1x3xf32> {
  // expected-error @below {{operand shape 2x3 does not broadcast to 1x3 (each dim must equal the target's or be 1)}}
  %0 = trace.broadcast_to %x : tensor<2x3xf32> -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @broadcast_lower_rank(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @below {{cannot broadcast rank 2 to the lower rank 1}}
  %0 = trace.broadcast_to %x : tensor<2x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @broadcast_element_type(%x: tensor<3xf32>) -> tensor<2x3xf64> {
  // expected-error @below {{element type must be preserved: operand 'f32' vs result 'f64'}}
  %0 = trace.broadcast_to %x : tensor<3xf32> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

func.func @concat_no_inputs() -> tensor<2x3xf32> {
  // expected-error @below {{needs at least one input}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat {axis = 0} : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concat_axis_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %a {axis = 2} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_negative_axis_out_of_range(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @below {{axis -3 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %a {axis = -3} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_scalars(%a: tensor<f32>) -> tensor<2xf32> {
  // expected-error @below {{axis 0 is out of range for rank 0}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %a {axis = 0} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concat_rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @below {{input 1 has rank 1 but input 0 has rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @concat_dim_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @below {{input 1 has shape 2x4 but input 0 has 2x3 (only dim 0 may differ)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The error names the offending input.
func.func @concat_third_input_mismatch(%a: tensor<2x3xf32>, %b: tensor<5x3xf32>) -> tensor<9x3xf32> {
  // expected-error @below {{input 2 has shape 5x3 but input 0 has 2x3 (only dim 1 may differ)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %a, %b {axis = 1} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<9x3xf32>
  return %0 : tensor<9x3xf32>
}

// -----

func.func @concat_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<4x3xf32> {
  // expected-error @below {{input 1 has element type 'i32' but input 0 has 'f32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_wrong_result(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<4x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<3x3xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

func.func @slice_start_entries(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{start, limit and strides need one entry per dim (rank 2), got 1, 2 and 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0>, limit = array<i64: 2, 3>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_limit_entries(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{start, limit and strides need one entry per dim (rank 2), got 2, 3 and 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_strides_entries(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{start, limit and strides need one entry per dim (rank 2), got 2, 2 and 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3>, strides = array<i64: 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_zero_stride(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{stride of dim 1 must be positive, got 0}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3>, strides = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_negative_stride(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{stride of dim 0 must be positive, got -1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3>, strides = array<i64: -1, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_limit_past_end(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{dim 1 needs 0 <= start <= limit <= 3, got start 0, limit 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 4>} : tensor<2x3xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @below {{dim 0 needs 0 <= start <= limit <= 2, got start -1, limit 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: -1, 0>, limit = array<i64: 2, 3>} : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @slice_start_after_limit(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{dim 1 needs 0 <= start <= limit <= 3, got start 2, limit 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0, 2>, limit = array<i64: 2, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A dynamic dim has no known bound, but start <= limit still holds.
func.func @slice_dynamic_start_after_limit(%x: tensor<?xf32>) -> tensor<1xf32> {
  // expected-error @below {{dim 0 needs 0 <= start <= limit <= the dim size (?), got start 3, limit 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 3>, limit = array<i64: 2>} : tensor<?xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @slice_wrong_result(%x: tensor<10xf32>) -> tensor<3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.slice %x {start = array<i64: 0>, limit = array<i64: 10>, strides = array<i64: 3>} : tensor<10xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

func.func @pad_negative_low(%x: tensor<2x3xf32>) -> tensor<1x3xf32> {
  // expected-error @below {{padding of dim 0 must be non-negative, got low -1, high 0}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %x {low = array<i64: -1, 0>, high = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @pad_negative_high(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @below {{padding of dim 1 must be non-negative, got low 0, high -2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, -2>} : tensor<2x3xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @pad_entries(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @below {{low and high need one entry per dim (rank 2), got 1 and 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %x {low = array<i64: 1>, high = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @pad_wrong_result(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @below {{inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 2>} : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

func.func @gather_axis_out_of_range(%p: tensor<5x3xf32>, %i: tensor<4xi32>) -> tensor<5x3x4xf32> {
  // expected-error @below {{axis 2 is out of range for params of rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.gather %p, %i {axis = 2} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<5x3x4xf32>
  return %0 : tensor<5x3x4xf32>
}

// -----

func.func @gather_negative_axis_out_of_range(%p: tensor<5x3xf32>, %i: tensor<4xi32>) -> tensor<4x3xf32> {
  // expected-error @below {{axis -3 is out of range for params of rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.gather %p, %i {axis = -3} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @gather_scalar_params(%p: tensor<f32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @below {{params must have rank >= 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.gather %p, %i : (tensor<f32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_float_indices(%p: tensor<5x3xf32>, %i: tensor<4xf32>) -> tensor<4x3xf32> {
  // expected-error @below {{operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = trace.gather %p, %i : (tensor<5x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @gather_wrong_result(%p: tensor<5x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x4xf32> {
  // expected-error @below {{inferred type(s) 'tensor<2x4x3xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.gather %p, %i : (tensor<5x3xf32>, tensor<2x4xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// one_hot
//===----------------------------------------------------------------------===//

func.func @one_hot_zero_depth(%i: tensor<4xi32>) -> tensor<4x0xf32> {
  // expected-error @below {{depth must be positive, got 0}}
  %0 = trace.one_hot %i {depth = 0} : tensor<4xi32> -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

func.func @one_hot_negative_depth(%i: tensor<4xi32>) -> tensor<4x3xf32> {
  // expected-error @below {{depth must be positive, got -3}}
  %0 = trace.one_hot %i {depth = -3} : tensor<4xi32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The new dim can go at 0..rank of the result.
func.func @one_hot_axis_out_of_range(%i: tensor<4xi32>) -> tensor<4x10xf32> {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  %0 = trace.one_hot %i {depth = 10, axis = 2} : tensor<4xi32> -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

func.func @one_hot_negative_axis_out_of_range(%i: tensor<4xi32>) -> tensor<4x10xf32> {
  // expected-error @below {{axis -3 is out of range for rank 2}}
  %0 = trace.one_hot %i {depth = 10, axis = -3} : tensor<4xi32> -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

func.func @one_hot_result_shape(%i: tensor<4xi32>) -> tensor<10x4xf32> {
  // expected-error @below {{result shape must be 4x10 (indices 4 with depth 10 at axis -1), got 10x4}}
  %0 = trace.one_hot %i {depth = 10} : tensor<4xi32> -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

func.func @one_hot_result_depth(%i: tensor<2x3xi32>) -> tensor<2x8x3xf32> {
  // expected-error @below {{result shape must be 2x10x3 (indices 2x3 with depth 10 at axis 1), got 2x8x3}}
  %0 = trace.one_hot %i {depth = 10, axis = 1} : tensor<2x3xi32> -> tensor<2x8x3xf32>
  return %0 : tensor<2x8x3xf32>
}

// -----

func.func @one_hot_missing_depth(%i: tensor<4xi32>) -> tensor<4x10xf32> {
  // expected-error @below {{requires attribute 'depth'}}
  %0 = trace.one_hot %i : tensor<4xi32> -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

func.func @one_hot_float_indices(%i: tensor<4xf32>) -> tensor<4x10xf32> {
  // expected-error @below {{operand #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = trace.one_hot %i {depth = 10} : tensor<4xf32> -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

func.func @pad_overflow(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @below {{padded size of dim 0 overflows: 2 + 9223372036854775807 + 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pad %x {low = array<i64: 9223372036854775807>, high = array<i64: 1>} : tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @sort_scalar(%x: tensor<f32>) {
  // expected-error @below {{'trace.sort' op operands must have rank >= 1, got a scalar}}
  %0 = trace.sort %x : tensor<f32>
  return
}

// -----

func.func @sort_axis(%x: tensor<3x4xf32>) {
  // expected-error @below {{'trace.sort' op axis 2 is out of range for rank 2}}
  %0 = trace.sort %x {axis = 2} : tensor<3x4xf32>
  return
}

// -----

func.func @sort_shapes(%x: tensor<3x4xf32>, %y: tensor<3x5xi32>) {
  // expected-error @below {{'trace.sort' op operand #1 has shape 3x5, the keys 3x4}}
  %0:2 = trace.sort %x, %y : tensor<3x4xf32>, tensor<3x5xi32>
  return
}
