// trace.rem at run time, with operands read at run time so that nothing
// folds: floats as C's fmod (the sign of the dividend; x rem 0 is NaN),
// integers truncated, x rem 0 and INT_MIN rem -1 both 0 (never SIGFPE).
// RUN: tracec-run %s --entry remf --input 'a=[7.5, -7.5, 7.5, 1.0, 1.0]' --input 'b=[2.0, 2.0, -2.0, 0.0, 0.1]' | FileCheck %s --check-prefix=F32
// RUN: tracec-run %s --entry remi --input 'a=[7, -7, 7, 5, -2147483648, -2147483648]' --input 'b=[3, 3, -3, 0, -1, 3]' | FileCheck %s --check-prefix=I32
// RUN: tracec-run %s --entry remb --input 'a=[7.5, -7.5]' --input 'b=[2.0, 2.0]' | FileCheck %s --check-prefix=BF16

// fmod(1, 0.1f) is 0.1f - 1e-9 (0.1f is just above 0.1), not 0.
// F32: {{\[ *1.5 +-1.5 +1.5 +nan +0.09999999\]}}
func.func @remf(%a: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %r = trace.rem %a, %b : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// I32: {{\[ *1 +-1 +1 +0 +0 +-2\]}}
func.func @remi(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %r = trace.rem %a, %b : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  return %r : tensor<6xi32>
}

// BF16: {{\[ *1.5 +-1.5\]}}
func.func @remb(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %ha = trace.cast %a : tensor<2xf32> to tensor<2xbf16>
  %hb = trace.cast %b : tensor<2xf32> to tensor<2xbf16>
  %r = trace.rem %ha, %hb : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  %f = trace.cast %r : tensor<2xbf16> to tensor<2xf32>
  return %f : tensor<2xf32>
}
