// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// Every error the elementwise ops report.

//===----------------------------------------------------------------------===//
// Unary: element types
//===----------------------------------------------------------------------===//

func.func @exp_on_i32(%x: tensor<4xi32>) {
  // expected-error @below {{'trace.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = trace.exp %x : tensor<4xi32>
  return
}

// -----

func.func @log_on_i64(%x: tensor<4xi64>) {
  // expected-error @below {{'trace.log' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi64>'}}
  %0 = trace.log %x : tensor<4xi64>
  return
}

// -----

func.func @log1p_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.log1p' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi1>'}}
  %0 = trace.log1p %x : tensor<4xi1>
  return
}

// -----

func.func @sqrt_on_i32(%x: tensor<4xi32>) {
  // expected-error @below {{'trace.sqrt' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = trace.sqrt %x : tensor<4xi32>
  return
}

// -----

func.func @rsqrt_on_i64(%x: tensor<4xi64>) {
  // expected-error @below {{'trace.rsqrt' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi64>'}}
  %0 = trace.rsqrt %x : tensor<4xi64>
  return
}

// -----

func.func @tanh_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.tanh' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi1>'}}
  %0 = trace.tanh %x : tensor<4xi1>
  return
}

// -----

func.func @sigmoid_on_i32(%x: tensor<4xi32>) {
  // expected-error @below {{'trace.sigmoid' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = trace.sigmoid %x : tensor<4xi32>
  return
}

// -----

func.func @gelu_on_i64(%x: tensor<4xi64>) {
  // expected-error @below {{'trace.gelu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi64>'}}
  %0 = trace.gelu %x : tensor<4xi64>
  return
}

// -----

func.func @sin_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.sin' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi1>'}}
  %0 = trace.sin %x : tensor<4xi1>
  return
}

// -----

func.func @cos_on_i32(%x: tensor<4xi32>) {
  // expected-error @below {{'trace.cos' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = trace.cos %x : tensor<4xi32>
  return
}

// -----

func.func @floor_on_i64(%x: tensor<4xi64>) {
  // expected-error @below {{'trace.floor' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi64>'}}
  %0 = trace.floor %x : tensor<4xi64>
  return
}

// -----

func.func @neg_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.neg %x : tensor<4xi1>
  return
}

// -----

func.func @abs_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.abs' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.abs %x : tensor<4xi1>
  return
}

// -----

func.func @relu_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.relu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.relu %x : tensor<4xi1>
  return
}

// -----

func.func @sign_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.sign' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.sign %x : tensor<4xi1>
  return
}

// -----

func.func @stop_gradient_on_i8(%x: tensor<4xi8>) {
  // expected-error @below {{'trace.stop_gradient' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = trace.stop_gradient %x : tensor<4xi8>
  return
}

// -----

