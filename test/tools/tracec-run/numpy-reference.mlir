// Inputs from .npy files, results to .npy files, checked against NumPy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/dense_case.py make %t
// RUN: tracec-run %s --entry dense --input x=@%t/x.npy --input w=@%t/w.npy --input b=@%t/b.npy --output-dir %t/out | FileCheck %s
// RUN: %python %S/Inputs/dense_case.py check %t/out/dense_result0.npy %t/expected.npy | FileCheck %s --check-prefix=NUMPY

// CHECK: wrote {{.*}}dense_result0.npy
// NUMPY: MATCHES NUMPY
func.func @dense(%x: tensor<8x5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>) -> tensor<8x3xf32> {
  %0 = trace.matmul %x, %w : (tensor<8x5xf32>, tensor<5x3xf32>) -> tensor<8x3xf32>
  %1 = trace.add %0, %b : (tensor<8x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  %2 = trace.relu %1 : tensor<8x3xf32>
  return %2 : tensor<8x3xf32>
}
