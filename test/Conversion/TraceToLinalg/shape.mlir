// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// A pure collapse of contiguous dims.
// CHECK-LABEL: func.func @reshape_collapse
// CHECK: %[[R:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
// CHECK: return %[[R]]
func.func @reshape_collapse(%x: tensor<2x3x4x5xf32>) -> tensor<6x20xf32> {
  %0 = trace.reshape %x : tensor<2x3x4x5xf32> -> tensor<6x20xf32>
  return %0 : tensor<6x20xf32>
}

// -----

// A pure expand, size-1 dims included.
// CHECK-LABEL: func.func @reshape_expand
// CHECK: %[[R:.*]] = tensor.expand_shape %arg0 {{\[}}[0, 1], [2, 3]] output_shape [1, 6, 2, 2] : tensor<6x4xi32> into tensor<1x6x2x2xi32>
// CHECK: return %[[R]]
func.func @reshape_expand(%x: tensor<6x4xi32>) -> tensor<1x6x2x2xi32> {
  %0 = trace.reshape %x : tensor<6x4xi32> -> tensor<1x6x2x2xi32>
  return %0 : tensor<1x6x2x2xi32>
}

// -----

// Neither: through the flat row-major vector.
// CHECK-LABEL: func.func @reshape_regroup
// CHECK: %[[F:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: return %[[R]]
func.func @reshape_regroup(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_scalar
// CHECK: %[[S:.*]] = tensor.collapse_shape %arg0 [] : tensor<1x1xf32> into tensor<f32>
// CHECK: %[[V:.*]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: return %[[S]], %[[V]]
func.func @reshape_scalar(%x: tensor<1x1xf32>) -> (tensor<f32>, tensor<1xf32>) {
  %0 = trace.reshape %x : tensor<1x1xf32> -> tensor<f32>
  %1 = trace.reshape %0 : tensor<f32> -> tensor<1xf32>
  return %0, %1 : tensor<f32>, tensor<1xf32>
}

// -----

// No elements: nothing to move.
// CHECK-LABEL: func.func @reshape_empty
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x0xf32>
// CHECK: return %[[E]]
func.func @reshape_empty(%x: tensor<0x3xf32>) -> tensor<3x0xf32> {
  %0 = trace.reshape %x : tensor<0x3xf32> -> tensor<3x0xf32>
  return %0 : tensor<3x0xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK: return %[[T]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = trace.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// New leading dims only: linalg.broadcast (a kept size-1 dim stays).
// CHECK-LABEL: func.func @broadcast_leading
// CHECK: %[[E:.*]] = tensor.empty() : tensor<5x2x1x3xi64>
// CHECK: linalg.broadcast ins(%arg0 : tensor<1x3xi64>) outs(%[[E]] : tensor<5x2x1x3xi64>) dimensions = [0, 1]
func.func @broadcast_leading(%x: tensor<1x3xi64>) -> tensor<5x2x1x3xi64> {
  %0 = trace.broadcast_to %x : tensor<1x3xi64> -> tensor<5x2x1x3xi64>
  return %0 : tensor<5x2x1x3xi64>
}

// -----

// Size-1 dims that grow are read at index 0.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_unit_dims
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x3xf32>) outs(%{{.*}} : tensor<2x4x3xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[A]] : f32
func.func @broadcast_unit_dims(%x: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = trace.broadcast_to %x : tensor<1x3xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// Inputs go one after another along the (negative) axis; an empty one is
// skipped.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x1xf32>, %[[B:.*]]: tensor<2x0xf32>, %[[C:.*]]: tensor<2x3xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[S0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x4xf32>
// CHECK-NOT: %[[B]]
// CHECK: %[[S1:.*]] = tensor.insert_slice %[[C]] into %[[S0]][0, 1] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x4xf32>
// CHECK: return %[[S1]]
func.func @concat(%a: tensor<2x1xf32>, %b: tensor<2x0xf32>, %c: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %0 = trace.concat %a, %b, %c {axis = -1} : (tensor<2x1xf32>, tensor<2x0xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @slice_strided
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[1, 0] [2, 3] [2, 3] : tensor<5x7xi32> to tensor<2x3xi32>
// CHECK: return %[[S]]
func.func @slice_strided(%x: tensor<5x7xi32>) -> tensor<2x3xi32> {
  %0 = trace.slice %x {start = array<i64: 1, 0>, limit = array<i64: 5, 7>, strides = array<i64: 2, 3>} : tensor<5x7xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @slice_unit_strides
// CHECK: tensor.extract_slice %arg0[0, 2] [1, 1] [1, 1] : tensor<2x3xf32> to tensor<1x1xf32>
func.func @slice_unit_strides(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %0 = trace.slice %x {start = array<i64: 0, 2>, limit = array<i64: 1, 3>} : tensor<2x3xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func.func @pad_float
// CHECK: %[[V:.*]] = arith.constant -2.500000e+00 : f32
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[1, 0] high[0, 2] {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: tensor.yield %[[V]] : f32
// CHECK-NEXT: } : tensor<2x3xf32> to tensor<3x5xf32>
// CHECK: return %[[P]]
func.func @pad_float(%x: tensor<2x3xf32>) -> tensor<3x5xf32> {
  %0 = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 2>, value = -2.5} : tensor<2x3xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// The f64 value converts to the element type: integers truncate toward
// zero, bool is "non-zero", f16 rounds.
// CHECK-LABEL: func.func @pad_converted
// CHECK: %[[I:.*]] = arith.constant -7 : i32
// CHECK: tensor.pad %arg0 low[2] high[1]
// CHECK: tensor.yield %[[I]] : i32
// CHECK: %[[B:.*]] = arith.constant true
// CHECK: tensor.pad %arg1 low[0] high[1]
// CHECK: tensor.yield %[[B]] : i1
// CHECK: %[[H:.*]] = arith.constant 9.997550e-02 : f16
// CHECK: tensor.pad %arg2 low[1] high[0]
// CHECK: tensor.yield %[[H]] : f16
func.func @pad_converted(%x: tensor<2xi32>, %b: tensor<2xi1>, %h: tensor<2xf16>) -> (tensor<5xi32>, tensor<3xi1>, tensor<3xf16>) {
  %0 = trace.pad %x {low = array<i64: 2>, high = array<i64: 1>, value = -7.9} : tensor<2xi32> -> tensor<5xi32>
  %1 = trace.pad %b {low = array<i64: 0>, high = array<i64: 1>, value = 0.5} : tensor<2xi1> -> tensor<3xi1>
  %2 = trace.pad %h {low = array<i64: 1>, high = array<i64: 0>, value = 0.1} : tensor<2xf16> -> tensor<3xf16>
  return %0, %1, %2 : tensor<5xi32>, tensor<3xi1>, tensor<3xf16>
}

// -----

// params [2, 5, 3], indices [4, 6] at axis 1 -> [2, 4, 6, 3]: the indices
// are read at the middle dims, clamped to [0, 4], and params is read at
// (d0, clamped, d3).
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @gather_clamped
// CHECK-SAME: (%[[P:.*]]: tensor<2x5x3xf32>, %[[I:.*]]: tensor<4x6xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[I]] : tensor<4x6xi64>) outs(%{{.*}} : tensor<2x4x6x3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[CAST:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[CAST]], %[[ZERO]] : index
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[LO]], %[[LAST]] : index
// CHECK-NEXT: %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[D3:.*]] = linalg.index 3 : index
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[P]][%[[D0]], %[[CLAMPED]], %[[D3]]] : tensor<2x5x3xf32>
// CHECK-NEXT: linalg.yield %[[E]] : f32
func.func @gather_clamped(%p: tensor<2x5x3xf32>, %i: tensor<4x6xi64>) -> tensor<2x4x6x3xf32> {
  %0 = trace.gather %p, %i {axis = 1} : (tensor<2x5x3xf32>, tensor<4x6xi64>) -> tensor<2x4x6x3xf32>
  return %0 : tensor<2x4x6x3xf32>
}

// -----

// Negative axis, rank-0 indices: the indices map has no results.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @gather_scalar_index
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}], {{.*}} ins(%arg1 : tensor<i32>) outs(%{{.*}} : tensor<3xi32>)
// CHECK: arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[LAST:.*]] = arith.constant 1 : index
// CHECK: %[[CLAMPED:.*]] = arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: tensor.extract %arg0[%[[D0]], %[[CLAMPED]]] : tensor<3x2xi32>
func.func @gather_scalar_index(%p: tensor<3x2xi32>, %i: tensor<i32>) -> tensor<3xi32> {
  %0 = trace.gather %p, %i {axis = -1} : (tensor<3x2xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Default axis -1: the new dim is last; the index, sign-extended, is
// compared with its position (out-of-range indices match nothing).
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @one_hot_last
// CHECK-DAG: %[[ON:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[OFF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[OUT]]], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3xi32>) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT: %[[POS:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK-NEXT: %[[HOT:.*]] = arith.cmpi eq, %[[POS]], %[[I]] : index
// CHECK-NEXT: %[[R:.*]] = arith.select %[[HOT]], %[[ON]], %[[OFF]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @one_hot_last(%i: tensor<3xi32>) -> tensor<3x4xf32> {
  %0 = trace.one_hot %i {depth = 4} : tensor<3xi32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// The new dim at axis 0 (= -3 for a rank-3 result); on/off values convert to
// the integer element type.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @one_hot_first
// CHECK-DAG: %[[ON:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[OFF:.*]] = arith.constant -1 : i64
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}], {{.*}} ins(%arg0 : tensor<2x3xi64>) outs(%{{.*}} : tensor<4x2x3xi64>)
// CHECK: linalg.index 0 : index
// CHECK: arith.index_cast %{{.*}} : i64 to index
// CHECK: arith.select %{{.*}}, %[[ON]], %[[OFF]] : i64
func.func @one_hot_first(%i: tensor<2x3xi64>) -> tensor<4x2x3xi64> {
  %0 = trace.one_hot %i {depth = 4, axis = -3, on_value = 5.0, off_value = -1.0} : tensor<2x3xi64> -> tensor<4x2x3xi64>
  return %0 : tensor<4x2x3xi64>
}

// -----

// CHECK-LABEL: func.func @one_hot_bool
// CHECK-DAG: %[[ON:.*]] = arith.constant true
// CHECK-DAG: %[[OFF:.*]] = arith.constant false
// CHECK: arith.select %{{.*}}, %[[ON]], %[[OFF]] : i1
func.func @one_hot_bool(%i: tensor<2xi32>) -> tensor<2x3xi1> {
  %0 = trace.one_hot %i {depth = 3} : tensor<2xi32> -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
