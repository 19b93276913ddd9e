// Integer division never traps (it raised SIGFPE and killed the host):
// x / 0 is 0 and INT_MIN / -1 wraps to INT_MIN, as NumPy's integer
// division gives (trace.div truncates toward zero). i32 and i64, with
// divisors read at run time so that nothing folds.
// RUN: tracec-run %s --entry div32 --input 'a=[7, -7, -2147483648, 5, 0, -2147483648]' --input 'b=[2, 2, -1, 0, 0, 1]' | FileCheck %s --check-prefix=I32
// RUN: tracec-run %s --entry div64 --input 'a=[-9223372036854775808, 9, -9]' --input 'b=[-1, 0, -2]' | FileCheck %s --check-prefix=I64
// RUN: tracec-run %s --entry div32 --threads 2 --input 'a=[7, -7, -2147483648, 5, 0, -2147483648]' --input 'b=[2, 2, -1, 0, 0, 1]' | FileCheck %s --check-prefix=I32

// I32: [          3          -3 -2147483648           0           0 -2147483648]
func.func @div32(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %r = trace.div %a, %b : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  return %r : tensor<6xi32>
}

// I64: [-9223372036854775808                    0                    4]
func.func @div64(%a: tensor<3xi64>, %b: tensor<3xi64>) -> tensor<3xi64> {
  %r = trace.div %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %r : tensor<3xi64>
}
