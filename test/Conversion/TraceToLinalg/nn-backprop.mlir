// RUN: tracec-opt %s --trace-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// The conv2d backprop ops of f16 (and bf16) keep these loop-nest forms,
// summing in f32 and rounding once; f32 and f64 become contractions
// (nn-backprop-contractions.mlir).

// conv2d_backprop_filter: dF[kh, kw, c, f] = sum over (n, oh, ow) of
// xpad[n, oh * 2 + kh * 1, ow * 2 + kw * 2, c] * dy[n, oh, ow, f], with the
// input zero-padded by [top 1, bottom 0, left 0, right 1].
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 * 2 + d0, d6 * 2 + d1 * 2, d2)>
// CHECK-DAG: #[[DYMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
// CHECK-DAG: #[[OUTMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_backprop_filter
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x6x3xf16>, %[[DY:.*]]: tensor<2x2x3x4xf16>)
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 1, 0, 0] high[0, 0, 1, 0]
// CHECK: } : tensor<2x5x6x3xf16> to tensor<2x6x7x3xf16>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x2x3x4xf32>)
// CHECK: %[[DF:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[DYMAP]], #[[OUTMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PADDED]], %[[DY]] : tensor<2x6x7x3xf16>, tensor<2x2x3x4xf16>) outs(%[[ACC]] : tensor<3x2x3x4xf32>)
// CHECK: ^bb0(%[[XV:.*]]: f16, %[[DYV:.*]]: f16, %[[OUT:.*]]: f32):
// CHECK: %[[XW:.*]] = arith.extf %[[XV]] : f16 to f32
// CHECK: %[[DYW:.*]] = arith.extf %[[DYV]] : f16 to f32
// CHECK: %[[PRODUCT:.*]] = arith.mulf %[[XW]], %[[DYW]] : f32
// CHECK: %[[SUM:.*]] = arith.addf %[[OUT]], %[[PRODUCT]] : f32
// CHECK: linalg.yield %[[SUM]] : f32
// CHECK: %[[ROUNDED:.*]] = linalg.generic {{.*}} ins(%[[DF]] : tensor<3x2x3x4xf32>) outs(%{{.*}} : tensor<3x2x3x4xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: return %[[ROUNDED]]
func.func @conv_backprop_filter(%x: tensor<2x5x6x3xf16>, %dy: tensor<2x2x3x4xf16>) -> tensor<3x2x3x4xf16> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 2, 3, 4>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<2x5x6x3xf16>, tensor<2x2x3x4xf16>) -> tensor<3x2x3x4xf16>
  return %0 : tensor<3x2x3x4xf16>
}

// -----

// No padding: the input is read directly.
// CHECK-LABEL: func.func @conv_backprop_filter_unpadded
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %arg1 : tensor<1x4x4x2xf16>, tensor<1x2x2x5xf16>) outs(%{{.*}} : tensor<3x3x2x5xf32>)
func.func @conv_backprop_filter_unpadded(%x: tensor<1x4x4x2xf16>, %dy: tensor<1x2x2x5xf16>) -> tensor<3x3x2x5xf16> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 2, 5>} : (tensor<1x4x4x2xf16>, tensor<1x2x2x5xf16>) -> tensor<3x3x2x5xf16>
  return %0 : tensor<3x3x2x5xf16>
}

// -----

