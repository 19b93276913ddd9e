// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-to-linalg --canonicalize --cse --linalg-fuse-elementwise-ops "--trace-cpu-pack-contractions=cpu=skylake-avx512 min-work=0" -split-input-file | FileCheck %s --check-prefix=PACK

// The conv2d backprop ops of static f32/f64 tensors become contractions
// (linalg.contract, which elementwise fusion leaves alone) and strided
// slices, the per-tap work in a loop over the window taps (a parallel one
// where the taps write their own slices); the CPU's
// contraction stage packs every contraction into its micro-kernel and
// hoists loop-invariant packs (PACK). conv2d_backprop_input without
// dilation (or with unit strides) is the forward convolution it transposes
// instead, one per phase of dx when strided. f16 keeps the
// loop nests of nn-backprop.mlir.

// conv2d_backprop_filter with 8 or more input channels: one matmul per
// window tap (kh, kw), dF[kh, kw] (c x f) = sum over (n, oh, ow) of
// xpad[n, oh * 2 + kh, ow * 2 + kw * 2, c] * dy[n, oh, ow, f]; input 5x6,
// filter 3x2, strides 2, padding [1, 0, 0, 1], dilations [1, 2].
// CHECK-DAG: #[[TAPMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d0)>
// CHECK-DAG: #[[DYMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d1)>
// CHECK-DAG: #[[DFMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
// CHECK-LABEL: func.func @conv_backprop_filter
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x6x8xf32>, %[[DY:.*]]: tensor<2x2x3x4xf32>)
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 1, 0, 0] high[0, 0, 1, 0]
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x2x8x4xf32>
// CHECK: %[[DF:.*]] = scf.forall (%[[T:.*]]) in (6) shared_outs(%[[ACC:.*]] = %[[EMPTY]])
// CHECK: %[[KH:.*]] = arith.divui %[[T]], %c2
// CHECK: %[[KW:.*]] = arith.remui %[[T]], %c2
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<8x4xf32>
// CHECK: %[[COL:.*]] = arith.muli %[[KW]], %c2
// CHECK: %[[TAP:.*]] = tensor.extract_slice %[[PADDED]][0, %[[KH]], %[[COL]], 0] [2, 2, 3, 8] [1, 2, 2, 1] : tensor<2x6x7x8xf32> to tensor<2x2x3x8xf32>
// CHECK: %[[PART:.*]] = linalg.contract indexing_maps = [#[[TAPMAP]], #[[DYMAP]], #[[DFMAP]]] ins(%[[TAP]], %[[DY]] : tensor<2x2x3x8xf32>, tensor<2x2x3x4xf32>) outs(%[[ZERO]] : tensor<8x4xf32>)
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice %[[PART]] into %[[ACC]][%[[KH]], %[[KW]], 0, 0] [1, 1, 8, 4] [1, 1, 1, 1]
// CHECK-NOT: linalg.generic
// CHECK: return %[[DF]]
// dy is packed once, before the loop; the tap in the loop.
// PACK-LABEL: func.func @conv_backprop_filter
// PACK: linalg.pack %arg1
// PACK: scf.forall
// PACK-NOT: linalg.pack %arg1
// PACK: linalg.pack %extracted_slice
// PACK: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 32, 1>}
// PACK-NOT: linalg.generic
func.func @conv_backprop_filter(%x: tensor<2x5x6x8xf32>, %dy: tensor<2x2x3x4xf32>) -> tensor<3x2x8x4xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 2, 8, 4>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<2x5x6x8xf32>, tensor<2x2x3x4xf32>) -> tensor<3x2x8x4xf32>
  return %0 : tensor<3x2x8x4xf32>
}

// -----

