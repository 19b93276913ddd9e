// bf16 contractions: operands cast from f32, products summed in f32 and
// rounded to bf16 once. On a CPU with AVX512_BF16 they take the packed
// micro-kernel on bf16 pairs (vdpbf16ps, see LowerContractionVectors.cpp);
// elsewhere the same sums in loops. Sizes that no tile divides (odd k pads
// the last pair), both transposes, a batch, 1x1, and sizes past the cache
// tiles (several result blocks and kc slices), compared with NumPy by
// Inputs/check_bf16_contractions.py. @mm_bf16_io takes and returns bf16
// itself: tracec-run reads its f32 .npy inputs rounded to bf16 and writes
// the bf16 result as f32 (NumPy has no bf16). @ones_mm's constant operand
// makes it column sums (SplatContractions.cpp), in f32 likewise.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_bf16_contractions.py %s %t | FileCheck %s

// CHECK-DAG: ok mm_odd
// CHECK-DAG: ok mm_ta
// CHECK-DAG: ok bmm_tb
// CHECK-DAG: ok mm_1x1
// CHECK-DAG: ok mm_blocks
// CHECK-DAG: ok mm_bf16_io
// CHECK-DAG: ok ones_mm
// CHECK-NOT: FAIL
func.func @mm_odd(%a: tensor<37x67xf32>, %b: tensor<67x45xf32>) -> tensor<37x45xf32> {
  %ha = trace.cast %a : tensor<37x67xf32> to tensor<37x67xbf16>
  %hb = trace.cast %b : tensor<67x45xf32> to tensor<67x45xbf16>
  %p = trace.matmul %ha, %hb : (tensor<37x67xbf16>, tensor<67x45xbf16>) -> tensor<37x45xbf16>
  %r = trace.cast %p : tensor<37x45xbf16> to tensor<37x45xf32>
  return %r : tensor<37x45xf32>
}
func.func @mm_ta(%a: tensor<67x37xf32>, %b: tensor<67x45xf32>) -> tensor<37x45xf32> {
  %ha = trace.cast %a : tensor<67x37xf32> to tensor<67x37xbf16>
  %hb = trace.cast %b : tensor<67x45xf32> to tensor<67x45xbf16>
  %p = trace.matmul %ha, %hb {transpose_a} : (tensor<67x37xbf16>, tensor<67x45xbf16>) -> tensor<37x45xbf16>
  %r = trace.cast %p : tensor<37x45xbf16> to tensor<37x45xf32>
  return %r : tensor<37x45xf32>
}
func.func @bmm_tb(%a: tensor<3x37x29xf32>, %b: tensor<3x41x29xf32>) -> tensor<3x37x41xf32> {
  %ha = trace.cast %a : tensor<3x37x29xf32> to tensor<3x37x29xbf16>
  %hb = trace.cast %b : tensor<3x41x29xf32> to tensor<3x41x29xbf16>
  %p = trace.matmul %ha, %hb {transpose_b} : (tensor<3x37x29xbf16>, tensor<3x41x29xbf16>) -> tensor<3x37x41xbf16>
  %r = trace.cast %p : tensor<3x37x41xbf16> to tensor<3x37x41xf32>
  return %r : tensor<3x37x41xf32>
}
func.func @mm_1x1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %ha = trace.cast %a : tensor<1x1xf32> to tensor<1x1xbf16>
  %hb = trace.cast %b : tensor<1x1xf32> to tensor<1x1xbf16>
  %p = trace.matmul %ha, %hb : (tensor<1x1xbf16>, tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %r = trace.cast %p : tensor<1x1xbf16> to tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}
func.func @mm_blocks(%a: tensor<300x1100xf32>, %b: tensor<1100x290xf32>) -> tensor<300x290xf32> {
  %ha = trace.cast %a : tensor<300x1100xf32> to tensor<300x1100xbf16>
  %hb = trace.cast %b : tensor<1100x290xf32> to tensor<1100x290xbf16>
  %p = trace.matmul %ha, %hb : (tensor<300x1100xbf16>, tensor<1100x290xbf16>) -> tensor<300x290xbf16>
  %r = trace.cast %p : tensor<300x290xbf16> to tensor<300x290xf32>
  return %r : tensor<300x290xf32>
}
func.func @mm_bf16_io(%a: tensor<37x67xbf16>, %b: tensor<67x45xbf16>) -> tensor<37x45xbf16> {
  %p = trace.matmul %a, %b : (tensor<37x67xbf16>, tensor<67x45xbf16>) -> tensor<37x45xbf16>
  return %p : tensor<37x45xbf16>
}
func.func @ones_mm(%b: tensor<67x45xf32>) -> tensor<37x45xf32> {
  %ones = trace.constant dense<1.0> : tensor<37x67xbf16>
  %hb = trace.cast %b : tensor<67x45xf32> to tensor<67x45xbf16>
  %p = trace.matmul %ones, %hb : (tensor<37x67xbf16>, tensor<67x45xbf16>) -> tensor<37x45xbf16>
  %r = trace.cast %p : tensor<37x45xbf16> to tensor<37x45xf32>
  return %r : tensor<37x45xf32>
}
