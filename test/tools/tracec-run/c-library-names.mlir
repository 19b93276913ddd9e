// Functions named like the C library functions compiled code calls: libm's
// `exp` (f64 math is a libm call) and libc's `free` (dealloc). Their calls
// must reach the C library, not the user's function of the same name (that
// recursed until the stack overflowed).
// RUN: tracec-run %s --entry exp --input x="[0, 1, -1]" | FileCheck %s --check-prefix=EXP
// RUN: tracec-run %s --entry free --input x="[0, 1, -1]" | FileCheck %s --check-prefix=FREE
// RUN: tracec-run %s --entry calls_log --input x="[1, 4]" | FileCheck %s --check-prefix=LOG

// EXP:      result 0: tensor<3xf64>
// EXP-NEXT: [1.         2.71828183 0.36787944]
func.func @exp(%x: tensor<3xf64>) -> tensor<3xf64> {
  %y = trace.exp %x : tensor<3xf64>
  return %y : tensor<3xf64>
}

// FREE:      result 0: tensor<3xf64>
// FREE-NEXT: [2.         3.71828183 1.36787944]
func.func @free(%x: tensor<3xf64>) -> tensor<3xf64> {
  %e = func.call @exp(%x) : (tensor<3xf64>) -> tensor<3xf64>
  %one = trace.constant dense<1.0> : tensor<f64>
  %y = trace.add %e, %one : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  return %y : tensor<3xf64>
}

// A private helper named like libm's `log`.
// LOG:      result 0: tensor<2xf64>
// LOG-NEXT: [0.         1.38629436]
func.func private @log(%x: tensor<2xf64>) -> tensor<2xf64> {
  %y = trace.log %x : tensor<2xf64>
  return %y : tensor<2xf64>
}
func.func @calls_log(%x: tensor<2xf64>) -> tensor<2xf64> {
  %y = func.call @log(%x) : (tensor<2xf64>) -> tensor<2xf64>
  return %y : tensor<2xf64>
}
