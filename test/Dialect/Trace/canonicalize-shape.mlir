// RUN: tracec-opt %s -canonicalize -split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<f32>)
// CHECK-NOT: trace.transpose
// CHECK: return %[[X]], %[[S]]
func.func @transpose_identity(%x: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<2x3xf32>, tensor<f32>) {
  %0 = trace.transpose %x {perm = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = trace.transpose %s {perm = array<i64>} : tensor<f32> -> tensor<f32>
  return %0, %1 : tensor<2x3xf32>, tensor<f32>
}

// -----

// A permutation that maps a shape to itself is still a real transpose.
// CHECK-LABEL: func.func @transpose_square_stays
// CHECK: %[[T:.*]] = trace.transpose %{{[a-z0-9_]+}} {perm = array<i64: 1, 0>} : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK: return %[[T]]
func.func @transpose_square_stays(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<3x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Result dim i of the outer transpose is x's dim inner[outer[i]].
// CHECK-LABEL: func.func @transpose_compose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[T:.*]] = trace.transpose %[[X]] {perm = array<i64: 1, 0, 2>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
// CHECK-NOT: trace.transpose
// CHECK: return %[[T]]
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %0 = trace.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = trace.transpose %0 {perm = array<i64: 0, 2, 1>} : tensor<3x4x2xf32> -> tensor<3x2x4xf32>
  return %1 : tensor<3x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_compose_to_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NOT: trace.transpose
// CHECK: return %[[X]]
func.func @transpose_compose_to_identity(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = trace.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = trace.transpose %0 {perm = array<i64: 2, 0, 1>} : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// Three transposes collapse into one.
// CHECK-LABEL: func.func @transpose_compose_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xi32>)
// CHECK: %[[T:.*]] = trace.transpose %[[X]] {perm = array<i64: 3, 2, 1, 0>} : tensor<2x3x4x5xi32> -> tensor<5x4x3x2xi32>
// CHECK-NOT: trace.transpose
// CHECK: return %[[T]]
func.func @transpose_compose_chain(%x: tensor<2x3x4x5xi32>) -> tensor<5x4x3x2xi32> {
  %0 = trace.transpose %x {perm = array<i64: 1, 0, 2, 3>} : tensor<2x3x4x5xi32> -> tensor<3x2x4x5xi32>
  %1 = trace.transpose %0 {perm = array<i64: 0, 1, 3, 2>} : tensor<3x2x4x5xi32> -> tensor<3x2x5x4xi32>
  %2 = trace.transpose %1 {perm = array<i64: 2, 3, 0, 1>} : tensor<3x2x5x4xi32> -> tensor<5x4x3x2xi32>
  return %2 : tensor<5x4x3x2xi32>
}

// -----

// The inner transpose stays when it has another use.
// CHECK-LABEL: func.func @transpose_compose_shared
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[T:.*]] = trace.transpose %[[X]] {perm = array<i64: 1, 0>}
// CHECK-NOT: trace.transpose
// CHECK: return %[[X]], %[[T]]
func.func @transpose_compose_shared(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %0 = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = trace.transpose %0 {perm = array<i64: 1, 0>} : tensor<3x2xf32> -> tensor<2x3xf32>
  return %1, %0 : tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_constant
// CHECK-NOT: trace.transpose
// CHECK: %[[C:.*]] = trace.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK: return %[[C]]
func.func @transpose_constant() -> tensor<3x2xi32> {
  %c = trace.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = trace.transpose %c {perm = array<i64: 1, 0>} : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// Rank 3: result[i][j][k] = operand[j][k][i].
// CHECK-LABEL: func.func @transpose_constant_rank3
// CHECK-NOT: trace.transpose
// CHECK: trace.constant dense<{{\[}}{{\[}}[1.000000e+00], [4.000000e+00]], {{\[}}[2.000000e+00], [5.000000e+00]], {{\[}}[3.000000e+00], [6.000000e+00]]]> : tensor<3x2x1xf32>
func.func @transpose_constant_rank3() -> tensor<3x2x1xf32> {
  %c = trace.constant dense<[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]> : tensor<2x1x3xf32>
  %0 = trace.transpose %c {perm = array<i64: 2, 0, 1>} : tensor<2x1x3xf32> -> tensor<3x2x1xf32>
  return %0 : tensor<3x2x1xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_constant_bool
// CHECK-NOT: trace.transpose
// CHECK: trace.constant dense<{{\[}}[true, false], [false, false], [true, true]]> : tensor<3x2xi1>
func.func @transpose_constant_bool() -> tensor<3x2xi1> {
  %c = trace.constant dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>
  %0 = trace.transpose %c {perm = array<i64: 1, 0>} : tensor<2x3xi1> -> tensor<3x2xi1>
  return %0 : tensor<3x2xi1>
}

// -----

// CHECK-LABEL: func.func @transpose_splat
// CHECK-NOT: trace.transpose
// CHECK: trace.constant dense<2.500000e+00> : tensor<4x3x2xf32>
func.func @transpose_splat() -> tensor<4x3x2xf32> {
  %c = trace.constant dense<2.5> : tensor<2x3x4xf32>
  %0 = trace.transpose %c {perm = array<i64: 2, 1, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: trace.reshape
// CHECK: return %[[X]]
func.func @reshape_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = trace.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NOT: trace.reshape
// CHECK: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = trace.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = trace.reshape %0 : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// Through a dynamic shape and back to the original type: nothing is left.
// CHECK-LABEL: func.func @reshape_reshape_to_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: trace.reshape
// CHECK: return %[[X]]
func.func @reshape_reshape_to_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<?xf32>
  %1 = trace.reshape %0 : tensor<?xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_constant
// CHECK-NOT: trace.reshape
// CHECK: %[[C:.*]] = trace.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: return %[[C]]
func.func @reshape_constant() -> tensor<3x2xf32> {
  %c = trace.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %0 = trace.reshape %c : tensor<6xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_splat_to_scalar
// CHECK-NOT: trace.reshape
// CHECK: trace.constant dense<7> : tensor<i64>
func.func @reshape_splat_to_scalar() -> tensor<i64> {
  %c = trace.constant dense<7> : tensor<1x1xi64>
  %0 = trace.reshape %c : tensor<1x1xi64> -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// A constant cannot have a dynamic type: the reshape stays.
// CHECK-LABEL: func.func @reshape_constant_to_dynamic
// CHECK: %[[C:.*]] = trace.constant dense<{{.*}}> : tensor<2x3xf32>
// CHECK: trace.reshape %[[C]] : tensor<2x3xf32> -> tensor<?xf32>
func.func @reshape_constant_to_dynamic() -> tensor<?xf32> {
  %c = trace.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = trace.reshape %c : tensor<2x3xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A real reshape stays.
// CHECK-LABEL: func.func @reshape_stays
// CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<2x3xf32> -> tensor<3x2xf32>
func.func @reshape_stays(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// broadcast_to
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_same_shape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: trace.broadcast_to
// CHECK: return %[[X]]
func.func @broadcast_same_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.broadcast_to %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_splat
// CHECK-NOT: trace.broadcast_to
// CHECK-DAG: trace.constant dense<1.500000e+00> : tensor<4x3xf32>
// CHECK-DAG: trace.constant dense<-2> : tensor<2x5xi32>
func.func @broadcast_splat() -> (tensor<4x3xf32>, tensor<2x5xi32>) {
  %c = trace.constant dense<1.5> : tensor<3xf32>
  %0 = trace.broadcast_to %c : tensor<3xf32> -> tensor<4x3xf32>
  %s = trace.constant dense<-2> : tensor<i32>
  %1 = trace.broadcast_to %s : tensor<i32> -> tensor<2x5xi32>
  return %0, %1 : tensor<4x3xf32>, tensor<2x5xi32>
}

// -----

// A broadcast that adds a leading 1 changes the type: it stays.
// CHECK-LABEL: func.func @broadcast_stays
// CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<3xf32> -> tensor<1x3xf32>
func.func @broadcast_stays(%x: tensor<3xf32>) -> tensor<1x3xf32> {
  %0 = trace.broadcast_to %x : tensor<3xf32> -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// Only splats fold: a constant with different elements stays broadcast.
// CHECK-LABEL: func.func @broadcast_non_splat_stays
// CHECK: %[[C:.*]] = trace.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK: trace.broadcast_to %[[C]] : tensor<3xf32> -> tensor<2x3xf32>
func.func @broadcast_non_splat_stays() -> tensor<2x3xf32> {
  %c = trace.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = trace.broadcast_to %c : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @concat_one_input
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: trace.concat
// CHECK: return %[[X]]
func.func @concat_one_input(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = trace.concat %x {axis = 1} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat_two_inputs_stays
// CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
func.func @concat_two_inputs_stays(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = trace.concat %x, %x {axis = 0} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @slice_full
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<1x4xf32>)
// CHECK-NOT: trace.slice
// CHECK: return %[[X]], %[[Y]]
func.func @slice_full(%x: tensor<2x3xf32>, %y: tensor<1x4xf32>) -> (tensor<2x3xf32>, tensor<1x4xf32>) {
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3>} : tensor<2x3xf32> -> tensor<2x3xf32>
  // Any stride takes everything of a size-1 dim.
  %1 = trace.slice %y {start = array<i64: 0, 0>, limit = array<i64: 1, 4>, strides = array<i64: 5, 1>} : tensor<1x4xf32> -> tensor<1x4xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<1x4xf32>
}

// -----

// CHECK-LABEL: func.func @slice_partial_stays
// CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 2, 3>, start = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x2xf32>
// CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 2, 3>, start = array<i64: 0, 0>, strides = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<2x2xf32>
func.func @slice_partial_stays(%x: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = trace.slice %x {start = array<i64: 0, 1>, limit = array<i64: 2, 3>} : tensor<2x3xf32> -> tensor<2x2xf32>
  %1 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3>, strides = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Slicing a dynamic dim has a static result: never the identity.
// CHECK-LABEL: func.func @slice_dynamic_stays
// CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 4>, start = array<i64: 0>} : tensor<?xf32> -> tensor<4xf32>
func.func @slice_dynamic_stays(%x: tensor<?xf32>) -> tensor<4xf32> {
  %0 = trace.slice %x {start = array<i64: 0>, limit = array<i64: 4>} : tensor<?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pad_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[D:.*]]: tensor<?x3xf32>)
// CHECK-NOT: trace.pad
// CHECK: return %[[X]], %[[D]]
func.func @pad_zero(%x: tensor<2x3xf32>, %d: tensor<?x3xf32>) -> (tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = trace.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, 0>, value = 5.0 : f64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = trace.pad %d {low = array<i64: 0, 0>, high = array<i64: 0, 0>} : tensor<?x3xf32> -> tensor<?x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @pad_nonzero_stays
// CHECK: trace.pad %{{[a-z0-9_]+}} {high = array<i64: 0, 1>, low = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<2x4xf32>
func.func @pad_nonzero_stays(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %0 = trace.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Padding a dynamic dim keeps the type but not the value: it must stay.
// CHECK-LABEL: func.func @pad_dynamic_stays
// CHECK: %[[P:.*]] = trace.pad %{{[a-z0-9_]+}} {high = array<i64: 0, 0>, low = array<i64: 1, 0>} : tensor<?x3xf32> -> tensor<?x3xf32>
// CHECK: return %[[P]]
func.func @pad_dynamic_stays(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 0>} : tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