// conv2d_backprop_input, same geometry: input 5x6, filter 3x2, strides 2,
// padding [1, 0, 0, 1], dilations [1, 2]. dy (2x3 positions) is spread to
// rows (3 - 1) * 1 + oh * 2 and columns (2 - 1) * 2 + ow * 2 of a zero
// tensor of max(5 + 1 + 2, 2 + 1 * 2 + 1) = 8 rows and
// max(6 + 0 + 2, 2 + 2 * 2 + 1) = 8 columns; then
// dx[n, ih, iw, c] = sum over (kh', kw', f) of
//   spread[n, ih + 1 + kh', iw + 0 + kw' * 2, f] * F[2 - kh', 1 - kw', c, f].
// CHECK-DAG: #[[SPREADOUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4 + 1, d2 + d5 * 2, d6)>
// CHECK-DAG: #[[FLIPPED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (-d4 + 2, -d5 + 1, d3, d6)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5)>
// CHECK-DAG: #[[DX:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_backprop_input
// CHECK-SAME: (%[[F:.*]]: tensor<3x2x3x4xf16>, %[[DY:.*]]: tensor<2x2x3x4xf16>)
// CHECK: %[[SPREAD:.*]] = linalg.generic {indexing_maps = [#[[SPREADOUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<2x8x8x4xf16>)
// Rows: (p - 2) must be a non-negative multiple of 2 below 2 * 2.
// CHECK: %[[P:.*]] = linalg.index 1 : index
// CHECK: %[[REL:.*]] = arith.subi %[[P]], %c2 : index
// CHECK: %[[OH:.*]] = arith.divsi %[[REL]], %c2{{.*}} : index
// CHECK: %[[REM:.*]] = arith.remsi %[[REL]], %c2{{.*}} : index
// CHECK: arith.cmpi eq, %[[REM]], %c0
// CHECK: arith.cmpi sge, %[[REL]], %c0
// CHECK: arith.cmpi slt, %[[OH]], %c2
// CHECK: %[[Q:.*]] = linalg.index 2 : index
// CHECK: %[[WREL:.*]] = arith.subi %[[Q]], %c2{{.*}} : index
// CHECK: %[[OW:.*]] = arith.divsi %[[WREL]], %c2{{.*}} : index
// CHECK: arith.cmpi slt, %[[OW]], %c3 : index
// CHECK: %[[READV:.*]] = tensor.extract %[[DY]]
// CHECK: arith.select %{{.*}}, %[[READV]], %{{.*}} : f16
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x5x6x3xf32>)
// CHECK: %[[WINDOWSHAPE:.*]] = tensor.empty() : tensor<3x2xf16>
// CHECK: %[[RESULT:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[FLIPPED]], #[[WINDOW]], #[[DX]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[SPREAD]], %[[F]], %[[WINDOWSHAPE]] : tensor<2x8x8x4xf16>, tensor<3x2x3x4xf16>, tensor<3x2xf16>) outs(%[[ACC]] : tensor<2x5x6x3xf32>)
// CHECK: ^bb0(%[[DYV:.*]]: f16, %[[FV:.*]]: f16, %{{.*}}: f16, %[[OUT:.*]]: f32):
// CHECK: %[[DYW:.*]] = arith.extf %[[DYV]] : f16 to f32
// CHECK: %[[FW:.*]] = arith.extf %[[FV]] : f16 to f32
// CHECK: %[[PRODUCT:.*]] = arith.mulf %[[DYW]], %[[FW]] : f32
// CHECK: arith.addf %[[OUT]], %[[PRODUCT]] : f32
// CHECK: %[[ROUNDED:.*]] = linalg.generic {{.*}} ins(%[[RESULT]] : tensor<2x5x6x3xf32>) outs(%{{.*}} : tensor<2x5x6x3xf16>)
// CHECK: return %[[ROUNDED]]
func.func @conv_backprop_input(%f: tensor<3x2x3x4xf16>, %dy: tensor<2x2x3x4xf16>) -> tensor<2x5x6x3xf16> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 5, 6, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<3x2x3x4xf16>, tensor<2x2x3x4xf16>) -> tensor<2x5x6x3xf16>
  return %0 : tensor<2x5x6x3xf16>
}

// -----