func.func @exp_on_vector(%x: vector<4xf32>) {
  // expected-error @below {{invalid kind of type specified: expected builtin.tensor, but found 'vector<4xf32>'}}
  %0 = trace.exp %x : vector<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Unary: result type (generic form)
//===----------------------------------------------------------------------===//

func.func @unary_result_element_type(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.exp' op requires the same type for all operands and results}}
  %0 = "trace.exp"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @unary_result_shape(%x: tensor<2x3xf32>) {
  // expected-error @below {{'trace.neg' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "trace.neg"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Binary: element types
//===----------------------------------------------------------------------===//

func.func @add_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.add %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @sub_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.sub' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.sub %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @mul_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.mul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.mul %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @div_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.div' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.div %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @pow_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.pow' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.pow %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @max_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.max' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.max %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @min_on_i1(%x: tensor<4xi1>) {
  // expected-error @below {{'trace.min' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = trace.min %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @add_on_i8(%x: tensor<4xi8>) {
  // expected-error @below {{'trace.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = trace.add %x, %x : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @add_unranked(%x: tensor<*xf32>) {
  // expected-error @below {{'trace.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<*xf32>'}}
  %0 = trace.add %x, %x : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// No implicit promotion, not even between float widths.
func.func @add_dtype_mismatch(%x: tensor<2x3xf32>, %y: tensor<3xi32>) {
  // expected-error @below {{'trace.add' op operand element types differ: lhs 'f32' vs rhs 'i32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.add %x, %y : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @mul_dtype_mismatch_floats(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @below {{'trace.mul' op operand element types differ: lhs 'f32' vs rhs 'f16'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.mul %x, %y : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @pow_dtype_mismatch_ints(%x: tensor<4xi64>, %y: tensor<i32>) {
  // expected-error @below {{'trace.pow' op operand element types differ: lhs 'i64' vs rhs 'i32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.pow %x, %y : (tensor<4xi64>, tensor<i32>) -> tensor<4xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Binary: shapes
//===----------------------------------------------------------------------===//

func.func @add_not_broadcastable(%x: tensor<2x3xf32>, %y: tensor<4x3xf32>) {
  // expected-error @below {{'trace.add' op shapes are not broadcast-compatible: lhs 2x3 vs rhs 4x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.add %x, %y : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Shapes align from the right: 2x3 and 2 compare 3 with 2.
func.func @sub_trailing_dims_differ(%x: tensor<2x3xi32>, %y: tensor<2xi32>) {
  // expected-error @below {{'trace.sub' op shapes are not broadcast-compatible: lhs 2x3 vs rhs 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.sub %x, %y : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @max_zero_vs_two(%x: tensor<0xf32>, %y: tensor<2xf32>) {
  // expected-error @below {{'trace.max' op shapes are not broadcast-compatible: lhs 0 vs rhs 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.max %x, %y : (tensor<0xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @div_dynamic_does_not_hide_mismatch(%x: tensor<?x3xf32>, %y: tensor<?x4xf32>) {
  // expected-error @below {{'trace.div' op shapes are not broadcast-compatible: lhs ?x3 vs rhs ?x4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.div %x, %y : (tensor<?x3xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @add_wrong_result_shape(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error @below {{'trace.add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @min_wrong_result_element_type(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.min' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.min %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf64>
  return
}

// -----

// The declared result must be exactly the inferred one.
func.func @add_result_more_static_than_operands(%x: tensor<?xf32>) {
  // expected-error @below {{'trace.add' op inferred type(s) 'tensor<?xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.add %x, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @add_one_operand(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.add' op expected 2 operands, but found 1}}
  %0 = "trace.add"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

func.func @lt_result_not_bool(%x: tensor<2x3xf32>) {
  // expected-error @below {{'trace.lt' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<2x3xf32>'}}
  %0 = trace.lt %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @eq_wrong_result_shape(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.eq' op inferred type(s) 'tensor<4xi1>' are incompatible with return type(s) of operation 'tensor<1xi1>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.eq %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<1xi1>
  return
}

// -----

func.func @ne_dtype_mismatch(%x: tensor<4xi1>, %y: tensor<4xi32>) {
  // expected-error @below {{'trace.ne' op operand element types differ: lhs 'i1' vs rhs 'i32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.ne %x, %y : (tensor<4xi1>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @ge_not_broadcastable(%x: tensor<3xi64>, %y: tensor<4xi64>) {
  // expected-error @below {{'trace.ge' op shapes are not broadcast-compatible: lhs 3 vs rhs 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.ge %x, %y : (tensor<3xi64>, tensor<4xi64>) -> tensor<4xi1>
  return
}

// -----

func.func @le_on_i8(%x: tensor<4xi8>) {
  // expected-error @below {{'trace.le' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = trace.le %x, %x : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
  return
}

// -----

func.func @gt_rhs_on_index(%x: tensor<4xf32>, %y: tensor<4xindex>) {
  // expected-error @below {{'trace.gt' op operand #1 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xindex>'}}
  %0 = trace.gt %x, %y : (tensor<4xf32>, tensor<4xindex>) -> tensor<4xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// select
//===----------------------------------------------------------------------===//

func.func @select_cond_not_bool(%c: tensor<4xi32>, %x: tensor<4xf32>) {
  // expected-error @below {{'trace.select' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = trace.select %c, %x, %x : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_value_dtypes_differ(%c: tensor<4xi1>, %x: tensor<4xi32>, %y: tensor<4xf32>) {
  // expected-error @below {{'trace.select' op operand element types differ: on_true 'i32' vs on_false 'f32'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.select %c, %x, %y : (tensor<4xi1>, tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_values_not_broadcastable(%c: tensor<i1>, %x: tensor<2x3xf32>, %y: tensor<4x3xf32>) {
  // expected-error @below {{'trace.select' op shapes are not broadcast-compatible: on_true 2x3 vs on_false 4x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.select %c, %x, %y : (tensor<i1>, tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @select_cond_not_broadcastable(%c: tensor<4xi1>, %x: tensor<2x3xf32>, %y: tensor<f32>) {
  // expected-error @below {{'trace.select' op shapes are not broadcast-compatible: cond 4 vs values 2x3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.select %c, %x, %y : (tensor<4xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @select_wrong_result_type(%c: tensor<4xi1>, %x: tensor<4xf32>) {
  // expected-error @below {{'trace.select' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.select %c, %x, %x : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// The condition takes part in the broadcast.
func.func @select_result_ignores_broadcast(%c: tensor<2x1xi1>, %x: tensor<3xf32>) {
  // expected-error @below {{'trace.select' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = trace.select %c, %x, %x : (tensor<2x1xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// cast
//===----------------------------------------------------------------------===//

func.func @cast_changes_shape(%x: tensor<4xi32>) {
  // expected-error @below {{'trace.cast' op shape must be preserved: operand 4 vs result 2x2}}
  %0 = trace.cast %x : tensor<4xi32> to tensor<2x2xf32>
  return
}

// -----

func.func @cast_changes_rank(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.cast' op shape must be preserved: operand 4 vs result scalar}}
  %0 = trace.cast %x : tensor<4xf32> to tensor<f32>
  return
}

// -----

func.func @cast_static_to_dynamic(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.cast' op shape must be preserved: operand 4 vs result ?}}
  %0 = trace.cast %x : tensor<4xf32> to tensor<?xi32>
  return
}

// -----

func.func @cast_from_i8(%x: tensor<4xi8>) {
  // expected-error @below {{'trace.cast' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = trace.cast %x : tensor<4xi8> to tensor<4xi32>
  return
}

// -----

func.func @cast_to_f128(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.cast' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xf128>'}}
  %0 = trace.cast %x : tensor<4xf32> to tensor<4xf128>
  return
}
