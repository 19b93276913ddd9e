// RUN: not tracec-opt %s -split-input-file 2>&1 | FileCheck %s

// Bad trace types: each is a diagnostic at its position, never a crash.

// CHECK: bad-types.mlir:[[# @LINE + 2]]:34: error: invalid kind of type specified: expected builtin.tensor, but found 'f32'
// CHECK: bad-types.mlir:[[# @LINE + 1]]:37: error: failed to parse Trace_ResourceType parameter 'valueType' which is to be a `::mlir::RankedTensorType`
func.func @a(%v: !trace.resource<f32>) {
  return
}

// -----

// CHECK: bad-types.mlir:[[# @LINE + 1]]:33: error: resource value type must be a tensor of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<4xi8>'
func.func @b(%v: !trace.resource<tensor<4xi8>>) {
  return
}

// -----

// CHECK: bad-types.mlir:[[# @LINE + 1]]:25: error: {{.*}}type `foo` in dialect `trace`
func.func @c(%v: !trace.foo) {
  return
}

// -----

// CHECK: bad-types.mlir:[[# @LINE + 1]]:32: error: !trace.control takes no parameters
func.func @d(%t: !trace.control<f32>) {
  return
}

// -----

// A trace type where an op needs another one.
func.func @e(%v: tensor<4xf32>, %x: tensor<4xf32>) {
  // CHECK: bad-types.mlir:[[# @LINE + 1]]:8: error: custom op 'trace.var.assign' 'resource' must be a handle to a variable holding a tensor, but got 'tensor<4xf32>'
  %c = trace.var.assign %v, %x : tensor<4xf32>
  return
}