// Fewer than 8 input channels (f64, 3, no padding): the taps go side by
// side into the im2col matrix cols[n, oh, ow, (kh * 3 + kw) * 3 + c], one
// matmul has the 27 rows (kh, kw, c), and a copy puts them in HWCF order.
// CHECK-DAG: #[[COLSMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d0)>
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1, d2, d3) -> ((d0 * 3 + d1) * 3 + d2, d3)>
// CHECK-LABEL: func.func @conv_backprop_filter_few_channels
// CHECK-NOT: tensor.pad
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x2x2x27xf64>
// CHECK: %[[COLS:.*]] = scf.for %[[KH:[a-z0-9]+]] = {{.*}} iter_args(%[[ROWACC:.*]] = %[[EMPTY]])
// CHECK: scf.for %[[KW:[a-z0-9]+]] = {{.*}} iter_args(%[[ACC:.*]] = %[[ROWACC]])
// CHECK: %[[KH3:.*]] = arith.muli %[[KH]], %c3
// CHECK: %[[TAPINDEX:.*]] = arith.addi %[[KH3]], %[[KW]]
// CHECK: %[[COLUMN:.*]] = arith.muli %[[TAPINDEX]], %c3
// CHECK: %[[TAP:.*]] = tensor.extract_slice %arg0[0, %[[KH]], %[[KW]], 0] [1, 2, 2, 3] [1, 1, 1, 1] : tensor<1x4x4x3xf64> to tensor<1x2x2x3xf64>
// CHECK: tensor.insert_slice %[[TAP]] into %[[ACC]][0, 0, 0, %[[COLUMN]]] [1, 2, 2, 3] [1, 1, 1, 1]
// CHECK: %[[MATRIX:.*]] = linalg.contract indexing_maps = [#[[COLSMAP]], {{.*}}] ins(%[[COLS]], %arg1 : tensor<1x2x2x27xf64>, tensor<1x2x2x5xf64>) outs(%{{.*}} : tensor<27x5xf64>)
// CHECK: %[[DF:.*]] = linalg.generic {indexing_maps = [#[[ROWS]], {{.*}}]} ins(%[[MATRIX]] : tensor<27x5xf64>) outs(%{{.*}} : tensor<3x3x3x5xf64>)
// CHECK: return %[[DF]]
// PACK-LABEL: func.func @conv_backprop_filter_few_channels
// PACK: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 16, 1>} ins({{.*}}) outs({{.*}} : tensor<4x1x8x16xf64>)
func.func @conv_backprop_filter_few_channels(%x: tensor<1x4x4x3xf64>, %dy: tensor<1x2x2x5xf64>) -> tensor<3x3x3x5xf64> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 5>} : (tensor<1x4x4x3xf64>, tensor<1x2x2x5xf64>) -> tensor<3x3x3x5xf64>
  return %0 : tensor<3x3x3x5xf64>
}

// -----

