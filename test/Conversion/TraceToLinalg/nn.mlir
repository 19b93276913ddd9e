// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// Padding [top 1, bottom 0, left 0, right 1] becomes a zero tensor.pad of the
// H and W dims; strides and dilations move to the named op, which
// accumulates into zeros.
// CHECK-LABEL: func.func @conv_padded
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x6x3xf32>, %[[F:.*]]: tensor<3x2x3x4xf32>)
// CHECK: %[[PADZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 1, 0, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %[[PADZERO]] : f32
// CHECK: } : tensor<2x5x6x3xf32> to tensor<2x6x7x3xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x2x3x4xf32>)
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK-SAME: ins(%[[PADDED]], %[[F]] : tensor<2x6x7x3xf32>, tensor<3x2x3x4xf32>) outs(%[[ACC]] : tensor<2x2x3x4xf32>)
// CHECK: return %[[CONV]]
func.func @conv_padded(%x: tensor<2x5x6x3xf32>, %f: tensor<3x2x3x4xf32>) -> tensor<2x2x3x4xf32> {
  %0 = trace.conv2d %x, %f {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>} : (tensor<2x5x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  return %0 : tensor<2x2x3x4xf32>
}

// -----

// No padding: no tensor.pad; default strides and dilations are 1.
// CHECK-LABEL: func.func @conv_unpadded
// CHECK-NOT: tensor.pad
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<1x4x4x2xf64>, tensor<3x3x2x5xf64>)
func.func @conv_unpadded(%x: tensor<1x4x4x2xf64>, %f: tensor<3x3x2x5xf64>) -> tensor<1x2x2x5xf64> {
  %0 = trace.conv2d %x, %f : (tensor<1x4x4x2xf64>, tensor<3x3x2x5xf64>) -> tensor<1x2x2x5xf64>
  return %0 : tensor<1x2x2x5xf64>
}

// -----

// Max pooling pads with -inf and starts from -inf, so padding never wins;
// the window is an empty tensor of its shape.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: tensor.yield %[[NEGINF]] : f32
// CHECK: } : tensor<1x4x4x2xf32> to tensor<1x5x5x2xf32>
// CHECK: %[[INIT:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[INIT]] : f32) outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK-SAME: ins(%[[PADDED]], %[[WINDOW]] : tensor<1x5x5x2xf32>, tensor<3x3xf32>) outs(%[[ACC]] : tensor<1x2x2x2xf32>)
func.func @max_pool(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = trace.max_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : tensor<1x4x4x2xf32> -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Average pooling with padding: the sum over the zero-padded input, divided
// by the number of in-bounds window elements at each (oh, ow):
// (min(o * 2 - 1 + 3, 4) - max(o * 2 - 1, 0)) per spatial dim.
// CHECK-LABEL: func.func @avg_pool_padded
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: %[[SUM:.*]] = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK-SAME: ins(%[[PADDED]], %{{.*}} : tensor<1x5x5x2xf32>, tensor<3x3xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x2x2xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[OH:.*]] = linalg.index 1 : index
// CHECK: %[[SCALED:.*]] = arith.muli %[[OH]], %c2
// CHECK: %[[START:.*]] = arith.subi %[[SCALED]], %c1
// CHECK: %[[END:.*]] = arith.addi %[[START]], %c3
// CHECK: %[[FIRST:.*]] = arith.maxsi %[[START]], %c0
// CHECK: %[[LAST:.*]] = arith.minsi %[[END]], %c4
// CHECK: %[[ROWS:.*]] = arith.subi %[[LAST]], %[[FIRST]] : index
// CHECK: %[[OW:.*]] = linalg.index 2 : index
// CHECK: %[[WSCALED:.*]] = arith.muli %[[OW]], %c2
// CHECK: %[[WSTART:.*]] = arith.subi %[[WSCALED]], %c1
// CHECK: %[[WEND:.*]] = arith.addi %[[WSTART]], %c3
// CHECK: %[[WFIRST:.*]] = arith.maxsi %[[WSTART]], %c0
// CHECK: %[[WLAST:.*]] = arith.minsi %[[WEND]], %c4
// CHECK: %[[COLS:.*]] = arith.subi %[[WLAST]], %[[WFIRST]] : index
// CHECK: %[[COUNT:.*]] = arith.muli %[[ROWS]], %[[COLS]] : index
// CHECK: %[[COUNT64:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK: %[[DIVISOR:.*]] = arith.sitofp %[[COUNT64]] : i64 to f32
// CHECK: %[[MEAN:.*]] = arith.divf %[[IN]], %[[DIVISOR]] : f32
// CHECK: linalg.yield %[[MEAN]]
func.func @avg_pool_padded(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = trace.avg_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : tensor<1x4x4x2xf32> -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Without padding every window is full: divide by kh * kw.
// CHECK-LABEL: func.func @avg_pool_unpadded
// CHECK-NOT: tensor.pad
// CHECK: %[[SUM:.*]] = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK-SAME: ins(%arg0, %{{.*}} : tensor<1x4x4x2xf32>, tensor<2x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x2x2xf32>)
// CHECK-NOT: linalg.index
// CHECK: %[[FOUR:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: arith.divf %{{.*}}, %[[FOUR]] : f32
func.func @avg_pool_unpadded(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = trace.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x4x4x2xf32> -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