// max_pool2d_grad, window 3x3, strides 2, padding [1, 0, 1, 0] on a 4x4
// input (2x2 windows).
// 1. Each window's argmax kh * 3 + kw, from -1 (none): a candidate wins when
//    none is chosen yet, when it is larger (a NaN is larger than a number),
//    or when it ties at a smaller index; padded positions (outside
//    [1, 5) of the padded input) never win.
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4 + 1, d2 + d5 + 1, d3)>
// CHECK-LABEL: func.func @max_pool_grad
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x2xf32>, %[[DY:.*]]: tensor<1x2x2x2xf32>)
// CHECK: %[[NONE:.*]] = arith.constant -1 : i64
// CHECK: %[[ARGINIT:.*]] = linalg.fill ins(%[[NONE]] : i64) outs(%{{.*}} : tensor<1x2x2x2xi64>)
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: %[[ARGMAX:.*]]:2 = linalg.generic {indexing_maps = [#[[XMAP]], #[[WINDOW]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PADDED]], %{{.*}} : tensor<1x5x5x2xf32>, tensor<3x3xf32>) outs(%{{.*}}, %[[ARGINIT]] : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
// CHECK: ^bb0(%[[XV:.*]]: f32, %{{.*}}: f32, %[[BEST:.*]]: f32, %[[BESTINDEX:.*]]: i64):
// CHECK: %[[KH:.*]] = linalg.index 4 : index
// CHECK: %[[KW:.*]] = linalg.index 5 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[KH]], %c3 : index
// CHECK: %[[FLAT:.*]] = arith.addi %[[ROW]], %[[KW]] : index
// CHECK: %[[INDEX:.*]] = arith.index_cast %[[FLAT]] : index to i64
// CHECK: %[[XNAN:.*]] = arith.cmpf uno, %[[XV]], %[[XV]] : f32
// CHECK: %[[BESTNAN:.*]] = arith.cmpf uno, %[[BEST]], %[[BEST]] : f32
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[XV]], %[[BEST]] : f32
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[XV]], %[[BEST]] : f32
// CHECK: %[[EARLIER:.*]] = arith.cmpi slt, %[[INDEX]], %[[BESTINDEX]] : i64
// CHECK: %[[NOBEST:.*]] = arith.cmpi slt, %[[BESTINDEX]], %c0_i64 : i64
// CHECK: %[[OH:.*]] = linalg.index 1 : index
// CHECK: %[[PH:.*]] = arith.muli %[[OH]], %c2 : index
// CHECK: %[[PROW:.*]] = arith.addi %[[PH]], %[[KH]] : index
// CHECK: arith.cmpi sge, %[[PROW]], %c1 : index
// CHECK: arith.cmpi slt, %[[PROW]], %c5 : index
// CHECK: %[[NEWBEST:.*]] = arith.select %[[TAKE:.*]], %[[XV]], %[[BEST]] : f32
// CHECK: %[[NEWINDEX:.*]] = arith.select %[[TAKE]], %[[INDEX]], %[[BESTINDEX]] : i64
// CHECK: linalg.yield %[[NEWBEST]], %[[NEWINDEX]] : f32, i64
// 2. The argmaxes (background -1) and dy (background 0) spread to rows and
//    columns 2 + o * 2 of a max(4 + 1 + 2, 2 + 2 + 1) = 7-square tensor.
// CHECK: %[[SPREADARG:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x7x7x2xi64>)
// CHECK: tensor.extract %[[ARGMAX]]#1
// CHECK: %[[SPREADDY:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x7x7x2xf32>)
// CHECK: tensor.extract %[[DY]]
// 3. Input position (ih, iw) takes dy of the window whose argmax is its own
//    window index (2 - kh') * 3 + (2 - kw').
// CHECK: %[[DX:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[READ]], #[[WINDOW]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[SPREADARG]], %[[SPREADDY]], %{{.*}} : tensor<1x7x7x2xi64>, tensor<1x7x7x2xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x4x4x2xf32>)
// CHECK: ^bb0(%[[ARG:.*]]: i64, %[[DYV:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK: %[[KH2:.*]] = linalg.index 4 : index
// CHECK: %[[KW2:.*]] = linalg.index 5 : index
// CHECK: %[[WROW:.*]] = arith.subi %c2, %[[KH2]] : index
// CHECK: %[[WCOL:.*]] = arith.subi %c2{{.*}}, %[[KW2]] : index
// CHECK: %[[WROWS:.*]] = arith.muli %[[WROW]], %c3 : index
// CHECK: %[[WFLAT:.*]] = arith.addi %[[WROWS]], %[[WCOL]] : index
// CHECK: %[[WINDEX:.*]] = arith.index_cast %[[WFLAT]] : index to i64
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[ARG]], %[[WINDEX]] : i64
// CHECK: %[[ADDED:.*]] = arith.addf %[[ACC]], %[[DYV]] : f32
// CHECK: arith.select %[[HIT]], %[[ADDED]], %[[ACC]] : f32
// CHECK: return %[[DX]]
func.func @max_pool_grad(%x: tensor<1x4x4x2xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Without padding there is no pad and no in-bounds test.
// CHECK-LABEL: func.func @max_pool_grad_unpadded
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %{{.*}} : tensor<1x4x4x1xf64>, tensor<2x2xf64>)
// CHECK-NOT: arith.cmpi sge
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f64, i64
func.func @max_pool_grad_unpadded(%x: tensor<1x4x4x1xf64>, %dy: tensor<1x2x2x1xf64>) -> tensor<1x4x4x1xf64> {
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x1xf64>, tensor<1x2x2x1xf64>) -> tensor<1x4x4x1xf64>
  return %0 : tensor<1x4x4x1xf64>
}

