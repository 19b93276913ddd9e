// RUN: tracec-opt %s --trace-to-linalg --canonicalize -split-input-file | FileCheck %s

// A weight gradient summed over unrolled steps, x0^T d0 + x1^T d1 + x2^T d2:
// one contraction over the steps' rows joined (4 + 4 + 2 = 10), no sum.
// CHECK-LABEL: func.func @weight_gradient
// CHECK-COUNT-3: tensor.insert_slice {{.*}} into tensor<10x32xf32>
// CHECK-COUNT-3: tensor.insert_slice {{.*}} into tensor<10x64xf32>
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<10x32xf32>, tensor<10x64xf32>) outs(%{{.*}} : tensor<32x64xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[G]]
func.func @weight_gradient(%x0: tensor<4x32xf32>, %d0: tensor<4x64xf32>, %x1: tensor<4x32xf32>, %d1: tensor<4x64xf32>, %x2: tensor<2x32xf32>, %d2: tensor<2x64xf32>) -> tensor<32x64xf32> {
  %g0 = trace.matmul %x0, %d0 {transpose_a} : (tensor<4x32xf32>, tensor<4x64xf32>) -> tensor<32x64xf32>
  %g1 = trace.matmul %x1, %d1 {transpose_a} : (tensor<4x32xf32>, tensor<4x64xf32>) -> tensor<32x64xf32>
  %s = trace.add %g0, %g1 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %g2 = trace.matmul %x2, %d2 {transpose_a} : (tensor<2x32xf32>, tensor<2x64xf32>) -> tensor<32x64xf32>
  %t = trace.add %s, %g2 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %t : tensor<32x64xf32>
}

// -----

// Plain products (no flags): the left operands join along their columns.
// CHECK-LABEL: func.func @plain
// CHECK-COUNT-2: tensor.insert_slice {{.*}} into tensor<48x8xf32>
// CHECK-COUNT-2: tensor.insert_slice {{.*}} into tensor<8x40xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<48x8xf32>, tensor<8x40xf32>)
// CHECK-NOT:     linalg.generic
func.func @plain(%a0: tensor<48x4xf32>, %b0: tensor<4x40xf32>, %a1: tensor<48x4xf32>, %b1: tensor<4x40xf32>) -> tensor<48x40xf32> {
  %p0 = trace.matmul %a0, %b0 : (tensor<48x4xf32>, tensor<4x40xf32>) -> tensor<48x40xf32>
  %p1 = trace.matmul %a1, %b1 : (tensor<48x4xf32>, tensor<4x40xf32>) -> tensor<48x40xf32>
  %s = trace.add %p0, %p1 : (tensor<48x40xf32>, tensor<48x40xf32>) -> tensor<48x40xf32>
  return %s : tensor<48x40xf32>
}

// -----

// Not joined: square products (joining would copy more than the sum
// costs), and a sum of which one product is used elsewhere.
// CHECK-LABEL: func.func @not_joined
// CHECK-NOT:     tensor.insert_slice
// CHECK-COUNT-2: linalg.matmul
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           arith.addf
// CHECK:         linalg.matmul ins(%arg3, %arg4
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           arith.addf
func.func @not_joined(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %c: tensor<32x32xf32>, %x: tensor<32x4xf32>, %y: tensor<4x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
  %p0 = trace.matmul %a, %b : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %p1 = trace.matmul %b, %c : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = trace.add %p0, %p1 : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %u = trace.matmul %x, %y : (tensor<32x4xf32>, tensor<4x32xf32>) -> tensor<32x32xf32>
  %v = trace.matmul %y, %x {transpose_a, transpose_b} : (tensor<4x32xf32>, tensor<32x4xf32>) -> tensor<32x32xf32>
  %t = trace.add %u, %v : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %s, %t, %u : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
}