// conv2d_backprop_input: input 5x6, filter 3x2, strides 2, padding
// [1, 0, 0, 1], dilations [1, 2]. The filter becomes a matrix of rows
// r = (kh * 2 + kw) * 3 + c (a copy), cols[n, oh, ow, r] = sum over f of
// dy[n, oh, ow, f] * F[r, f]; then tap (kh, kw) adds its columns of cols to
// the rows kh + 2 * oh and columns 2 * kw + 2 * ow of a zero dxpad of
// max(1 + 5, 2 + 2 + 1) = 6 rows and max(0 + 6, 2 + 4 + 1) = 7 columns; dx
// is dxpad from row 1.
// CHECK-DAG: #[[FROWS:.*]] = affine_map<(d0, d1) -> (d0 floordiv 6, (d0 floordiv 3) mod 2, d0 mod 3, d1)>
// CHECK-DAG: #[[DYMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[FMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>
// CHECK-DAG: #[[COLSMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_backprop_input
// CHECK-SAME: (%[[F:.*]]: tensor<3x2x3x4xf32>, %[[DY:.*]]: tensor<2x2x3x4xf32>)
// CHECK: %[[FMATRIX:.*]] = linalg.generic {indexing_maps = [#[[FROWS]], {{.*}}]} ins(%[[F]] : tensor<3x2x3x4xf32>) outs(%{{.*}} : tensor<18x4xf32>)
// CHECK: %[[COLSINIT:.*]] = linalg.fill {{.*}} -> tensor<2x2x3x18xf32>
// CHECK: %[[COLS:.*]] = linalg.contract indexing_maps = [#[[DYMAP]], #[[FMAP]], #[[COLSMAP]]] ins(%[[DY]], %[[FMATRIX]] : tensor<2x2x3x4xf32>, tensor<18x4xf32>) outs(%[[COLSINIT]] : tensor<2x2x3x18xf32>)
// CHECK: %[[DXPAD:.*]] = linalg.fill {{.*}} -> tensor<2x6x7x3xf32>
// CHECK: %[[SUMS:.*]] = scf.for %[[KH:[a-z0-9]+]] = %{{.*}} to %c3 step %c1 iter_args(%[[ROWACC:.*]] = %[[DXPAD]])
// CHECK: scf.for %[[KW:[a-z0-9]+]] = %{{.*}} to %c2 step %c1 iter_args(%[[ACC:.*]] = %[[ROWACC]])
// CHECK: %[[COL:.*]] = arith.muli %[[KW]], %c2
// CHECK: %[[AT:.*]] = tensor.extract_slice %[[ACC]][0, %[[KH]], %[[COL]], 0] [2, 2, 3, 3] [1, 2, 2, 1] : tensor<2x6x7x3xf32> to tensor<2x2x3x3xf32>
// CHECK: %[[KH2:.*]] = arith.muli %[[KH]], %c2
// CHECK: %[[TAPINDEX:.*]] = arith.addi %[[KH2]], %[[KW]]
// CHECK: %[[R:.*]] = arith.muli %[[TAPINDEX]], %c3
// CHECK: %[[TAP:.*]] = tensor.extract_slice %[[COLS]][0, 0, 0, %[[R]]] [2, 2, 3, 3] [1, 1, 1, 1] : tensor<2x2x3x18xf32> to tensor<2x2x3x3xf32>
// The slice of dxpad is the add's init only, so that it bufferizes in place.
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[TAP]] : tensor<2x2x3x3xf32>) outs(%[[AT]] : tensor<2x2x3x3xf32>)
// CHECK: arith.addf
// CHECK: %[[NEXT:.*]] = tensor.insert_slice %[[SUM]] into %[[ACC]][0, %[[KH]], %[[COL]], 0] [2, 2, 3, 3] [1, 2, 2, 1]
// CHECK: scf.yield %[[NEXT]]
// CHECK: %[[DX:.*]] = tensor.extract_slice %[[SUMS]][0, 1, 0, 0] [2, 5, 6, 3] [1, 1, 1, 1] : tensor<2x6x7x3xf32> to tensor<2x5x6x3xf32>
// CHECK: return %[[DX]]
// PACK-LABEL: func.func @conv_backprop_input
// PACK: linalg.contract {{.*}} {trace.micro_kernel = array<i64: 8, 32, 1>}
func.func @conv_backprop_input(%f: tensor<3x2x3x4xf32>, %dy: tensor<2x2x3x4xf32>) -> tensor<2x5x6x3xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 5, 6, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<3x2x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x5x6x3xf32>
  return %0 : tensor<2x5x6x3xf32>
}

// -----

// f64, unit strides, SAME padding: the forward convolution that the op
// transposes, of dy padded by (3 - 1) - 1 on each side with the filter
// flipped in (kh, kw) and c, f swapped; on the CPU a direct convolution.
// CHECK: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d3, d2)>
// CHECK-LABEL: func.func @conv_backprop_input_same
// CHECK: %[[DYPAD:.*]] = tensor.pad %arg1 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<2x5x6x4xf64> to tensor<2x7x8x4xf64>
// CHECK: %[[FLIPPED:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], {{.*}}ins(%arg0 : tensor<3x3x3x4xf64>) outs(%{{.*}} : tensor<3x3x4x3xf64>)
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[DYPAD]], %[[FLIPPED]] : tensor<2x7x8x4xf64>, tensor<3x3x4x3xf64>) outs(%{{.*}} : tensor<2x5x6x3xf64>)
// PACK-LABEL: func.func @conv_backprop_input_same
// PACK: vector.outerproduct {{.*}} : vector<6xf64>, vector<8xf64>
func.func @conv_backprop_input_same(%f: tensor<3x3x3x4xf64>, %dy: tensor<2x5x6x4xf64>) -> tensor<2x5x6x3xf64> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 5, 6, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x3x4xf64>, tensor<2x5x6x4xf64>) -> tensor<2x5x6x3xf64>
  return %0 : tensor<2x5x6x3xf64>
}

// -----

