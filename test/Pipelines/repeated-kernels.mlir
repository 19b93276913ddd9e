// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=1" | FileCheck %s

// The same computation on two inputs (as a graph unrolled over steps has
// it): trace-cpu-dedup-kernels makes one function of each op the steps
// repeat (the packing of the step's input, the contraction, the unpack,
// the tanh), which both steps call, so each is lowered and compiled once.
// The packing of the shared %w occurs once and stays in @twice.
// CHECK-LABEL: llvm.func @twice(
// CHECK:         llvm.call @[[PACK:twice_linalg_pack]](
// CHECK:         llvm.call @[[CONTRACT:twice_linalg_contract]](
// CHECK:         llvm.call @[[UNPACK:twice_linalg_unpack]](
// CHECK:         llvm.call @[[TANH:twice_linalg_generic]](
// CHECK:         llvm.call @[[PACK]](
// CHECK:         llvm.call @[[CONTRACT]](
// CHECK:         llvm.call @[[UNPACK]](
// CHECK:         llvm.call @[[TANH]](
// CHECK:         llvm.return
// Each defined once, its loop nest a kernel of its own.
// CHECK-NOT:     @twice_linalg_{{[a-z]+}}_{{[0-9]+}}(
func.func @twice(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %0 = trace.matmul %a, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = trace.tanh %0 : tensor<64x64xf32>
  %2 = trace.matmul %b, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = trace.tanh %2 : tensor<64x64xf32>
  return %1, %3 : tensor<64x64xf32>, tensor<64x64xf32>
}
