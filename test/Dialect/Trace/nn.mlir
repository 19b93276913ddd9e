// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// out = (in + pad_low + pad_high - (dilation * (k - 1) + 1)) / stride + 1

// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>) -> (tensor<1x6x6x16xf32>, tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>) {
  // Defaults: stride 1, no padding, no dilation.
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  %0 = trace.conv2d %in, %f : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %1 = trace.conv2d %in, %f {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  // "Same" padding.
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  %2 = trace.conv2d %in, %f {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  // A 3x3 filter dilated by 2 spans 5x5.
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {dilations = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %3 = trace.conv2d %in, %f {dilations = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  return %0, %1, %2, %3 : tensor<1x6x6x16xf32>, tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>
}

// Padding is [top, bottom, left, right]; H and W are independent.
// CHECK-LABEL: func.func @conv2d_asymmetric
func.func @conv2d_asymmetric(%in: tensor<2x5x7x4xf64>, %f: tensor<2x3x4x1xf64>) -> (tensor<2x5x7x1xf64>, tensor<2x2x5x1xf64>, tensor<2x4x1x1xf64>) {
  // H: 5 + 0 + 1 - 2 + 1 = 5; W: 7 + 2 + 0 - 3 + 1 = 7.
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 0, 1, 2, 0>} : (tensor<2x5x7x4xf64>, tensor<2x3x4x1xf64>) -> tensor<2x5x7x1xf64>
  %0 = trace.conv2d %in, %f {padding = array<i64: 0, 1, 2, 0>} : (tensor<2x5x7x4xf64>, tensor<2x3x4x1xf64>) -> tensor<2x5x7x1xf64>
  // H: (5 - 2) / 2 + 1 = 2; W: (7 - 3) / 1 + 1 = 5.
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 2, 1>} : (tensor<2x5x7x4xf64>, tensor<2x3x4x1xf64>) -> tensor<2x2x5x1xf64>
  %1 = trace.conv2d %in, %f {strides = array<i64: 2, 1>} : (tensor<2x5x7x4xf64>, tensor<2x3x4x1xf64>) -> tensor<2x2x5x1xf64>
  // H: 5 - 2 + 1 = 4; W: the dilated filter spans 7: 7 - 7 + 1 = 1.
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {dilations = array<i64: 1, 3>} : (tensor<2x5x7x4xf64>, tensor<2x3x4x1xf64>) -> tensor<2x4x1x1xf64>
  %2 = trace.conv2d %in, %f {dilations = array<i64: 1, 3>} : (tensor<2x5x7x4xf64>, tensor<2x3x4x1xf64>) -> tensor<2x4x1x1xf64>
  return %0, %1, %2 : tensor<2x5x7x1xf64>, tensor<2x2x5x1xf64>, tensor<2x4x1x1xf64>
}

// A 1x1 filter over a 1x1 image; f16 and bf16.
// CHECK-LABEL: func.func @conv2d_size_one
func.func @conv2d_size_one(%in: tensor<1x1x1x1xf16>, %f: tensor<1x1x1x1xf16>, %b: tensor<3x4x4x2xbf16>, %g: tensor<1x1x2x5xbf16>) -> (tensor<1x1x1x1xf16>, tensor<3x2x2x5xbf16>) {
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>) -> tensor<1x1x1x1xf16>
  %0 = trace.conv2d %in, %f : (tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>) -> tensor<1x1x1x1xf16>
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 3, 3>} : (tensor<3x4x4x2xbf16>, tensor<1x1x2x5xbf16>) -> tensor<3x2x2x5xbf16>
  %1 = trace.conv2d %b, %g {strides = array<i64: 3, 3>} : (tensor<3x4x4x2xbf16>, tensor<1x1x2x5xbf16>) -> tensor<3x2x2x5xbf16>
  return %0, %1 : tensor<1x1x1x1xf16>, tensor<3x2x2x5xbf16>
}

// Unknown input or filter sizes give unknown output sizes; an unknown
// channel count matches any.
// CHECK-LABEL: func.func @conv2d_dynamic
func.func @conv2d_dynamic(%in: tensor<?x?x8x?xf32>, %f: tensor<3x3x3x16xf32>, %g: tensor<?x?x3x?xf32>, %x: tensor<1x8x8x3xf32>) -> (tensor<?x?x6x16xf32>, tensor<1x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x?x8x?xf32>, tensor<3x3x3x16xf32>) -> tensor<?x?x6x16xf32>
  %0 = trace.conv2d %in, %f : (tensor<?x?x8x?xf32>, tensor<3x3x3x16xf32>) -> tensor<?x?x6x16xf32>
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<?x?x3x?xf32>) -> tensor<1x?x?x?xf32>
  %1 = trace.conv2d %x, %g {strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<?x?x3x?xf32>) -> tensor<1x?x?x?xf32>
  // CHECK: trace.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<?x?x8x?xf32>, tensor<?x?x3x?xf32>) -> tensor<?x?x?x?xf32>
  %2 = trace.conv2d %in, %g : (tensor<?x?x8x?xf32>, tensor<?x?x3x?xf32>) -> tensor<?x?x?x?xf32>
  return %0, %1, %2 : tensor<?x?x6x16xf32>, tensor<1x?x?x?xf32>, tensor<?x?x?x?xf32>
}

