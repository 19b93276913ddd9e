// Contractions through the packed, tiled, vectorized route of the CPU
// pipeline (lib/Codegen/CPU): sizes that no tile divides, both transposes,
// batches, sizes past the cache tiles (several result blocks and kc
// slices), 1x1, f64, and conv2d (im2col into the same micro-kernel), run
// by tracec-run and compared with NumPy by Inputs/check_contractions.py.
// (The conv2d backprop ops take the same micro-kernel through contractions
// of strided slices: conv2d-backprop.mlir.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_contractions.py %s %t | FileCheck %s

// CHECK-DAG: ok mm_odd
// CHECK-DAG: ok mm_ta_tb
// CHECK-DAG: ok mm_1x1
// CHECK-DAG: ok mm_row_col
// CHECK-DAG: ok mm_blocks
// CHECK-DAG: ok bmm_tb
// CHECK-DAG: ok mm_f64
// CHECK-DAG: ok conv
// CHECK-DAG: ok conv_strided
// CHECK-NOT: FAIL
func.func @mm_odd(%a: tensor<37x29xf32>, %b: tensor<29x41xf32>) -> tensor<37x41xf32> {
  %0 = trace.matmul %a, %b : (tensor<37x29xf32>, tensor<29x41xf32>) -> tensor<37x41xf32>
  return %0 : tensor<37x41xf32>
}
func.func @mm_ta_tb(%a: tensor<29x37xf32>, %b: tensor<41x29xf32>) -> tensor<37x41xf32> {
  %0 = trace.matmul %a, %b {transpose_a, transpose_b} : (tensor<29x37xf32>, tensor<41x29xf32>) -> tensor<37x41xf32>
  return %0 : tensor<37x41xf32>
}
func.func @mm_1x1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %0 = trace.matmul %a, %b : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
func.func @mm_row_col(%a: tensor<1x67xf32>, %b: tensor<67x1xf32>) -> tensor<1x1xf32> {
  %0 = trace.matmul %a, %b : (tensor<1x67xf32>, tensor<67x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
// 300 rows, 290 columns, k = 300: more than one result block (mc x nc)
// and kc slice, each with a remainder.
func.func @mm_blocks(%a: tensor<300x300xf32>, %b: tensor<300x290xf32>) -> tensor<300x290xf32> {
  %0 = trace.matmul %a, %b : (tensor<300x300xf32>, tensor<300x290xf32>) -> tensor<300x290xf32>
  return %0 : tensor<300x290xf32>
}
func.func @bmm_tb(%a: tensor<3x37x29xf32>, %b: tensor<3x41x29xf32>) -> tensor<3x37x41xf32> {
  %0 = trace.matmul %a, %b {transpose_b} : (tensor<3x37x29xf32>, tensor<3x41x29xf32>) -> tensor<3x37x41xf32>
  return %0 : tensor<3x37x41xf32>
}
func.func @mm_f64(%a: tensor<19x23xf64>, %b: tensor<23x45xf64>) -> tensor<19x45xf64> {
  %0 = trace.matmul %a, %b : (tensor<19x23xf64>, tensor<23x45xf64>) -> tensor<19x45xf64>
  return %0 : tensor<19x45xf64>
}
func.func @conv(%x: tensor<2x9x11x5xf32>, %w: tensor<3x3x5x7xf32>) -> tensor<2x7x9x7xf32> {
  %0 = trace.conv2d %x, %w : (tensor<2x9x11x5xf32>, tensor<3x3x5x7xf32>) -> tensor<2x7x9x7xf32>
  return %0 : tensor<2x7x9x7xf32>
}
func.func @conv_strided(%x: tensor<2x9x11x5xf32>, %w: tensor<3x2x5x33xf32>) -> tensor<2x4x5x33xf32> {
  %0 = trace.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<2x9x11x5xf32>, tensor<3x2x5x33xf32>) -> tensor<2x4x5x33xf32>
  return %0 : tensor<2x4x5x33xf32>
}
