// RUN: tracec-opt %s -canonicalize -split-input-file | FileCheck %s

// Folding of the source ops.

// Identical constants are merged; an unused one is erased.
// CHECK-LABEL: func.func @constant_dedup
// CHECK: %[[C:.*]] = trace.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT: trace.constant
// CHECK: return %[[C]], %[[C]]
func.func @constant_dedup() -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = trace.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = trace.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = trace.constant dense<3.0> : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// fill of a constant scalar is a splat constant, in every element type.
// CHECK-LABEL: func.func @fill_constant
// CHECK-DAG: trace.constant dense<2.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: trace.constant dense<true> : tensor<4xi1>
// CHECK-DAG: trace.constant dense<-7> : tensor<3x1xi64>
// CHECK-DAG: trace.constant dense<1.000000e+00> : tensor<2xbf16>
// CHECK-NOT: trace.fill
func.func @fill_constant() -> (tensor<2x3xf32>, tensor<4xi1>, tensor<3x1xi64>, tensor<2xbf16>) {
  %f = trace.constant dense<2.5> : tensor<f32>
  %b = trace.constant dense<true> : tensor<i1>
  %i = trace.constant dense<-7> : tensor<i64>
  %h = trace.constant dense<1.0> : tensor<bf16>
  %0 = trace.fill %f : tensor<f32> -> tensor<2x3xf32>
  %1 = trace.fill %b : tensor<i1> -> tensor<4xi1>
  %2 = trace.fill %i : tensor<i64> -> tensor<3x1xi64>
  %3 = trace.fill %h : tensor<bf16> -> tensor<2xbf16>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<4xi1>, tensor<3x1xi64>, tensor<2xbf16>
}

// -----

// A splat is cheap whatever its size, so large fills fold too.
// CHECK-LABEL: func.func @fill_large
// CHECK: %[[C:.*]] = trace.constant dense<0.000000e+00> : tensor<1024x1024xf32>
// CHECK: return %[[C]]
func.func @fill_large() -> tensor<1024x1024xf32> {
  %z = trace.constant dense<0.0> : tensor<f32>
  %0 = trace.fill %z : tensor<f32> -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// Not folded: a non-constant value. (A dynamic result shape is invalid:
// nothing gives its size, see dynamic-shapes-invalid.mlir.)
// CHECK-LABEL: func.func @fill_not_folded
// CHECK: trace.fill %arg0 : tensor<f32> -> tensor<2xf32>
func.func @fill_not_folded(%v: tensor<f32>) -> tensor<2xf32> {
  %0 = trace.fill %v : tensor<f32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @iota_values
// CHECK-DAG: trace.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// CHECK-DAG: trace.constant dense<{{\[}}[0, 0, 0], [1, 1, 1]]> : tensor<2x3xi64>
// CHECK-DAG: trace.constant dense<{{\[}}[0.000000e+00, 1.000000e+00, 2.000000e+00], [0.000000e+00, 1.000000e+00, 2.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: trace.constant dense<{{\[}}{{\[}}[0, 0], [1, 1], [2, 2]], {{\[}}[0, 0], [1, 1], [2, 2]]]> : tensor<2x3x2xi32>
// CHECK-DAG: trace.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00]> : tensor<3xf16>
// CHECK-DAG: trace.constant dense<0> : tensor<1x1xi32>
// CHECK-NOT: trace.iota
func.func @iota_values() -> (tensor<4xi32>, tensor<2x3xi64>, tensor<2x3xf32>, tensor<2x3x2xi32>, tensor<3xf16>, tensor<1x1xi32>) {
  %0 = trace.iota : tensor<4xi32>
  %1 = trace.iota {axis = 0} : tensor<2x3xi64>
  %2 = trace.iota {axis = -1} : tensor<2x3xf32>
  %3 = trace.iota {axis = 1} : tensor<2x3x2xi32>
  %4 = trace.iota : tensor<3xf16>
  %5 = trace.iota {axis = 1} : tensor<1x1xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<2x3xi64>, tensor<2x3xf32>, tensor<2x3x2xi32>, tensor<3xf16>, tensor<1x1xi32>
}

// -----

// Exactly kMaxFoldedElements (1024) elements fold; one more does not.
// (Large constants print as little-endian hex: rows 0, 1, 2, ..., 511.)
// CHECK-LABEL: func.func @iota_limits
// CHECK: trace.constant dense<"0x000000000100000002000000{{.*}}FE010000FF010000"> : tensor<2x512xi32>
// CHECK: trace.iota : tensor<1025xi32>
func.func @iota_limits() -> (tensor<2x512xi32>, tensor<1025xi32>) {
  %0 = trace.iota {axis = 1} : tensor<2x512xi32>
  %1 = trace.iota : tensor<1025xi32>
  return %0, %1 : tensor<2x512xi32>, tensor<1025xi32>
}

// -----

// An empty iota folds to an empty constant.
// CHECK-LABEL: func.func @iota_empty
// CHECK: trace.constant dense<> : tensor<0x3xi32>
func.func @iota_empty() -> tensor<0x3xi32> {
  %0 = trace.iota {axis = 1} : tensor<0x3xi32>
  return %0 : tensor<0x3xi32>
}

// -----

// Random ops have side effects: they stay even when unused, and two
// identical ones are not merged.
// CHECK-LABEL: func.func @random_kept
// CHECK: %{{.*}}, %[[C0:.*]] = trace.random_uniform {seed = 1 : i64} : tensor<2xf32>
// CHECK: trace.random_uniform {seed = 1 : i64} : tensor<2xf32>
// CHECK: trace.random_normal after(%[[C0]]) : tensor<2xf32>
func.func @random_kept() {
  %r0, %c0 = trace.random_uniform {seed = 1} : tensor<2xf32>
  %r1, %c1 = trace.random_uniform {seed = 1} : tensor<2xf32>
  %r2, %c2 = trace.random_normal after(%c0) : tensor<2xf32>
  return
}

// -----

// (Types whose element count overflows int64_t no longer reach the
// folders: the verifier rejects every tensor over 2^48 bytes,
// invalid-sizes.mlir.)
