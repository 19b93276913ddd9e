// RUN: tracec-opt %s --trace-vmap -split-input-file | FileCheck %s

// A batch of image batches folds into the images' N: one convolution and
// one pooling for the whole batch, the filter shared.

func.func private @f(%x: tensor<2x6x6x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x2x2x4xf32> {
  %c = trace.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  %p = trace.max_pool2d %c {window = array<i64: 3, 3>, strides = array<i64: 3, 3>} : tensor<2x6x6x4xf32> -> tensor<2x2x2x4xf32>
  return %p : tensor<2x2x2x4xf32>
}

func.func @caller(%xs: tensor<5x2x6x6x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<5x2x2x2x4xf32> {
  %r = trace.vmap @f(%xs, %w) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>} : (tensor<5x2x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<5x2x2x2x4xf32>
  return %r : tensor<5x2x2x2x4xf32>
}

// CHECK-LABEL: func.func private @__vmap_f_bu_5
// CHECK-SAME:    (%[[X:.*]]: tensor<5x2x6x6x3xf32>, %[[W:.*]]: tensor<3x3x3x4xf32>)
// CHECK:         %[[F:.*]] = trace.reshape %[[X]] : tensor<5x2x6x6x3xf32> -> tensor<10x6x6x3xf32>
// CHECK:         %[[C:.*]] = trace.conv2d %[[F]], %[[W]] {{.*}} : (tensor<10x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<10x6x6x4xf32>
// CHECK:         trace.reshape %[[C]] : tensor<10x6x6x4xf32> -> tensor<5x2x6x6x4xf32>
// CHECK:         trace.max_pool2d {{.*}} : tensor<10x6x6x4xf32> -> tensor<10x2x2x4xf32>
// CHECK-NOT:     scf.for

// -----

// A filter per example: one convolution per example.

func.func private @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = trace.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c : tensor<1x2x2x2xf32>
}

func.func @caller(%x: tensor<1x4x4x2xf32>, %ws: tensor<3x3x3x2x2xf32>) -> tensor<3x1x2x2x2xf32> {
  %r = trace.vmap @f(%x, %ws) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>} : (tensor<1x4x4x2xf32>, tensor<3x3x3x2x2xf32>) -> tensor<3x1x2x2x2xf32>
  return %r : tensor<3x1x2x2x2xf32>
}

// CHECK-LABEL: func.func private @__vmap_f_ub_3
// CHECK:         scf.for
// CHECK:           tensor.extract_slice {{.*}} : tensor<3x3x3x2x2xf32> to tensor<3x3x2x2xf32>
// CHECK:           trace.conv2d {{.*}} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32>
