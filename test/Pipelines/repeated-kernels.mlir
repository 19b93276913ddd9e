// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=1" | FileCheck %s

// The same computation on two inputs (as a graph unrolled over steps has
// it) has the same loop nests twice: trace-cpu-outline-kernels makes one
// kernel of each, which both steps call, so each is lowered and compiled
// once.
// CHECK-LABEL: llvm.func @twice(
// The first step: its kernels, the packing of the shared %w among them.
// CHECK:         llvm.call @[[A:twice_kernel]](
// CHECK:         llvm.call @twice_kernel_0(
// CHECK:         llvm.call @twice_kernel_1(
// CHECK:         llvm.call @[[B:twice_kernel_2]](
// CHECK:         llvm.call @[[C:twice_kernel_3]](
// CHECK:         llvm.call @[[D:twice_kernel_4]](
// The second calls the first one's kernels again.
// CHECK:         llvm.call @[[A]](
// CHECK:         llvm.call @[[B]](
// CHECK:         llvm.call @[[C]](
// CHECK:         llvm.call @[[D]](
// CHECK:         llvm.return
// CHECK-COUNT-6: llvm.func internal @twice_kernel
// CHECK-NOT:     llvm.func internal @twice_kernel
func.func @twice(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %0 = trace.matmul %a, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = trace.tanh %0 : tensor<64x64xf32>
  %2 = trace.matmul %b, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = trace.tanh %2 : tensor<64x64xf32>
  return %1, %3 : tensor<64x64xf32>, tensor<64x64xf32>
}
