// RUN: tracec-opt %s -canonicalize -split-input-file | FileCheck %s

// A contraction dim of 1 is an outer product: a broadcasting multiply of
// lhs as columns and rhs as rows (transposed operands reshaped: one of
// their two dims is 1, so the elements keep their order).

// CHECK-LABEL: func.func @outer
// CHECK-SAME: %[[A:[a-z0-9_]+]]: tensor<8x1x784xf32>, %[[B:[a-z0-9_]+]]: tensor<8x1x512xf32>
// CHECK: %[[COL:.*]] = trace.reshape %[[A]] : tensor<8x1x784xf32> -> tensor<8x784x1xf32>
// CHECK: %[[P:.*]] = trace.mul %[[COL]], %[[B]] : (tensor<8x784x1xf32>, tensor<8x1x512xf32>) -> tensor<8x784x512xf32>
// CHECK: return %[[P]]
func.func @outer(%a: tensor<8x1x784xf32>, %b: tensor<8x1x512xf32>) -> tensor<8x784x512xf32> {
  %0 = trace.matmul %a, %b {transpose_a} : (tensor<8x1x784xf32>, tensor<8x1x512xf32>) -> tensor<8x784x512xf32>
  return %0 : tensor<8x784x512xf32>
}

// CHECK-LABEL: func.func @outer_transposed_rhs
// CHECK: %[[ROW:.*]] = trace.reshape %{{.*}} : tensor<5x1xf64> -> tensor<1x5xf64>
// CHECK: trace.mul %{{.*}}, %[[ROW]] : (tensor<3x1xf64>, tensor<1x5xf64>) -> tensor<3x5xf64>
func.func @outer_transposed_rhs(%a: tensor<3x1xf64>, %b: tensor<5x1xf64>) -> tensor<3x5xf64> {
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<3x1xf64>, tensor<5x1xf64>) -> tensor<3x5xf64>
  return %0 : tensor<3x5xf64>
}

// bf16 products accumulate in f32 and round once: left as they are.
// CHECK-LABEL: func.func @outer_bf16
// CHECK: trace.matmul
func.func @outer_bf16(%a: tensor<3x1xbf16>, %b: tensor<1x5xbf16>) -> tensor<3x5xbf16> {
  %0 = trace.matmul %a, %b : (tensor<3x1xbf16>, tensor<1x5xbf16>) -> tensor<3x5xbf16>
  return %0 : tensor<3x5xbf16>
}

// -----

// A batch of matrices times one matrix: one product, the batch folded into
// the rows.

// CHECK-LABEL: func.func @batch_by_matrix
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<256x1x784xf32>, %[[W:[a-z0-9_]+]]: tensor<512x784xf32>
// CHECK: %[[F:.*]] = trace.reshape %[[X]] : tensor<256x1x784xf32> -> tensor<256x784xf32>
// CHECK: %[[P:.*]] = trace.matmul %[[F]], %[[W]] {transpose_b} : (tensor<256x784xf32>, tensor<512x784xf32>) -> tensor<256x512xf32>
// CHECK: %[[R:.*]] = trace.reshape %[[P]] : tensor<256x512xf32> -> tensor<256x1x512xf32>
// CHECK: return %[[R]]
func.func @batch_by_matrix(%x: tensor<256x1x784xf32>, %w: tensor<512x784xf32>) -> tensor<256x1x512xf32> {
  %0 = trace.matmul %x, %w {transpose_b} : (tensor<256x1x784xf32>, tensor<512x784xf32>) -> tensor<256x1x512xf32>
  return %0 : tensor<256x1x512xf32>
}

// A batched rhs, a transposed lhs or dynamic dims: left as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: trace.matmul
func.func @left_alone(%x: tensor<4x2x3xf32>, %w: tensor<4x3x5xf32>, %t: tensor<4x3x2xf32>, %v: tensor<3x5xf32>, %d: tensor<?x2x3xf32>) -> (tensor<4x2x5xf32>, tensor<4x2x5xf32>, tensor<?x2x5xf32>) {
  %0 = trace.matmul %x, %w : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  %1 = trace.matmul %t, %v {transpose_a} : (tensor<4x3x2xf32>, tensor<3x5xf32>) -> tensor<4x2x5xf32>
  %2 = trace.matmul %d, %v : (tensor<?x2x3xf32>, tensor<3x5xf32>) -> tensor<?x2x5xf32>
  return %0, %1, %2 : tensor<4x2x5xf32>, tensor<4x2x5xf32>, tensor<?x2x5xf32>
}
