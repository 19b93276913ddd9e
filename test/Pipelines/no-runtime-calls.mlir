// Compiled code calls nothing but libc and libm: a copy out of a strided
// view (a stepped slice returned as a result) becomes loops, not a call of
// the C runner library's memrefCopy.
// RUN: tracec-opt %s --tracec-cpu-pipeline | FileCheck %s
// CHECK-NOT: memrefCopy
// CHECK-LABEL: llvm.func @every_other_column
// CHECK-NOT: llvm.call @memrefCopy
func.func @every_other_column(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  %0 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 4, 6>, strides = array<i64: 1, 2>} : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
