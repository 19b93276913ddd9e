// RUN: tracec-opt %s -split-input-file -trace-to-linalg -canonicalize -cse | FileCheck %s
// RUN: tracec-opt %s -split-input-file -trace-to-linalg -canonicalize -cse -trace-shape-functions -canonicalize | FileCheck %s --check-prefix=SHAPE

// conv2d, pooling and their backprops at `?` dims.

// A `?` batch: the output's batch is the input's; nothing to check.
// CHECK-LABEL: func.func @conv_batch
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-NOT: cf.assert
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3x3x4xf32>
// CHECK: %[[INIT:.*]] = linalg.fill {{.*}} outs(%[[E]] : tensor<?x3x3x4xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %arg1 : tensor<?x5x5x3xf32>, tensor<3x3x3x4xf32>) outs(%[[INIT]] : tensor<?x3x3x4xf32>)
func.func @conv_batch(%x: tensor<?x5x5x3xf32>, %f: tensor<3x3x3x4xf32>) -> tensor<?x3x3x4xf32> {
  %0 = trace.conv2d %x, %f : (tensor<?x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x3x3x4xf32>
  return %0 : tensor<?x3x3x4xf32>
}

// -----

// `?` spatial dims and channels: the output rows are
// (h + 2 - 3) floordiv 2 + 1, the columns w - 2 (conv2d's shape rule,
// reified); the channels must agree and the filter must fit the padded
// input (run-time checks).
// CHECK-DAG: #[[ROWS:.*]] = affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 2)>
// CHECK-DAG: #[[COLS:.*]] = affine_map<()[s0] -> (s0 - 2)>
// CHECK-DAG: #[[PADDEDH:.*]] = affine_map<()[s0] -> (s0 + 2)>
// CHECK-LABEL: func.func @conv_spatial
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[H:.*]] = tensor.dim %arg0, %c1
// CHECK-DAG: %[[W:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[OH:.*]] = affine.apply #[[ROWS]]()[%[[H]]]
// CHECK: %[[OW:.*]] = affine.apply #[[COLS]]()[%[[W]]]
// CHECK: %[[FC:.*]] = tensor.dim %arg1, %c2
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[FC]], %c3
// CHECK: cf.assert %[[SAME]], "{{.*}}'trace.conv2d': the input's channels (dim 3) and the filter's (dim 2) differ"
// CHECK: %[[HP:.*]] = affine.apply #[[PADDEDH]]()[%[[H]]]
// CHECK: %[[HMAX:.*]] = arith.maxsi %[[HP]], %c3
// CHECK: %[[FITS:.*]] = arith.cmpi eq, %[[HP]], %[[HMAX]]
// CHECK: cf.assert %[[FITS]], "{{.*}}'trace.conv2d': the window does not fit the padded input dim 1"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d': the window does not fit the padded input dim 2"
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 1, 0, 0] high[0, 1, 0, 0]
// CHECK: tensor.empty(%[[N]], %[[OH]], %[[OW]]) : tensor<?x?x?x4xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}strides = dense<[2, 1]>{{.*}} ins(%[[PADDED]], %arg1 : tensor<?x?x?x3xf32>, tensor<3x3x?x4xf32>)
// SHAPE-LABEL: func.func @__shape_conv_spatial
// SHAPE: @__shape_conv_spatial_check_0("argument 1 dim 2 is {0} but a size is 3 ({{.*}}'trace.conv2d': the input's channels (dim 3) and the filter's (dim 2) differ)\00")
func.func @conv_spatial(%x: tensor<?x?x?x3xf32>, %f: tensor<3x3x?x4xf32>) -> tensor<?x?x?x4xf32> {
  %0 = trace.conv2d %x, %f {padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 1>} : (tensor<?x?x?x3xf32>, tensor<3x3x?x4xf32>) -> tensor<?x?x?x4xf32>
  return %0 : tensor<?x?x?x4xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: tensor.empty(%[[N]]) : tensor<?x2x2x2xf32>
// CHECK: linalg.pooling_nhwc_max {{.*}} ins(%arg0, %{{.*}} : tensor<?x4x4x2xf32>, tensor<2x2xf32>)
func.func @max_pool(%x: tensor<?x4x4x2xf32>) -> tensor<?x2x2x2xf32> {
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x4x4x2xf32> -> tensor<?x2x2x2xf32>
  return %0 : tensor<?x2x2x2xf32>
}

// -----

// The average's divisor counts the window's rows inside the `?` height.
// CHECK-LABEL: func.func @avg_pool
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[H:.*]] = tensor.dim %arg0, %c1
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.avg_pool2d': the window does not fit the padded input dim 1"
// CHECK: %[[E:.*]] = tensor.empty(%[[N]], %{{.*}}) : tensor<?x?x2x2xf32>
// CHECK: linalg.pooling_nhwc_sum
// CHECK: linalg.generic
// CHECK: arith.minsi %{{.*}}, %[[H]] : index
// CHECK: arith.divf
func.func @avg_pool(%x: tensor<?x?x4x2xf32>) -> tensor<?x?x2x2xf32> {
  %0 = trace.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 0>} : tensor<?x?x4x2xf32> -> tensor<?x?x2x2xf32>
  return %0 : tensor<?x?x2x2xf32>
}

