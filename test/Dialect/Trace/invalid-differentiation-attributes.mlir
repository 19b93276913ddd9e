// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// Every error of trace.custom_vjp, trace.custom_jvp and trace.checkpoint
// (DifferentiationAttributes.cpp), then the valid forms.

// expected-error @below {{'trace.custom_vjp' must be a dictionary {fwd = @f_fwd, bwd = @f_bwd}, got @f_fwd}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = @f_fwd} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'trace.custom_vjp' needs 'bwd' = a function symbol}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' has an unknown key 'jvp' (expected fwd and bwd)}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd, jvp = @f_jvp}} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'trace.custom_vjp' fwd @missing is not a function in the module}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @missing, bwd = @f_bwd}} {
  return %x : tensor<f32>
}
func.func private @f_bwd(%dy: tensor<f32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' bwd @f is the function itself}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' fwd @f_fwd must take the arguments of @f 'tensor<f32>', but takes 'tensor<f64>'}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%x: tensor<f64>) -> tensor<f32>
func.func private @f_bwd(%dy: tensor<f32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' fwd @f_fwd must return the 2 results of @f then the residuals, but returns 1 results}}
func.func @f(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %x, %x : tensor<f32>, tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>) -> tensor<f32>
func.func private @f_bwd(%dy: tensor<f32>, %dz: tensor<f32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' fwd @f_fwd result 0 is 'tensor<2xf32>', but result 0 of @f is 'tensor<f32>'}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>) -> tensor<2xf32>
func.func private @f_bwd(%dy: tensor<f32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' bwd @f_bwd must take the 1 residuals of fwd @f_fwd then one cotangent per float result of @f (1), but takes 1 arguments}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
func.func private @f_bwd(%dy: tensor<f32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' bwd @f_bwd argument 0 is 'tensor<f32>', but residual 0 of fwd @f_fwd (its result 1) is 'tensor<3xf32>'}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
func.func private @f_bwd(%r: tensor<f32>, %dy: tensor<f32>) -> tensor<f32>

// -----

// The integer result has no cotangent; the float one does.
// expected-error @below {{'trace.custom_vjp' bwd @f_bwd argument 0 is 'tensor<i32>', but the cotangent of result 1 of @f is 'tensor<f32>'}}
func.func @f(%x: tensor<f32>, %n: tensor<i32>) -> (tensor<i32>, tensor<f32>) attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %n, %x : tensor<i32>, tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>, %n: tensor<i32>) -> (tensor<i32>, tensor<f32>)
func.func private @f_bwd(%dy: tensor<i32>) -> tensor<f32>

// -----

// expected-error @below {{'trace.custom_vjp' bwd @f_bwd must return one cotangent per float argument of @f (1), but returns 2}}
func.func @f(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32>
func.func private @f_bwd(%dy: tensor<f32>) -> (tensor<f32>, tensor<i32>)

// -----

// expected-error @below {{'trace.custom_vjp' bwd @f_bwd result 0 is 'tensor<f64>', but the cotangent of argument 1 of @f is 'tensor<f32>'}}
func.func @f(%n: tensor<i32>, %x: tensor<f32>) -> tensor<f32> attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}} {
  return %x : tensor<f32>
}
func.func private @f_fwd(%n: tensor<i32>, %x: tensor<f32>) -> tensor<f32>
func.func private @f_bwd(%dy: tensor<f32>) -> tensor<f64>

// -----

// expected-error @below {{'trace.checkpoint' is an attribute of func.func, not of 'arith.constant'}}
%c = "arith.constant"() {value = 1 : i32, trace.checkpoint} : () -> i32

// -----

// expected-error @below {{'trace.checkpoint' must be a unit attribute or one of the policies "nothing", "contractions", "everything", got "dots"}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.checkpoint = "dots"} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'trace.checkpoint' must be a unit attribute or one of the policies}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.checkpoint = 1 : i64} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'trace.custom_jvp' must be a function symbol (like @f_jvp), got {jvp = @f_jvp}}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_jvp = {jvp = @f_jvp}} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'trace.custom_jvp' @missing is not a function in the module}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_jvp = @missing} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'trace.custom_jvp' @f is the function itself}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trace.custom_jvp = @f} {
  return %x : tensor<f32>
}

// -----

// The integer argument and result get no tangent.
// expected-error @below {{'trace.custom_jvp' @f_jvp must have the type '(tensor<2xf32>, tensor<i32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>)' (the arguments of @f, then one tangent per float argument, to its results, then one tangent per float result), but has '(tensor<2xf32>, tensor<i32>, tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>)'}}
func.func @f(%x: tensor<2xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) attributes {trace.custom_jvp = @f_jvp} {
  return %x, %n : tensor<2xf32>, tensor<i32>
}
func.func private @f_jvp(%x: tensor<2xf32>, %n: tensor<i32>, %t: tensor<2xf32>, %tn: tensor<i32>) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>)

// -----

// The valid forms: a variable argument's cotangent is its value's type.
func.func @f(%x: tensor<2xf32>, %v: !trace.resource<tensor<3xf32>>) -> tensor<2xf32>
    attributes {trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}, trace.checkpoint} {
  return %x : tensor<2xf32>
}
func.func private @f_fwd(%x: tensor<2xf32>, %v: !trace.resource<tensor<3xf32>>) -> (tensor<2xf32>, tensor<i64>)
func.func private @f_bwd(%r: tensor<i64>, %dy: tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>)
func.func @g(%x: tensor<f32>) -> tensor<f32> attributes {trace.checkpoint = "contractions"} {
  return %x : tensor<f32>
}
func.func @h(%x: tensor<2xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) attributes {trace.custom_jvp = @h_jvp} {
  return %x, %n : tensor<2xf32>, tensor<i32>
}
func.func private @h_jvp(%x: tensor<2xf32>, %n: tensor<i32>, %t: tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>)
