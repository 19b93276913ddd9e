// RUN: tracec-opt %s --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tracec-opt %s --trace-to-linalg --trace-cpu-pack-contractions=cpu=haswell --canonicalize -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX2

// The "pack" step: operands are packed into the micro-kernel's tiles,
// k-major inside a tile. The tile comes from the CPU's vector unit:
// AVX-512 has 16 f32 lanes and 32 registers (8 rows x 2 vectors), AVX2 has
// 8 lanes and 16 registers (6 rows x 2 vectors). Sizes no tile divides are
// padded with zeros.
// CHECK-LABEL: func.func @matmul
// AVX512: linalg.pack %arg0 padding_value(%{{.*}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [1, 0] inner_tiles = [1, 8] into %{{.*}} : tensor<37x100xf32> -> tensor<5x100x1x8xf32>
// AVX512: linalg.pack %arg1 outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [1, 32] into %{{.*}} : tensor<100x96xf32> -> tensor<3x100x1x32xf32>
// AVX512: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 32, 1>} ins({{.*}} : tensor<5x100x1x8xf32>, tensor<3x100x1x32xf32>) outs({{.*}} : tensor<5x3x8x32xf32>)
// AVX512: linalg.unpack {{.*}} inner_dims_pos = [0, 1] inner_tiles = [8, 32] into {{.*}} : tensor<5x3x8x32xf32> -> tensor<37x96xf32>
// AVX2: linalg.pack %arg0 {{.*}} inner_tiles = [1, 6] {{.*}} -> tensor<7x100x1x6xf32>
// AVX2: linalg.pack %arg1 {{.*}} inner_tiles = [1, 16] {{.*}} -> tensor<6x100x1x16xf32>
// AVX2: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 6, 16, 1>}
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<37x100xf32>, %b: tensor<100x96xf32>) -> tensor<37x96xf32> {
  %0 = trace.matmul %a, %b : (tensor<37x100xf32>, tensor<100x96xf32>) -> tensor<37x96xf32>
  return %0 : tensor<37x96xf32>
}

// -----