// -----

// A `?` batch is a reduction dim of the per-tap matmuls (input and dy
// must agree on it).
// CHECK-LABEL: func.func @conv_backprop_filter
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[NDY:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[N]], %[[NDY]]
// CHECK: cf.assert %[[SAME]], "{{.*}}'trace.conv2d_backprop_filter': the batch (dim 0) of input and dy differ"
// CHECK: tensor.empty(%[[N]]) : tensor<?x3x3x27xf32>
// CHECK: tensor.extract_slice %arg0[0, %{{.*}}, %{{.*}}, 0] [%[[N]], 3, 3, 3]
// CHECK: linalg.contract {{.*}} ins(%{{.*}}, %arg1 : tensor<?x3x3x27xf32>, tensor<?x3x3x4xf32>) outs(%{{.*}} : tensor<27x4xf32>)
func.func @conv_backprop_filter(%x: tensor<?x5x5x3xf32>, %dy: tensor<?x3x3x4xf32>) -> tensor<3x3x3x4xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 4>} : (tensor<?x5x5x3xf32>, tensor<?x3x3x4xf32>) -> tensor<3x3x3x4xf32>
  return %0 : tensor<3x3x3x4xf32>
}

// -----

// The result (input_shape) is static: a `?` in dy is checked against the
// size it must have, then dy is cast to it.
// CHECK-LABEL: func.func @conv_backprop_input
// CHECK: %[[N:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[N]], %c2
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.conv2d_backprop_input': dim 0 of operand 1 is not 2, the size the other shapes give it"
// CHECK: %[[DY:.*]] = tensor.cast %arg1 : tensor<?x3x3x4xf32> to tensor<2x3x3x4xf32>
// CHECK: tensor.pad %[[DY]] low[0, 2, 2, 0] high[0, 2, 2, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @conv_backprop_input(%f: tensor<3x3x3x4xf32>, %dy: tensor<?x3x3x4xf32>) -> tensor<2x5x5x3xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy {input_shape = array<i64: 2, 5, 5, 3>} : (tensor<3x3x3x4xf32>, tensor<?x3x3x4xf32>) -> tensor<2x5x5x3xf32>
  return %0 : tensor<2x5x5x3xf32>
}

// -----