// -----

// avg_pool2d_grad with the same geometry: dy / count first, count the
// window's in-bounds rows times columns:
// (min(o * 2 - 1 + 3, 4) - max(o * 2 - 1, 0)); then spread and summed over
// the window.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4 + 1, d2 + d5 + 1, d3)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @avg_pool_grad
// CHECK-SAME: (%[[DY:.*]]: tensor<1x2x2x2xf32>)
// CHECK: %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[DY]] : tensor<1x2x2x2xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[OH:.*]] = linalg.index 1 : index
// CHECK: %[[SCALEDOH:.*]] = arith.muli %[[OH]], %c2
// CHECK: %[[START:.*]] = arith.subi %[[SCALEDOH]], %c1
// CHECK: %[[END:.*]] = arith.addi %[[START]], %c3
// CHECK: %[[FIRST:.*]] = arith.maxsi %[[START]], %c0
// CHECK: %[[LAST:.*]] = arith.minsi %[[END]], %c4
// CHECK: %[[ROWS:.*]] = arith.subi %[[LAST]], %[[FIRST]] : index
// CHECK: %[[OW:.*]] = linalg.index 2 : index
// CHECK: %[[COUNT:.*]] = arith.muli %[[ROWS]], %{{.*}} : index
// CHECK: %[[COUNTI:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK: %[[COUNTF:.*]] = arith.sitofp %[[COUNTI]] : i64 to f32
// CHECK: arith.divf %[[IN]], %[[COUNTF]] : f32
// CHECK: %[[SPREAD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x7x7x2xf32>)
// CHECK: tensor.extract %[[SCALED]]
// CHECK: %[[DX:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[WINDOW]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[SPREAD]], %{{.*}} : tensor<1x7x7x2xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x4x4x2xf32>)
// CHECK: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK: arith.addf %[[ACC]], %[[V]] : f32
// CHECK: return %[[DX]]
func.func @avg_pool_grad(%dy: tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 4, 4, 2>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : tensor<1x2x2x2xf32> -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Without padding every window holds 2 * 2 elements.
// CHECK-LABEL: func.func @avg_pool_grad_unpadded
// CHECK: %[[FOUR:.*]] = arith.constant 4.000000e+00 : f64
// CHECK: arith.divf %{{.*}}, %[[FOUR]] : f64
func.func @avg_pool_grad_unpadded(%dy: tensor<1x2x2x1xf64>) -> tensor<1x4x4x1xf64> {
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 4, 4, 1>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x2x2x1xf64> -> tensor<1x4x4x1xf64>
  return %0 : tensor<1x4x4x1xf64>
}

// -----

// A `?` window (filter) dim is not lowered (`?` batch, H and W are, see
// nn-dynamic.mlir): the op stays and is reported.
func.func @dynamic(%f: tensor<?x3x2x4xf32>, %dy: tensor<1x2x2x4xf32>) -> tensor<1x4x4x2xf32> {
  // expected-error @below {{failed to legalize operation 'trace.conv2d_backprop_input'}}
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 1, 4, 4, 2>} : (tensor<?x3x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}
