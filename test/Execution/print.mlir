// trace.print writes the message and the tensor, formatted as NumPy's
// print(message, array) does, to stdout, in the order automatic control
// dependencies give, before tracec-run prints the results.
// Expected text: NumPy's print of the same values (python3 -c ...).
// RUN: tracec-run %s --entry formats | FileCheck %s --check-prefix=FORMATS
// RUN: tracec-run %s --entry with_variable --input v="[1, 2]" --input x="[0.5, 0.25]" | FileCheck %s --check-prefix=VAR
// RUN: tracec-run %s --entry in_if --input x="[1, 2]" --input flag=true | FileCheck %s --check-prefix=IF-TRUE
// RUN: tracec-run %s --entry in_if --input x="[1, 2]" --input flag=false | FileCheck %s --check-prefix=IF-FALSE
// RUN: tracec-run %s --entry in_loop --input n=3 | FileCheck %s --check-prefix=LOOP
// RUN: tracec-run %s --entry unused_token --input x="[4, 5]" | FileCheck %s --check-prefix=UNUSED
// RUN: tracec-run %s --entry no_results --input x="[[1, 2], [3, 4]]" --repeat 2 | FileCheck %s --check-prefix=NORESULTS
// RUN: tracec-run %s --entry of_a_slice --input x="[[1, 2, 3], [4, 5, 6]]" | FileCheck %s --check-prefix=SLICE

// FORMATS:      x: {{\[\[}} 1.5  -2.  ]
// FORMATS-NEXT:  [ 0.    3.25]]
// FORMATS-NEXT: [ 7 -8  9]
// FORMATS-NEXT: loss 0.125
// FORMATS-NEXT: mask [ True False]
// FORMATS-NEXT: half [0.1 2.5]
// FORMATS-NEXT: result 0: tensor<f32>
// FORMATS-NEXT: 1.0
func.func @formats() -> tensor<f32> {
  %a = trace.constant dense<[[1.5, -2.0], [0.0, 3.25]]> : tensor<2x2xf32>
  %p0 = trace.print %a {message = "x:"} : tensor<2x2xf32>
  %b = trace.constant dense<[7, -8, 9]> : tensor<3xi32>
  %p1 = trace.print %b : tensor<3xi32>
  %c = trace.constant dense<0.125> : tensor<f64>
  %p2 = trace.print %c {message = "loss"} : tensor<f64>
  %d = trace.constant dense<[true, false]> : tensor<2xi1>
  %p3 = trace.print %d {message = "mask"} : tensor<2xi1>
  %e = trace.constant dense<[0.1, 2.5]> : tensor<2xf16>
  %p4 = trace.print %e {message = "half"} : tensor<2xf16>
  %r = trace.constant dense<1.0> : tensor<f32>
  return %r : tensor<f32>
}

// Prints are ordered with the variable's read and assign around them.
// VAR:      before [1. 2.]
// VAR-NEXT: after [1.5  2.25]
// VAR-NEXT: result 0: tensor<2xf32>
// VAR-NEXT: [1.5  2.25]
func.func @with_variable(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p0 = trace.print %r0 {message = "before"} : tensor<2xf32>
  %c1 = trace.var.assign_add %v, %x : !trace.resource<tensor<2xf32>>
  %r1, %c2 = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p1 = trace.print %r1 {message = "after"} : tensor<2xf32>
  return %r1 : tensor<2xf32>
}

// IF-TRUE:      first [1. 2.]
// IF-TRUE-NEXT: then [2. 4.]
// IF-TRUE-NEXT: last [1. 2.]
// IF-TRUE-NEXT: result 0
// IF-FALSE:      first [1. 2.]
// IF-FALSE-NEXT: last [1. 2.]
// IF-FALSE-NEXT: result 0
func.func @in_if(%x: tensor<2xf32>, %flag: tensor<i1>) -> tensor<2xf32> {
  %p0 = trace.print %x {message = "first"} : tensor<2xf32>
  %f = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %f -> tensor<2xf32> {
    %y = trace.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %p = trace.print %y {message = "then"} : tensor<2xf32>
    scf.yield %y : tensor<2xf32>
  } else {
    scf.yield %x : tensor<2xf32>
  }
  %p1 = trace.print %x {message = "last"} : tensor<2xf32>
  return %r : tensor<2xf32>
}

// LOOP:      i 0
// LOOP-NEXT: i 1
// LOOP-NEXT: i 2
// LOOP-NEXT: result 0: tensor<i64>
// LOOP-NEXT: 3
func.func @in_loop(%n: tensor<i64>) -> tensor<i64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %zero = trace.constant dense<0> : tensor<i64>
  %one = trace.constant dense<1> : tensor<i64>
  %r = scf.for %i = %c0 to %ni step %c1 iter_args(%k = %zero) -> (tensor<i64>) {
    %p = trace.print %k {message = "i"} : tensor<i64>
    %k1 = trace.add %k, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    scf.yield %k1 : tensor<i64>
  }
  return %r : tensor<i64>
}

// A print whose token nothing uses, and whose tensor the result does not
// need, still runs.
// UNUSED:      unused [4. 5.]
// UNUSED-NEXT: result 0: tensor<2xf32>
// UNUSED-NEXT: [ 8. 10.]
func.func @unused_token(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = trace.neg %x : tensor<2xf32>
  %a = trace.abs %t : tensor<2xf32>
  %p = trace.print %a {message = "unused"} : tensor<2xf32>
  %y = trace.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// A function without results prints on every call.
// NORESULTS:      {{\[\[}}1. 2.]
// NORESULTS-NEXT:  [3. 4.]]
// NORESULTS-NEXT: {{\[\[}}1. 2.]
// NORESULTS-NEXT:  [3. 4.]]
// NORESULTS-NOT: {{.}}
func.func @no_results(%x: tensor<2x2xf32>) {
  %p = trace.print %x : tensor<2x2xf32>
  return
}

// A strided view prints its own elements (the print copies it).
// SLICE: odd columns {{\[\[}}1. 3.]
// SLICE-NEXT: [4. 6.]]
func.func @of_a_slice(%x: tensor<2x3xf32>) -> tensor<f32> {
  %s = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3>, strides = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<2x2xf32>
  %p = trace.print %s {message = "odd columns"} : tensor<2x2xf32>
  %r = trace.constant dense<0.0> : tensor<f32>
  return %r : tensor<f32>
}