// A `?` batch and channels: the argmaxes, the spreads and the result are
// sized from the input and dy, which must agree.
// CHECK-LABEL: func.func @max_pool_grad
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[NDY:.*]] = tensor.dim %arg1, %c0
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.max_pool2d_grad': dim 0 of input and dy differ"
// CHECK-DAG: %[[C:.*]] = tensor.dim %arg0, %c3
// CHECK-DAG: %[[CDY:.*]] = tensor.dim %arg1, %c3
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.max_pool2d_grad': dim 3 of input and dy differ"
// CHECK: tensor.empty(%[[NDY]], %[[CDY]]) : tensor<?x2x2x?xi64>
// CHECK: tensor.empty(%[[NDY]], %[[CDY]]) : tensor<?x5x5x?xi64>
// CHECK: tensor.empty(%[[N]], %[[C]]) : tensor<?x4x4x?xf32>
func.func @max_pool_grad(%x: tensor<?x4x4x?xf32>, %dy: tensor<?x2x2x?xf32>) -> tensor<?x4x4x?xf32> {
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x4x4x?xf32>, tensor<?x2x2x?xf32>) -> tensor<?x4x4x?xf32>
  return %0 : tensor<?x4x4x?xf32>
}

// -----

// CHECK-LABEL: func.func @avg_pool_grad
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.avg_pool2d_grad': dim 0 of operand 0 is not 1, the size the other shapes give it"
// CHECK: tensor.cast %arg0 : tensor<?x2x2x2xf32> to tensor<1x2x2x2xf32>
func.func @avg_pool_grad(%dy: tensor<?x2x2x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = trace.avg_pool2d_grad %dy {input_shape = array<i64: 1, 4, 4, 2>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x2x2x2xf32> -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// conv2d_backprop_input `like` a `?`-batch input: the batch is like's, which
// must be dy's. The col2im form (f32): the contraction of dy with the
// filter matrix and the per-tap updates have a `?` batch.
// CHECK-LABEL: func.func @backprop_input_like
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg1, %c0
// CHECK-DAG: %[[L:.*]] = tensor.dim %arg2, %c0
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[L]], %[[N]]
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.conv2d_backprop_input': dim 0 of 'like' and of dy differ"
// CHECK: tensor.empty(%[[L]]) : tensor<?x3x3x18xf32>
// CHECK: linalg.contract {{.*}} ins(%arg1, %{{.*}} : tensor<?x3x3x4xf32>, tensor<18x4xf32>) outs(%{{.*}} : tensor<?x3x3x18xf32>)
// CHECK: tensor.empty(%[[L]]) : tensor<?x5x5x2xf32>
// CHECK: scf.for
// CHECK: tensor.extract_slice %{{.*}} [%[[L]], 3, 3, 2] [1, 1, 1, 1] : tensor<?x5x5x2xf32> to tensor<?x3x3x2xf32>
func.func @backprop_input_like(%f: tensor<3x3x2x4xf32>, %dy: tensor<?x3x3x4xf32>, %x: tensor<?x5x5x2xf32>) -> tensor<?x5x5x2xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy like %x : (tensor<3x3x2x4xf32>, tensor<?x3x3x4xf32>, tensor<?x5x5x2xf32>) -> tensor<?x5x5x2xf32>
  return %0 : tensor<?x5x5x2xf32>
}

// -----