// Unit strides with padding wider than the window (dy's padding would be
// negative): col2im, whose taps are unit-stride slices of dxpad, and dx is
// its interior.
// CHECK-LABEL: func.func @conv_backprop_input_wide_pad
// CHECK: linalg.contract {{.*}} -> tensor<2x8x6x18xf64>
// CHECK: scf.for %[[KH:[a-z0-9]+]] =
// CHECK: scf.for %[[KW:[a-z0-9]+]] =
// CHECK: tensor.extract_slice %{{.*}}[0, %[[KH]], %[[KW]], 0] [2, 8, 6, 3] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %{{.*}}[0, 3, 1, 0] [2, 5, 6, 3] [1, 1, 1, 1]
func.func @conv_backprop_input_wide_pad(%f: tensor<3x2x3x4xf64>, %dy: tensor<2x8x6x4xf64>) -> tensor<2x5x6x3xf64> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 5, 6, 3>, padding = array<i64: 3, 2, 1, 0>} : (tensor<3x2x3x4xf64>, tensor<2x8x6x4xf64>) -> tensor<2x5x6x3xf64>
  return %0 : tensor<2x5x6x3xf64>
}

// -----

// Strides 2 (undilated), SAME padding [0, 1]: one stride-1 convolution per
// phase (r_h, r_w) of dx, with the taps r + 2m flipped (2x2, 2x1, 1x2, 1x1
// of the 3x3 window) over dy padded by one tap, written into dx with
// strides 2: each accumulates in its positions of dx (a strided slice,
// zeroed, inserted back), not in a tensor of its own copied in after. The
// four phases cover dx: no zero fill of the whole.
// CHECK-DAG: #[[P00:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * -2 + 2, d1 * -2 + 2, d3, d2)>
// CHECK-DAG: #[[P11:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * -2 + 1, d1 * -2 + 1, d3, d2)>
// CHECK-LABEL: func.func @conv_backprop_input_phases
// CHECK: %[[DYPAD:.*]] = tensor.pad %arg1 low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: %[[DX:.*]] = tensor.empty() : tensor<2x8x8x4xf32>
// CHECK: %[[W00:.*]] = tensor.extract_slice %[[DYPAD]][0, 0, 0, 0] [2, 5, 5, 5]
// CHECK: %[[F00:.*]] = linalg.generic {indexing_maps = [#[[P00]], {{.*}} outs(%{{.*}} : tensor<2x2x5x4xf32>)
// CHECK: %[[AT00:.*]] = tensor.extract_slice %[[DX]][0, 0, 0, 0] [2, 4, 4, 4] [1, 2, 2, 1]
// CHECK: %[[Z00:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[AT00]] : tensor<2x4x4x4xf32>)
// CHECK: %[[C00:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[W00]], %[[F00]] : tensor<2x5x5x5xf32>, tensor<2x2x5x4xf32>) outs(%[[Z00]] : tensor<2x4x4x4xf32>)
// CHECK: %[[DX00:.*]] = tensor.insert_slice %[[C00]] into %[[DX]][0, 0, 0, 0] [2, 4, 4, 4] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %[[DX00]][0, 0, 1, 0] [2, 4, 4, 4] [1, 2, 2, 1]
// CHECK: %[[DX01:.*]] = tensor.insert_slice %{{.*}} into %[[DX00]][0, 0, 1, 0] [2, 4, 4, 4] [1, 2, 2, 1]
// CHECK: %[[DX10:.*]] = tensor.insert_slice %{{.*}} into %[[DX01]][0, 1, 0, 0] [2, 4, 4, 4] [1, 2, 2, 1]
// CHECK: %[[W11:.*]] = tensor.extract_slice %[[DYPAD]][0, 1, 1, 0] [2, 4, 4, 5]
// CHECK: %[[F11:.*]] = linalg.generic {indexing_maps = [#[[P11]], {{.*}} outs(%{{.*}} : tensor<1x1x5x4xf32>)
// CHECK: %[[C11:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[W11]], %[[F11]] : tensor<2x4x4x5xf32>, tensor<1x1x5x4xf32>)
// CHECK: %[[DX11:.*]] = tensor.insert_slice %[[C11]] into %[[DX10]][0, 1, 1, 0] [2, 4, 4, 4] [1, 2, 2, 1]
// CHECK: return %[[DX11]]
func.func @conv_backprop_input_phases(%f: tensor<3x3x4x5xf32>, %dy: tensor<2x4x4x5xf32>) -> tensor<2x8x8x4xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 8, 8, 4>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<3x3x4x5xf32>, tensor<2x4x4x5xf32>) -> tensor<2x8x8x4xf32>
  return %0 : tensor<2x8x8x4xf32>
}
