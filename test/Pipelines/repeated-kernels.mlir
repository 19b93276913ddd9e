// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=1" | FileCheck %s

// The same computation on two inputs (as a graph unrolled over steps has
// it): trace-cpu-dedup-kernels makes one function of the chain each step
// repeats (the packing of the step's input, the contraction, its unpack,
// the tanh: ops used once each, by the next), which both steps call, so it
// is lowered and compiled once, its loop nests kernels of their own. The
// packing of the shared %w occurs once and stays in @twice.
// CHECK-LABEL: llvm.func @twice(
// CHECK:         llvm.call @[[STEP:twice_linalg_generic]](
// CHECK:         llvm.call @[[STEP]](
// CHECK:         llvm.return
// CHECK:       llvm.func internal @[[STEP]](
// CHECK-COUNT-4: llvm.call @twice_linalg_generic_kernel
// CHECK-NOT:     @twice_linalg_generic_{{[0-9]+}}(
func.func @twice(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %0 = trace.matmul %a, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = trace.tanh %0 : tensor<64x64xf32>
  %2 = trace.matmul %b, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = trace.tanh %2 : tensor<64x64xf32>
  return %1, %3 : tensor<64x64xf32>, tensor<64x64xf32>
}
