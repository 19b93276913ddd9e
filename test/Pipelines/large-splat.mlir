// RUN: tracec-opt %s --tracec-cpu-pipeline | FileCheck %s

// A large splat leaves no data in the binary: the result is filled in a
// loop (it was a 16 GiB global constant, materialized element by element).
// CHECK-NOT: llvm.mlir.global {{.*}}dense
// CHECK: llvm.func @ones
// CHECK-NOT: llvm.mlir.global {{.*}}dense
func.func @ones(%x: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
  %0 = trace.constant dense<1.0> : tensor<65536x65536xf32>
  %1 = trace.add %x, %0 : (tensor<65536x65536xf32>, tensor<65536x65536xf32>) -> tensor<65536x65536xf32>
  %2 = trace.constant dense<2.0> : tensor<65536x65536xf32>
  %3 = trace.concat %1, %2 {axis = 0 : i64} : (tensor<65536x65536xf32>, tensor<65536x65536xf32>) -> tensor<131072x65536xf32>
  %4 = trace.slice %3 {start = array<i64: 0, 0>, limit = array<i64: 65536, 65536>} : tensor<131072x65536xf32> -> tensor<65536x65536xf32>
  return %4 : tensor<65536x65536xf32>
}