// CHECK-LABEL: func.func @max_pool2d
func.func @max_pool2d(%x: tensor<1x8x8x3xf32>, %y: tensor<2x7x5x4xf16>) -> (tensor<1x4x4x3xf32>, tensor<1x7x7x3xf32>, tensor<2x3x4x4xf16>, tensor<1x8x8x3xf32>) {
  // CHECK: trace.max_pool2d %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  // Strides default to 1.
  // CHECK: trace.max_pool2d %{{[a-z0-9_]+}} {window = array<i64: 2, 2>} : tensor<1x8x8x3xf32> -> tensor<1x7x7x3xf32>
  %1 = trace.max_pool2d %x {window = array<i64: 2, 2>} : tensor<1x8x8x3xf32> -> tensor<1x7x7x3xf32>
  // H: (7 - 3) / 2 + 1 = 3; W: (5 - 2) / 1 + 1 = 4.
  // CHECK: trace.max_pool2d %{{[a-z0-9_]+}} {strides = array<i64: 2, 1>, window = array<i64: 3, 2>} : tensor<2x7x5x4xf16> -> tensor<2x3x4x4xf16>
  %2 = trace.max_pool2d %y {window = array<i64: 3, 2>, strides = array<i64: 2, 1>} : tensor<2x7x5x4xf16> -> tensor<2x3x4x4xf16>
  // CHECK: trace.max_pool2d %{{[a-z0-9_]+}} {padding = array<i64: 1, 1, 1, 1>, window = array<i64: 3, 3>} : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
  %3 = trace.max_pool2d %x {window = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : tensor<1x8x8x3xf32> -> tensor<1x8x8x3xf32>
  return %0, %1, %2, %3 : tensor<1x4x4x3xf32>, tensor<1x7x7x3xf32>, tensor<2x3x4x4xf16>, tensor<1x8x8x3xf32>
}

// CHECK-LABEL: func.func @avg_pool2d
func.func @avg_pool2d(%x: tensor<1x8x8x3xf32>, %y: tensor<4x5x5x2xf64>, %o: tensor<1x1x1x1xf32>) -> (tensor<1x1x1x3xf32>, tensor<4x3x2x2xf64>, tensor<1x1x1x1xf32>) {
  // A global pool.
  // CHECK: trace.avg_pool2d %{{[a-z0-9_]+}} {window = array<i64: 8, 8>} : tensor<1x8x8x3xf32> -> tensor<1x1x1x3xf32>
  %0 = trace.avg_pool2d %x {window = array<i64: 8, 8>} : tensor<1x8x8x3xf32> -> tensor<1x1x1x3xf32>
  // H: (5 + 1 + 0 - 2) / 2 + 1 = 3; W: (5 + 0 + 1 - 3) / 2 + 1 = 2.
  // CHECK: trace.avg_pool2d %{{[a-z0-9_]+}} {padding = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 2>, window = array<i64: 2, 3>} : tensor<4x5x5x2xf64> -> tensor<4x3x2x2xf64>
  %1 = trace.avg_pool2d %y {window = array<i64: 2, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>} : tensor<4x5x5x2xf64> -> tensor<4x3x2x2xf64>
  // CHECK: trace.avg_pool2d %{{[a-z0-9_]+}} {window = array<i64: 1, 1>} : tensor<1x1x1x1xf32> -> tensor<1x1x1x1xf32>
  %2 = trace.avg_pool2d %o {window = array<i64: 1, 1>} : tensor<1x1x1x1xf32> -> tensor<1x1x1x1xf32>
  return %0, %1, %2 : tensor<1x1x1x3xf32>, tensor<4x3x2x2xf64>, tensor<1x1x1x1xf32>
}

// CHECK-LABEL: func.func @pool_dynamic
func.func @pool_dynamic(%x: tensor<?x?x8x?xf32>) -> (tensor<?x?x4x?xf32>, tensor<?x?x7x?xf32>) {
  // CHECK: trace.max_pool2d %{{[a-z0-9_]+}} {strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<?x?x8x?xf32> -> tensor<?x?x4x?xf32>
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<?x?x8x?xf32> -> tensor<?x?x4x?xf32>
  // CHECK: trace.avg_pool2d %{{[a-z0-9_]+}} {window = array<i64: 3, 2>} : tensor<?x?x8x?xf32> -> tensor<?x?x7x?xf32>
  %1 = trace.avg_pool2d %x {window = array<i64: 3, 2>} : tensor<?x?x8x?xf32> -> tensor<?x?x7x?xf32>
  return %0, %1 : tensor<?x?x4x?xf32>, tensor<?x?x7x?xf32>
}
