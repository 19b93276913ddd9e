// RUN: tracec-opt %s -canonicalize -split-input-file | FileCheck %s

// Shape arithmetic on small constants is evaluated (the GraphDef importer
// folds as it builds, so a shape computed by the graph stays a constant).

// CHECK-LABEL: func.func @concat_of_constants
// CHECK: trace.constant dense<{{\[\[}}1, 2, 5], [3, 4, 6]]> : tensor<2x3xi32>
// CHECK-NOT: trace.concat
func.func @concat_of_constants() -> tensor<2x3xi32> {
  %a = trace.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = trace.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %0 = trace.concat %a, %b {axis = -1 : i64} : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @strided_slice_of_a_constant
// CHECK: trace.constant dense<[1, 3]> : tensor<2xi64>
func.func @strided_slice_of_a_constant() -> tensor<2xi64> {
  %a = trace.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi64>
  %0 = trace.slice %a {start = array<i64: 1>, limit = array<i64: 5>, strides = array<i64: 2>} : tensor<5xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Indices are clamped, as the op clamps them.
// CHECK-LABEL: func.func @gather_of_constants
// CHECK: trace.constant dense<{{\[\[}}3.000000e+00, 1.000000e+00, 1.000000e+00], [6.000000e+00, 4.000000e+00, 4.000000e+00]]> : tensor<2x3xf32>
func.func @gather_of_constants() -> tensor<2x3xf32> {
  %p = trace.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = trace.constant dense<[7, 0, -1]> : tensor<3xi32>
  %0 = trace.gather %p, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// An element count: the product of a shape's dims.
// CHECK-LABEL: func.func @integer_product
// CHECK: trace.constant dense<[6, 20]> : tensor<2xi32>
// CHECK: trace.constant dense<120> : tensor<i64>
func.func @integer_product() -> (tensor<2xi32>, tensor<i64>) {
  %a = trace.constant dense<[[1, 2, 3], [4, 5, 1]]> : tensor<2x3xi32>
  %0 = trace.reduce_prod %a {axes = array<i64: 1>} : tensor<2x3xi32> -> tensor<2xi32>
  %b = trace.constant dense<[2, 3, 4, 5]> : tensor<4xi64>
  %1 = trace.reduce_prod %b {axes = array<i64: 0>} : tensor<4xi64> -> tensor<i64>
  return %0, %1 : tensor<2xi32>, tensor<i64>
}

// -----

// Not folded: operands that are not constants, a float product (rounding
// is the compiled code's), and results too large to duplicate.
// CHECK-LABEL: func.func @not_folded
// CHECK: trace.concat
// CHECK: trace.reduce_prod
// CHECK: trace.slice
func.func @not_folded(%x: tensor<2xi32>) -> (tensor<4xi32>, tensor<f32>, tensor<2000xf32>) {
  %c = trace.constant dense<[1, 2]> : tensor<2xi32>
  %0 = trace.concat %x, %c {axis = 0 : i64} : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  %f = trace.constant dense<[1.5, 2.0]> : tensor<2xf32>
  %1 = trace.reduce_prod %f {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  %big = trace.constant dense<1.0> : tensor<3000xf32>
  %2 = trace.slice %big {start = array<i64: 0>, limit = array<i64: 2000>} : tensor<3000xf32> -> tensor<2000xf32>
  return %0, %1, %2 : tensor<4xi32>, tensor<f32>, tensor<2000xf32>
}