// A transposed operand is absorbed by its pack: the packed layout, and so
// the micro-kernel, is the same as for the plain matmul.
// CHECK-LABEL: func.func @transposed
// AVX512: linalg.pack %arg0 outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [1, 8] into %{{.*}} : tensor<100x64xf32> -> tensor<8x100x1x8xf32>
// AVX512: linalg.pack %arg1 outer_dims_perm = [0, 1] inner_dims_pos = [1, 0] inner_tiles = [1, 32] into %{{.*}} : tensor<96x100xf32> -> tensor<3x100x1x32xf32>
// AVX512: linalg.contract {{.*}} ins({{.*}} : tensor<8x100x1x8xf32>, tensor<3x100x1x32xf32>) outs({{.*}} : tensor<8x3x8x32xf32>)
func.func @transposed(%a: tensor<100x64xf32>, %b: tensor<96x100xf32>) -> tensor<64x96xf32> {
  %0 = trace.matmul %a, %b {transpose_a, transpose_b} : (tensor<100x64xf32>, tensor<96x100xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// -----

// Batch dims stay outermost; f64 tiles hold half as many lanes.
// CHECK-LABEL: func.func @batched_f64
// AVX512: linalg.pack %arg0 {{.*}} inner_tiles = [1, 8] {{.*}} : tensor<4x16x20xf64> -> tensor<4x2x20x1x8xf64>
// AVX512: linalg.pack %arg1 {{.*}} inner_tiles = [1, 16] {{.*}} : tensor<4x20x32xf64> -> tensor<4x2x20x1x16xf64>
// AVX512: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 16, 1>} {{.*}} outs({{.*}} : tensor<4x2x2x8x16xf64>)
func.func @batched_f64(%a: tensor<4x16x20xf64>, %b: tensor<4x20x32xf64>) -> tensor<4x16x32xf64> {
  %0 = trace.matmul %a, %b : (tensor<4x16x20xf64>, tensor<4x20x32xf64>) -> tensor<4x16x32xf64>
  return %0 : tensor<4x16x32xf64>
}

// -----

// A conv2d of static shape is computed directly (DirectConvolution.cpp):
// one task per output row (n, oh); per register tile of R pixels x n0
// channels, loops over kh, kw and c carry the tile as a vector, and each
// step is one outer product of R input values (read in place, no im2col)
// with the filter's row, stored once. 20 channels: two vectors (AVX-512),
// the filter padded with zeros to 32 and the store masked; 8 pixels a row.
// CHECK-LABEL: func.func @conv
// CHECK-NOT: linalg.conv_2d
// CHECK-NOT: linalg.pack
// AVX512: %[[W:[a-z0-9_]+]] = tensor.pad %arg1 low[0, 0, 0, 0] high[0, 0, 0, 12]
// AVX512: scf.forall (%[[OH:[a-z0-9_]+]]) in (8) shared_outs(%[[OUT:[a-z0-9_]+]] = %{{.*}}) -> (tensor<1x8x8x20xf32>)
// AVX512: %[[ROW:[a-z0-9_]+]] = tensor.extract_slice %[[OUT]][0, %[[OH]], 0, 0] [1, 1, 8, 20]
// AVX512: scf.for %[[KH:[a-z0-9_]+]] = {{.*}} -> (vector<8x32xf32>)
// AVX512: scf.for %[[KW:[a-z0-9_]+]] = {{.*}} -> (vector<8x32xf32>)
// AVX512: scf.for %[[C:[a-z0-9_]+]] = {{.*}} -> (vector<8x32xf32>)
// AVX512: vector.transfer_read %[[W]][%[[KH]], %[[KW]], %[[C]], %c0]{{.*}} : tensor<3x3x8x32xf32>, vector<32xf32>
// AVX512-COUNT-8: tensor.extract %arg0[
// AVX512: vector.from_elements {{.*}} : vector<8xf32>
// AVX512: vector.outerproduct {{.*}} : vector<8xf32>, vector<32xf32>
// AVX512: vector.transfer_write {{.*}}, %[[ROW]][%c0, %c0] {in_bounds = [true, false]} : vector<8x32xf32>, tensor<8x20xf32>
// AVX512: tensor.parallel_insert_slice
// AVX2 (16 registers): 2 vectors of 8 channels, 4 pixels (of at most 6, a
// divisor of 8).
// AVX2: vector.outerproduct {{.*}} : vector<4xf32>, vector<16xf32>
func.func @conv(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x20xf32>) -> tensor<1x8x8x20xf32> {
  %0 = trace.conv2d %x, %w : (tensor<1x10x10x8xf32>, tensor<3x3x8x20xf32>) -> tensor<1x8x8x20xf32>
  return %0 : tensor<1x8x8x20xf32>
}

// -----

// The zeros of padding 1 are never copied: x is read in place. kh runs over
// the tap rows on x (bounds clamped to [0, 3)), and of the four tiles of
// 10 pixels a row, the first and last, whose taps reach a padded column,
// load under a guard (select); the two between load plainly.
// CHECK-LABEL: func.func @conv_padded
// AVX512-NOT: tensor.pad %arg0
// AVX512: scf.forall (%{{.*}}) in (8)
// AVX512: %[[KH0:.*]] = arith.minsi %{{.*}}, %c3 : index
// AVX512: %[[KH1:.*]] = arith.minsi %{{.*}}, %c3 : index
// AVX512: scf.for %{{.*}} = %[[KH0]] to %[[KH1]] step %c1 {{.*}} -> (vector<10x16xf32>)
// AVX512: %[[AT:.*]] = arith.select %[[OK:.*]], %{{.*}}, %c0 : index
// AVX512: %[[X:.*]] = tensor.extract %arg0[%c0, %{{.*}}, %[[AT]], %{{.*}}] : tensor<1x8x40x8xf32>
// AVX512: arith.select %[[OK]], %[[X]], %{{.*}} : f32
// AVX512: vector.outerproduct {{.*}} : vector<10xf32>, vector<16xf32>
// AVX512: scf.for %{{.*}} = %c10 to %c30 step %c10
// AVX512-NOT: arith.select
// AVX512-COUNT-10: tensor.extract %arg0[
// AVX512-NOT: arith.select
// AVX512: vector.outerproduct {{.*}} : vector<10xf32>, vector<16xf32>
// AVX512: arith.select
// AVX512: vector.outerproduct {{.*}} : vector<10xf32>, vector<16xf32>
// AVX512: tensor.parallel_insert_slice
func.func @conv_padded(%x: tensor<1x8x40x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x8x40x16xf32> {
  %0 = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x40x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x8x40x16xf32>
  return %0 : tensor<1x8x40x16xf32>
}

// -----

// With strides, dilations and a bias as the accumulator: the tile starts
// from the accumulator's values, and the input is read at
// (ow + r) * sw + kw * dw. 7 output pixels a row of at most 16 (one vector
// of 16 channels, AVX-512): one tile of 7.
// CHECK-LABEL: func.func @conv_strided_acc
// AVX512: scf.forall (%{{.*}}, %{{.*}}) in (2, 3)
// AVX512: vector.transfer_read %{{.*}} {in_bounds = [true, true]} : tensor<7x16xf32>, vector<7x16xf32>
// AVX512: vector.outerproduct {{.*}} : vector<7xf32>, vector<16xf32>
func.func @conv_strided_acc(%x: tensor<2x9x17x4xf32>, %w: tensor<2x3x4x16xf32>, %acc: tensor<2x3x7x16xf32>) -> tensor<2x3x7x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {strides = dense<[3, 2]> : tensor<2xi64>, dilations = dense<[2, 2]> : tensor<2xi64>} ins(%x, %w : tensor<2x9x17x4xf32>, tensor<2x3x4x16xf32>) outs(%acc : tensor<2x3x7x16xf32>) -> tensor<2x3x7x16xf32>
  return %0 : tensor<2x3x7x16xf32>
}

// -----

// A conv2d with a `?` batch becomes an im2col copy with affine indexing
// (no gather: the columns are [n, oh, ow, kh, kw, c], c contiguous on both
// sides) and a matmul over (n, oh, ow), (kh * kw * c) and f, packed like
// any other.
// AVX512: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d3, d2 + d4, d5)>
// CHECK-LABEL: func.func @conv_dynamic
// CHECK-NOT: linalg.conv_2d
// AVX512: linalg.generic {indexing_maps = [#[[IN]], {{.*}}ins(%arg0 : tensor<?x10x10x8xf32>) outs(%{{.*}} : tensor<?x8x8x3x3x8xf32>)
// AVX512-NOT: tensor.extract
// AVX512: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 32, 1>}
func.func @conv_dynamic(%x: tensor<?x10x10x8xf32>, %w: tensor<3x3x8x32xf32>) -> tensor<?x8x8x32xf32> {
  %0 = trace.conv2d %x, %w : (tensor<?x10x10x8xf32>, tensor<3x3x8x32xf32>) -> tensor<?x8x8x32xf32>
  return %0 : tensor<?x8x8x32xf32>
}

// -----

// Integer and half-precision contractions keep the loop route.
// CHECK-LABEL: func.func @not_packed
// CHECK-NOT: linalg.pack
// CHECK: linalg.matmul
// CHECK: linalg.matmul
// CHECK-NOT: linalg.pack
func.func @not_packed(%a: tensor<8x8xi32>, %b: tensor<8x8xi32>, %c: tensor<8x8xf16>, %d: tensor<8x8xf16>) -> (tensor<8x8xi32>, tensor<8x8xf16>) {
  %0 = trace.matmul %a, %b : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
  %1 = trace.matmul %c, %d : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
  return %0, %1 : tensor<8x8xi32>, tensor<8x8xf16>
}

// -----

// Row-wise dot products (no m or n dim) are not matmuls: left as they are.
// CHECK-LABEL: func.func @row_dots
// CHECK-NOT: linalg.pack
// CHECK: linalg.generic
// CHECK-NOT: linalg.pack
func.func @row_dots(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A contraction of fewer than 16^3 multiply-adds stays as it is: packing,
// padding to a whole tile and the kernel's code would cost more.
// CHECK-LABEL: func.func @tiny
// CHECK-NOT: linalg.pack
// CHECK: linalg.matmul
func.func @tiny(%a: tensor<3x5xf32>, %b: tensor<5x3xf32>) -> tensor<3x3xf32> {
  %0 = trace.matmul %a, %b : (tensor<3x5xf32>, tensor<5x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// An unknown CPU is an error.
// RUN: not tracec-opt %s --trace-cpu-pack-contractions=cpu=no-such-cpu -split-input-file 2>&1 | FileCheck %s --check-prefix=BADCPU
// BADCPU: error: unknown CPU 'no-such-cpu'
func.func @any() {
  return
}

// -----

// bf16 operands summed in f32 (trace-to-linalg's half-precision matmul):
// with AVX512_BF16 (cooperlake) the tile holds pairs of k, each m and n
// with its pair innermost, for vdpbf16ps; an odd k pads the last pair.
// Without it (skylake-avx512, haswell) the contraction is not packed.
// RUN: tracec-opt %s --trace-to-linalg --trace-cpu-pack-contractions=cpu=cooperlake --canonicalize -split-input-file | FileCheck %s --check-prefix=BF16
// BF16-LABEL: func.func @bf16_pairs
// BF16: linalg.pack %arg0 padding_value(%{{.*}} : bf16) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %{{.*}} : tensor<37x101xbf16> -> tensor<5x51x8x2xbf16>
// BF16: linalg.pack %arg1 padding_value(%{{.*}} : bf16) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 2] into %{{.*}} : tensor<101x96xbf16> -> tensor<3x51x32x2xbf16>
// BF16: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 32, 2>} ins({{.*}} : tensor<5x51x8x2xbf16>, tensor<3x51x32x2xbf16>) outs({{.*}} : tensor<5x3x8x32xf32>)
// CHECK-LABEL: func.func @bf16_pairs
// CHECK-NOT: linalg.pack
// CHECK: linalg.matmul
func.func @bf16_pairs(%a: tensor<37x101xbf16>, %b: tensor<101x96xbf16>) -> tensor<37x96xbf16> {
  %0 = trace.matmul %a, %b : (tensor<37x101xbf16>, tensor<101x96xbf16>) -> tensor<37x96xbf16>
  return %0 : tensor<37x96xbf16>
}
