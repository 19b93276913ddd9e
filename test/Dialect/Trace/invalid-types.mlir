// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// The errors of !trace.resource and !trace.control, and unknown trace types.

// A variable holds a ranked tensor, not a scalar.
// expected-error @below {{invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
// expected-error @below {{failed to parse Trace_ResourceType parameter 'valueType' which is to be a `::mlir::RankedTensorType`}}
func.func @scalar(%v: !trace.resource<f32>) {
  return
}

// -----

// expected-error @below {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
// expected-error @below {{failed to parse Trace_ResourceType parameter 'valueType' which is to be a `::mlir::RankedTensorType`}}
func.func @unranked(%v: !trace.resource<tensor<*xf32>>) {
  return
}

// -----

// expected-error @below {{invalid kind of type specified: expected builtin.tensor, but found 'memref<4xf32>'}}
// expected-error @below {{failed to parse Trace_ResourceType parameter 'valueType' which is to be a `::mlir::RankedTensorType`}}
func.func @memref(%v: !trace.resource<memref<4xf32>>) {
  return
}

// -----

// expected-error @below {{resource value type must be a tensor of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<4xi8>'}}
func.func @i8(%v: !trace.resource<tensor<4xi8>>) {
  return
}

// -----

// Only signless integers.
// expected-error @below {{resource value type must be a tensor of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<4xui32>'}}
func.func @ui32(%v: !trace.resource<tensor<4xui32>>) {
  return
}

// -----

// expected-error @below {{resource value type must be a tensor of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<si64>'}}
func.func @si64(%v: !trace.resource<tensor<si64>>) {
  return
}

// -----

// expected-error @below {{resource value type must be a tensor of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<2xcomplex<f32>>'}}
func.func @complex(%v: !trace.resource<tensor<2xcomplex<f32>>>) {
  return
}

// -----

// expected-error @below {{resource value type must be a tensor of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<2x!trace.control>'}}
func.func @tokens(%v: !trace.resource<tensor<2x!trace.control>>) {
  return
}

// -----

// expected-error @below {{resource value type must be a tensor of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<2xindex>'}}
func.func @index(%v: !trace.resource<tensor<2xindex>>) {
  return
}

// -----

// expected-error @below {{expected '<'}}
func.func @no_parameter(%v: !trace.resource) {
  return
}

// -----

// expected-error @below {{expected '>'}}
func.func @two_parameters(%v: !trace.resource<tensor<4xf32>, tensor<4xf32>>) {
  return
}

// -----

// expected-error @below {{!trace.control takes no parameters}}
func.func @control_parameter(%t: !trace.control<f32>) {
  return
}

// -----

// expected-error @below {{!trace.control takes no parameters}}
func.func @control_empty_parameter(%t: !trace.control<>) {
  return
}

// -----

// expected-error @below {{type `foo` in dialect `trace`}}
func.func @unknown(%v: !trace.foo) {
  return
}

// -----

// Mnemonics are case-sensitive.
// expected-error @below {{type `Resource` in dialect `trace`}}
func.func @unknown_case(%v: !trace.Resource<tensor<4xf32>>) {
  return
}
