// Multi-function modules with scf control flow on tensors run end to end.
// Expected values (NumPy, see each function's comment):
// RUN: tracec-run %s --entry power_sum --input x="[1, 2, 3]" --input n=4 | FileCheck %s --check-prefix=FOR
// RUN: tracec-run %s --entry pick --input x="[1, -2, 3]" --input flag=true | FileCheck %s --check-prefix=IF-TRUE
// RUN: tracec-run %s --entry pick --input x="[1, -2, 3]" --input flag=false | FileCheck %s --check-prefix=IF-FALSE
// RUN: tracec-run %s --entry halve_until_small --input x="[40, 3, 17]" | FileCheck %s --check-prefix=WHILE

// x + x^2 + ... + x^n by a loop that calls a function each iteration:
// np.sum([x**k for k in range(1, 5)], axis=0) = [4, 30, 120]
// FOR: result 0: tensor<3xf32>
// FOR-NEXT: [  4.  30. 120.]
func.func private @times(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %0 = trace.mul %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @power_sum(%x: tensor<3xf32>, %n: tensor<i64>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %zero = arith.constant dense<0.0> : tensor<3xf32>
  %one = arith.constant dense<1.0> : tensor<3xf32>
  %sum, %pow = scf.for %i = %c0 to %ni step %c1 iter_args(%s = %zero, %p = %one) -> (tensor<3xf32>, tensor<3xf32>) {
    %p2 = func.call @times(%p, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %s2 = trace.add %s, %p2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %s2, %p2 : tensor<3xf32>, tensor<3xf32>
  }
  return %sum : tensor<3xf32>
}

// np.exp(x) if flag else np.abs(x); exp computed in float64 and rounded to
// float32 (NumPy's own float32 exp is 1 ulp off at x=1).
// IF-TRUE: result 0: tensor<3xf32>
// IF-TRUE-NEXT: [ 2.7182817   0.13533528 20.085537  ]
// IF-FALSE: result 0: tensor<3xf32>
// IF-FALSE-NEXT: [1. 2. 3.]
func.func @pick(%x: tensor<3xf32>, %flag: tensor<i1>) -> tensor<3xf32> {
  %c = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %c -> tensor<3xf32> {
    %e = trace.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  } else {
    %a = trace.abs %x : tensor<3xf32>
    scf.yield %a : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// Halve everything while the sum exceeds 10:
// s=60 -> 30 -> 15 -> 7.5 stops: x / 8 = [5, 0.375, 2.125]
// WHILE: result 0: tensor<3xf32>
// WHILE-NEXT: [5.    0.375 2.125]
func.func @halve_until_small(%x: tensor<3xf32>) -> tensor<3xf32> {
  %limit = arith.constant 10.0 : f32
  %half = trace.constant dense<0.5> : tensor<f32>
  %r = scf.while (%v = %x) : (tensor<3xf32>) -> tensor<3xf32> {
    %s = trace.reduce_sum %v {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
    %sv = tensor.extract %s[] : tensor<f32>
    %more = arith.cmpf ogt, %sv, %limit : f32
    scf.condition(%more) %v : tensor<3xf32>
  } do {
  ^bb0(%v: tensor<3xf32>):
    %h = trace.mul %v, %half : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    scf.yield %h : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