// avg_pool2d_grad `like` a `?`-batch input.
// CHECK-LABEL: func.func @avg_pool_grad_like
// CHECK-DAG: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[L:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[L]], %[[N]]
// CHECK: cf.assert %[[OK]], "{{.*}}'trace.avg_pool2d_grad': dim 0 of 'like' and of dy differ"
// CHECK: tensor.empty(%[[N]]) : tensor<?x2x2x2xf32>
// CHECK: tensor.empty(%[[N]]) : tensor<?x5x5x2xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4x4x2xf32>)
func.func @avg_pool_grad_like(%dy: tensor<?x2x2x2xf32>, %x: tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32> {
  %0 = trace.avg_pool2d_grad %dy like %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x2x2x2xf32>, tensor<?x4x4x2xf32> -> tensor<?x4x4x2xf32>
  return %0 : tensor<?x4x4x2xf32>
}

// -----

// `?` H and W: the result's are like's; dy's must be the window's output
// sizes over them ((H + 2 - 3) / 2 + 1 and W - 2), checked at run time.
// The col2im form: the matmul's rows stay (n, oh, ow), three `?` dims, and
// the taps add strided slices of run-time sizes.
// CHECK-DAG: #[[ROWS:.*]] = affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 2)>
// CHECK-LABEL: func.func @backprop_input_spatial
// CHECK-SAME: (%[[F:.*]]: tensor<3x3x2x4xf32>, %[[DY:.*]]: tensor<?x?x?x4xf32>, %[[X:.*]]: tensor<?x?x?x2xf32>)
// CHECK-DAG: %[[H:.*]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[W:.*]] = tensor.dim %[[X]], %c2
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d_backprop_input': dim 0 of 'like' and of dy differ"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d_backprop_input': the window does not fit the padded input dim 1"
// CHECK: %[[OH:.*]] = affine.apply #[[ROWS]]()[%[[H]]]
// CHECK: %[[DYH:.*]] = tensor.dim %[[DY]], %c1
// CHECK: %[[SAMEH:.*]] = arith.cmpi eq, %[[DYH]], %[[OH]]
// CHECK: cf.assert %[[SAMEH]], "{{.*}}'trace.conv2d_backprop_input': dim 1 of dy is not the window's output size over the input's dim 1"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d_backprop_input': dim 2 of dy is not the window's output size over the input's dim 2"
// CHECK: %[[COLS:.*]] = linalg.contract {{.*}} ins(%[[DY]], %{{.*}} : tensor<?x?x?x4xf32>, tensor<18x4xf32>) outs(%{{.*}} : tensor<?x?x?x18xf32>)
// CHECK: %[[PAD:.*]] = linalg.fill {{.*}} -> tensor<?x?x?x2xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[PAD]])
// CHECK: scf.for
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, %{{.*}}, 0] [%{{.*}}, %[[DYH]], %{{.*}}, 2] [1, 2, 1, 1] : tensor<?x?x?x2xf32> to tensor<?x?x?x2xf32>
// CHECK: tensor.extract_slice %[[COLS]]
// CHECK: tensor.insert_slice
// CHECK: tensor.extract_slice %[[SUM]][0, 1, 0, 0] [%{{.*}}, %[[H]], %[[W]], 2] [1, 1, 1, 1]
func.func @backprop_input_spatial(%f: tensor<3x3x2x4xf32>, %dy: tensor<?x?x?x4xf32>, %x: tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32> {
  %0 = trace.conv2d_backprop_input %f, %dy like %x {strides = array<i64: 2, 1>, padding = array<i64: 1, 1, 0, 0>} : (tensor<3x3x2x4xf32>, tensor<?x?x?x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

// `?` H and W of input and dy are reduction dims of the filter's gradient:
// with 2 input channels, one matmul of the im2col columns, whose rows
// (n, oh, ow) stay three `?` dims.
// CHECK-LABEL: func.func @backprop_filter_spatial
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d_backprop_filter': the batch (dim 0) of input and dy differ"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d_backprop_filter': dim 1 of dy is not the window's output size over the input's dim 1"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d_backprop_filter': dim 2 of dy is not the window's output size over the input's dim 2"
// CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[COLS:.*]] = scf.for
// CHECK: tensor.extract_slice %[[PADDED]]{{.*}} : tensor<?x?x?x2xf32> to tensor<?x?x?x2xf32>
// CHECK: tensor.insert_slice {{.*}} : tensor<?x?x?x2xf32> into tensor<?x?x?x18xf32>
// CHECK: linalg.contract {{.*}} ins(%[[COLS]], %{{.*}} : tensor<?x?x?x18xf32>, tensor<?x?x?x4xf32>) outs(%{{.*}} : tensor<18x4xf32>)
// SHAPE-LABEL: func.func @__shape_backprop_filter_spatial
// SHAPE: "argument 1 dim 2 is {0} but {{.*}} is {1} ({{.*}}'trace.conv2d_backprop_filter': dim 2 of dy is not the window's output size over the input's dim 2)\00"
func.func @backprop_filter_spatial(%x: tensor<?x?x?x2xf32>, %dy: tensor<?x?x?x4xf32>) -> tensor<3x3x2x4xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 2, 4>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x2xf32>, tensor<?x?x?x4xf32>) -> tensor<3x3x2x4xf32>
  return %0 : tensor<3x3x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool_grad_spatial
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.max_pool2d_grad': dim 0 of input and dy differ"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.max_pool2d_grad': dim 1 of dy is not the window's output size over the input's dim 1"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.max_pool2d_grad': dim 2 of dy is not the window's output size over the input's dim 2"
// CHECK: %[[ARGMAX:.*]]:2 = linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<?x?x?x2xf32>, tensor<?x?x?x2xi64>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x?x?x2xi64>, tensor<?x?x?x2xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<?x?x?x2xf32>)
func.func @max_pool_grad_spatial(%x: tensor<?x?x?x2xf32>, %dy: tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32> {
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<?x?x?x2xf32>, tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

// CHECK-LABEL: func.func @avg_pool_grad_spatial
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.avg_pool2d_grad': dim 0 of 'like' and of dy differ"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.avg_pool2d_grad': dim 1 of dy is not the window's output size over the input's dim 1"
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.avg_pool2d_grad': dim 2 of dy is not the window's output size over the input's dim 2"
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x?x?x2xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<?x?x?x2xf32>)
func.func @avg_pool_grad_spatial(%dy: tensor<?x?x?x2xf32>, %x: tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32> {
  %0 = trace.avg_pool2d_grad %dy like %x {window = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : tensor<?x?x?x2xf32>, tensor<?x?x?x2xf32> -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

// Other element types take the gather form at `?` H and W: dy spread into
// a zero tensor of run-time size, read through the flipped filter, summed
// in f32 and rounded.
// CHECK-LABEL: func.func @backprop_input_spatial_f16
// CHECK-SAME: (%[[F:.*]]: tensor<3x3x2x4xf16>, %[[DY:.*]]: tensor<?x?x?x4xf16>, %[[X:.*]]: tensor<?x?x?x2xf16>)
// CHECK: cf.assert %{{.*}}, "{{.*}}'trace.conv2d_backprop_input': dim 2 of dy is not the window's output size over the input's dim 2"
// CHECK: %[[SPREAD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x?x?x4xf16>)
// CHECK: tensor.extract %[[DY]]
// CHECK: %[[INIT:.*]] = linalg.fill {{.*}} -> tensor<?x?x?x2xf32>
// CHECK: %[[SUMS:.*]] = linalg.generic {{.*}} ins(%[[SPREAD]], %[[F]], %{{.*}} : tensor<?x?x?x4xf16>, tensor<3x3x2x4xf16>, tensor<3x3xf16>) outs(%[[INIT]] : tensor<?x?x?x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUMS]] : tensor<?x?x?x2xf32>) outs(%{{.*}} : tensor<?x?x?x2xf16>)
func.func @backprop_input_spatial_f16(%f: tensor<3x3x2x4xf16>, %dy: tensor<?x?x?x4xf16>, %x: tensor<?x?x?x2xf16>) -> tensor<?x?x?x2xf16> {
  %0 = trace.conv2d_backprop_input %f, %dy like %x {strides = array<i64: 2, 1>, padding = array<i64: 1, 1, 0, 0>} : (tensor<3x3x2x4xf16>, tensor<?x?x?x4xf16>, tensor<?x?x?x2xf16>) -> tensor<?x?x?x2xf16>
  return %0 : tensor<?x?x?x2xf16>
}
