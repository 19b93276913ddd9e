// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @constant_float
// CHECK: %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 2.500000e+00]]> : tensor<1x2xf32>
// CHECK: return %[[C]]
func.func @constant_float() -> tensor<1x2xf32> {
  %0 = trace.constant dense<[[1.0, 2.5]]> : tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

// CHECK-LABEL: func.func @constant_int_and_bool
// CHECK-DAG: arith.constant dense<[-3, 7]> : tensor<2xi64>
// CHECK-DAG: arith.constant dense<true> : tensor<i1>
// CHECK-NOT: trace.
func.func @constant_int_and_bool() -> (tensor<2xi64>, tensor<i1>) {
  %0 = trace.constant dense<[-3, 7]> : tensor<2xi64>
  %1 = trace.constant dense<true> : tensor<i1>
  return %0, %1 : tensor<2xi64>, tensor<i1>
}

// -----

// A splat of more than 1024 elements is a fill, not data in the binary (a
// splat constant was materialized element by element: compiling
// tnp.ones((8192, 8192)) took 9 s); a small one stays a constant.
// CHECK-LABEL: func.func @large_splats
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[E0:.*]] = tensor.empty() : tensor<65536x65536xf32>
// CHECK-DAG: linalg.fill ins(%[[ONE]] : f32) outs(%[[E0]] : tensor<65536x65536xf32>)
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<1025xi1>
// CHECK-DAG: linalg.fill ins(%[[TRUE]] : i1) outs(%[[E1]] : tensor<1025xi1>)
// CHECK-DAG: arith.constant dense<7> : tensor<1024xi32>
func.func @large_splats() -> (tensor<65536x65536xf32>, tensor<1025xi1>, tensor<1024xi32>) {
  %0 = trace.constant dense<1.0> : tensor<65536x65536xf32>
  %1 = trace.constant dense<true> : tensor<1025xi1>
  %2 = trace.constant dense<7> : tensor<1024xi32>
  return %0, %1, %2 : tensor<65536x65536xf32>, tensor<1025xi1>, tensor<1024xi32>
}

// -----

// The scalar is read out of the rank-0 operand and filled in.
// CHECK-LABEL: func.func @fill
// CHECK-SAME: (%[[V:.*]]: tensor<f32>)
// CHECK: %[[S:.*]] = tensor.extract %[[V]][] : tensor<f32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[S]] : f32) outs(%[[E]] : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[F]]
func.func @fill(%v: tensor<f32>) -> tensor<2x3xf32> {
  %0 = trace.fill %v : tensor<f32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @fill_int
// CHECK: %[[S:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK: linalg.fill ins(%[[S]] : i32) outs(%{{.*}} : tensor<4xi32>)
func.func @fill_int(%v: tensor<i32>) -> tensor<4xi32> {
  %0 = trace.fill %v : tensor<i32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Small iotas fold to constants; these are too large to fold (over 1024
// elements), so they become generics writing linalg.index of the axis.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @iota_float_negative_axis
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x1025xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x1025xf32>)
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[F:.*]] = arith.sitofp %[[W]] : i64 to f32
// CHECK: linalg.yield %[[F]] : f32
func.func @iota_float_negative_axis() -> tensor<2x1025xf32> {
  %0 = trace.iota {axis = -1} : tensor<2x1025xf32>
  return %0 : tensor<2x1025xf32>
}

// -----

// CHECK-LABEL: func.func @iota_int
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: linalg.yield %[[C]] : i32
func.func @iota_int() -> tensor<1025x2xi32> {
  %0 = trace.iota : tensor<1025x2xi32>
  return %0 : tensor<1025x2xi32>
}

// -----

// CHECK-LABEL: func.func @iota_f16
// CHECK: linalg.index 2 : index
// CHECK: arith.sitofp %{{.*}} : i64 to f16
func.func @iota_f16() -> tensor<1x2x1025xf16> {
  %0 = trace.iota {axis = 2} : tensor<1x2x1025xf16>
  return %0 : tensor<1x2x1025xf16>
}

// -----

// Without control tokens identity is its operand.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]] : tensor<4xf32>
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = trace.identity %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
