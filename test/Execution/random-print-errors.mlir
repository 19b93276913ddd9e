// Unsupported random and print ops are one error line with the op's
// location and exit code 1, from tracec-run as from the C++ API.
// RUN: rm -rf %t && split-file %s %t
// RUN: not tracec-run %t/int-random.mlir --entry f 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not tracec-run %t/dynamic-print.mlir --entry f --input x="[1, 2]" 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// INT: int-random.mlir:2:12: error: 'trace.random_uniform' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'
// DYNAMIC: dynamic-print.mlir:3:8: error: 'trace.print' op needs a statically shaped operand to be lowered, got 'tensor<?xf32>'

//--- int-random.mlir
func.func @f() -> tensor<4xi32> {
  %r, %c = trace.random_uniform {seed = 1} : tensor<4xi32>
  return %r : tensor<4xi32>
}
//--- dynamic-print.mlir
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %d = tensor.cast %x : tensor<2xf32> to tensor<?xf32>
  %p = trace.print %d : tensor<?xf32>
  return %x : tensor<2xf32>
}
