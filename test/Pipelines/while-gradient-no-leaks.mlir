// The gradient of an scf.while frees its tapes: the forward loop grows them
// at run time (16 rows, then 32: the loop below runs 22 times), the
// backward loop reads them, and the buffer-deallocation pipeline frees
// every allocation, the discarded smaller tapes included. Valgrind would
// report a forgotten one as definitely lost (20 runs).
//
// halve(x, w) = sum(x * w^n), n the number of multiplications until
// sum(v) <= 1: with x = [3e6, 1e6] and w = 0.5, n = 22 (4e6 / 2^22 < 1 <
// 4e6 / 2^21), so d/dx = w^22 = 2^-22 and d/dw = 22 w^21 sum(x) =
// 22 * 4e6 / 2^21 = 41.961669921875 (exact in f32: powers of two).
// Valgrind cannot run a sanitized build; ASan checks the same there.
// UNSUPPORTED: sanitizer
// RUN: valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=1 tracec-run %s --repeat=20 --entry dhalve --input x="[3000000, 1000000]" --input w=0.5 2>&1 | FileCheck %s
// CHECK-NOT: definitely lost
// CHECK:      result 0: tensor<2xf32>
// CHECK-NEXT: [2.3841858e-07 2.3841858e-07]
// CHECK-NEXT: result 1: tensor<f32>
// CHECK-NEXT: 41.96167
// CHECK-NOT: definitely lost

// Grad of grad: the second gradient tapes the first one's loops again (of
// the tape's carry only its size) and frees all of it too.
// d/dx (d halve/dw) = 22 w^21 = 22 / 2^21 and d2 halve/dw2 =
// 22 * 21 w^20 sum(x) = 462 * 4e6 / 2^20 = 1762.39013671875.
// RUN: valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=1 tracec-run %s --repeat=2 --entry ddhalve --input x="[3000000, 1000000]" --input w=0.5 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND-NOT: definitely lost
// SECOND:      result 0: tensor<2xf32>
// SECOND-NEXT: [1.04904175e-05 1.04904175e-05]
// SECOND-NEXT: result 1: tensor<f32>
// SECOND-NEXT: 1762.39
// SECOND-NOT: definitely lost
func.func @halve(%x: tensor<2xf32>, %w: tensor<f32>) -> tensor<f32> {
  %one = trace.constant dense<1.0> : tensor<f32>
  %r = scf.while (%v = %x) : (tensor<2xf32>) -> tensor<2xf32> {
    %s = trace.reduce_sum %v {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
    %big = trace.gt %s, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b = tensor.extract %big[] : tensor<i1>
    scf.condition(%b) %v : tensor<2xf32>
  } do {
  ^bb0(%v: tensor<2xf32>):
    %h = trace.mul %v, %w : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    scf.yield %h : tensor<2xf32>
  }
  %s = trace.reduce_sum %r {axes = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @dhalve(%x: tensor<2xf32>, %w: tensor<f32>) -> (tensor<2xf32>, tensor<f32>) {
  %g:2 = trace.grad @halve(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<f32>)
  return %g#0, %g#1 : tensor<2xf32>, tensor<f32>
}
func.func @dw(%x: tensor<2xf32>, %w: tensor<f32>) -> tensor<f32> {
  %g:2 = trace.grad @halve(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<f32>)
  return %g#1 : tensor<f32>
}
func.func @ddhalve(%x: tensor<2xf32>, %w: tensor<f32>) -> (tensor<2xf32>, tensor<f32>) {
  %g:2 = trace.grad @dw(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<f32>)
  return %g#0, %g#1 : tensor<2xf32>, tensor<f32>
}
