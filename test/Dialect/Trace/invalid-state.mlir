// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// Every error the state ops report, in the custom and the generic form.

func.func @assign_not_a_resource(%v: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @below {{custom op 'trace.var.assign' 'resource' must be a handle to a variable holding a tensor, but got 'tensor<4xf32>'}}
  %c = trace.var.assign %v, %x : tensor<4xf32>
  return
}

// -----

func.func @assign_not_a_resource_generic(%v: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @below {{'trace.var.assign' op operand #0 must be a handle to a variable holding a tensor, but got 'tensor<4xf32>'}}
  %c = "trace.var.assign"(%v, %x) : (tensor<4xf32>, tensor<4xf32>) -> !trace.control
  return
}

// -----

// In the custom form the value's type is the variable's, so a value of
// another type is a use of the wrong type.
// expected-note @below {{prior use here}}
func.func @assign_wrong_value_type(%v: !trace.resource<tensor<4xf32>>, %x: tensor<3xf32>) {
  // expected-error @below {{use of value '%x' expects different type than prior uses: 'tensor<4xf32>' vs 'tensor<3xf32>'}}
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  return
}

// -----

func.func @assign_wrong_value_type_generic(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf64>) {
  // expected-error @below {{'trace.var.assign' op failed to verify that value has the variable's type}}
  %c = "trace.var.assign"(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf64>) -> !trace.control
  return
}

// -----

func.func @assign_add_wrong_value_type_generic(%v: !trace.resource<tensor<4xi32>>, %x: tensor<2x2xi32>) {
  // expected-error @below {{'trace.var.assign_add' op failed to verify that value has the variable's type}}
  %c = "trace.var.assign_add"(%v, %x) : (!trace.resource<tensor<4xi32>>, tensor<2x2xi32>) -> !trace.control
  return
}

// -----

// expected-note @below {{prior use here}}
func.func @assign_sub_wrong_value_type(%v: !trace.resource<tensor<4xi64>>, %x: tensor<4xi32>) {
  // expected-error @below {{use of value '%x' expects different type than prior uses: 'tensor<4xi64>' vs 'tensor<4xi32>'}}
  %c = trace.var.assign_sub %v, %x : !trace.resource<tensor<4xi64>>
  return
}

// -----

func.func @assign_value_not_a_tensor(%v: !trace.resource<tensor<4xf32>>, %x: !trace.control) {
  // expected-error @below {{'trace.var.assign' op operand #1 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got '!trace.control'}}
  %c = "trace.var.assign"(%v, %x) : (!trace.resource<tensor<4xf32>>, !trace.control) -> !trace.control
  return
}

// -----

func.func @assign_result_not_a_token(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // expected-error @below {{'trace.var.assign' op result #0 must be a control token: the explicit 'must run after' edge, but got 'tensor<4xf32>'}}
  %c = "trace.var.assign"(%v, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// expected-note @below {{prior use here}}
func.func @after_not_a_token(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // expected-error @below {{use of value '%x' expects different type than prior uses: '!trace.control' vs 'tensor<4xf32>'}}
  %c = trace.var.assign %v, %x after(%x) : !trace.resource<tensor<4xf32>>
  return
}

// -----

func.func @after_not_a_token_generic(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // expected-error @below {{'trace.var.assign_add' op operand #2 must be variadic of a control token: the explicit 'must run after' edge, but got 'tensor<4xf32>'}}
  %c = "trace.var.assign_add"(%v, %x, %x) : (!trace.resource<tensor<4xf32>>, tensor<4xf32>, tensor<4xf32>) -> !trace.control
  return
}

// -----

func.func @read_not_a_resource(%v: tensor<4xf32>) {
  // expected-error @below {{'trace.var.read' op operand must be a !trace.resource, got 'tensor<4xf32>'}}
  %r, %c = trace.var.read %v : tensor<4xf32>
  return
}

// -----

func.func @read_not_a_resource_generic(%v: tensor<4xf32>) {
  // expected-error @below {{'trace.var.read' op operand #0 must be a handle to a variable holding a tensor, but got 'tensor<4xf32>'}}
  %r, %c = "trace.var.read"(%v) : (tensor<4xf32>) -> (tensor<4xf32>, !trace.control)
  return
}

// -----

func.func @read_wrong_value_type(%v: !trace.resource<tensor<4xf32>>) {
  // expected-error @below {{'trace.var.read' op inferred type(s) 'tensor<4xf32>', '!trace.control' are incompatible with return type(s) of operation 'tensor<3xf32>', '!trace.control'}}
  // expected-error @below {{'trace.var.read' op failed to infer returned types}}
  %r, %c = "trace.var.read"(%v) : (!trace.resource<tensor<4xf32>>) -> (tensor<3xf32>, !trace.control)
  return
}

// -----

func.func @read_without_token(%v: !trace.resource<tensor<4xf32>>) {
  // expected-error @below {{'trace.var.read' op expected 2 results}}
  %r = "trace.var.read"(%v) : (!trace.resource<tensor<4xf32>>) -> tensor<4xf32>
  return
}

// -----

func.func @print_not_a_tensor(%v: !trace.resource<tensor<4xf32>>) {
  // expected-error @below {{'trace.print' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got '!trace.resource<tensor<4xf32>>'}}
  %p = "trace.print"(%v) : (!trace.resource<tensor<4xf32>>) -> !trace.control
  return
}

// -----

func.func @print_message_not_a_string(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.print' op attribute 'message' failed to satisfy constraint: string attribute}}
  %p = trace.print %x {message = 3 : i32} : tensor<4xf32>
  return
}

// -----

func.func @print_result_not_a_token(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.print' op result #0 must be a control token: the explicit 'must run after' edge, but got 'tensor<4xf32>'}}
  %p = "trace.print"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @identity_wrong_result_type(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.identity' op failed to verify that result has the operand's type}}
  %y = "trace.identity"(%x) : (tensor<4xf32>) -> tensor<3xf32>
  return
}

// -----

// expected-note @below {{prior use here}}
func.func @identity_after_not_a_token(%x: tensor<4xf32>, %t: tensor<4xf32>) {
  // expected-error @below {{use of value '%t' expects different type than prior uses: '!trace.control' vs 'tensor<4xf32>'}}
  %y = trace.identity %x after(%t) : tensor<4xf32>
  return
}

// -----

func.func @identity_not_a_tensor(%v: !trace.resource<tensor<4xf32>>) {
  // expected-error @below {{'trace.identity' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got '!trace.resource<tensor<4xf32>>'}}
  %y = "trace.identity"(%v) : (!trace.resource<tensor<4xf32>>) -> !trace.resource<tensor<4xf32>>
  return
}

// -----

// expected-note @below {{prior use here}}
func.func @group_of_a_tensor(%t: tensor<4xf32>) {
  // expected-error @below {{use of value '%t' expects different type than prior uses: '!trace.control' vs 'tensor<4xf32>'}}
  %c = trace.group(%t)
  return
}

// -----

func.func @group_of_a_tensor_generic(%t: tensor<4xf32>) {
  // expected-error @below {{'trace.group' op operand #0 must be variadic of}}
  %c = "trace.group"(%t) : (tensor<4xf32>) -> !trace.control
  return
}
