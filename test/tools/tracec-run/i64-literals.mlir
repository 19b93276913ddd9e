// i64 literals are exact: a double holds integers exactly only up to 2^53,
// so an integer is read as one. A value outside i64 is an error, whether
// spelled as an integer or as a float (converting it would be undefined).
// RUN: tracec-run %s --entry f --input x="[9007199254740993, -9223372036854775808, 9223372036854775807]" | FileCheck %s
// RUN: tracec-run %s --entry f --input x="[-9.223372036854775808e18, 1e18, -0]" | FileCheck %s --check-prefix=FLOATS
// RUN: not tracec-run %s --entry f --input x="[1e30, 0, 0]" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tracec-run %s --entry f --input x="[0, 9223372036854775808, 0]" 2>&1 | FileCheck %s --check-prefix=PAST

// CHECK:  [ 9007199254740993 -9223372036854775808 9223372036854775807]
// FLOATS: [-9223372036854775808 1000000000000000000 0]
// HUGE:   error: input 'x' (argument 0 of @f): value 1000000000000000019884624838656.000000 does not fit i64
// PAST:   error: input 'x' (argument 0 of @f): value 9223372036854775808.000000 does not fit i64
func.func @f(%x: tensor<3xi64>) -> tensor<3xi64> {
  return %x : tensor<3xi64>
}
