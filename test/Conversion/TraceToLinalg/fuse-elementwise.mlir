// RUN: tracec-opt %s --trace-to-linalg --trace-fuse-elementwise -split-input-file | FileCheck %s

// Elementwise producers with one use still fuse into elementwise consumers
// (relu(a + b) * c is one generic) ...
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%a: tensor<8x16xf32>, %b: tensor<16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = trace.add %a, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %h = trace.relu %s : tensor<8x16xf32>
  %y = trace.mul %h, %c : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// ... but not into a contraction: a transposed matmul is a linalg.generic
// whose body must stay a multiply-add to get the packed micro-kernels, so
// relu(a + b) stays an elementwise generic of its own.
// CHECK-LABEL: func.func @into_transposed_matmul
// CHECK: %[[H:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[H]], %{{.+}} :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
func.func @into_transposed_matmul(%a: tensor<256x64xf32>, %b: tensor<64xf32>, %dy: tensor<256x32xf32>) -> tensor<64x32xf32> {
  %s = trace.add %a, %b : (tensor<256x64xf32>, tensor<64xf32>) -> tensor<256x64xf32>
  %h = trace.relu %s : tensor<256x64xf32>
  %g = trace.matmul %h, %dy {transpose_a} : (tensor<256x64xf32>, tensor<256x32xf32>) -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}
