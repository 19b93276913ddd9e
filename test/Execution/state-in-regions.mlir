// Variables read and written inside scf.for / scf.while / scf.if, run
// through the whole CPU pipeline: the loop-carried control tokens order
// iteration i's assign before iteration i+1's read, and lowering drops them.
// RUN: tracec-run %s --entry accumulate --input v="[1, 2]" --input x="[0.5, 1]" --input n=3 | FileCheck %s --check-prefix=FOR
// RUN: tracec-run %s --entry doubling --input v="[1]" | FileCheck %s --check-prefix=WHILE
// RUN: tracec-run %s --entry conditional --input v="[1, 2]" --input flag=true | FileCheck %s --check-prefix=IF-TRUE
// RUN: tracec-run %s --entry conditional --input v="[1, 2]" --input flag=false | FileCheck %s --check-prefix=IF-FALSE
// The GPU pipeline compiles the same functions to PTX, nothing unresolved
// (numbers on a device are for the run-on-gpu tests, which need one).
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=GPU
// GPU: .target sm_80
// GPU: .visible .entry accumulate_kernel(
// GPU: .visible .entry doubling_kernel(
// GPU: .visible .entry conditional_kernel(

// v = v * 2 + x, three times, printing v at the start of each iteration:
// [1, 2] -> [2.5, 5] -> [5.5, 11] -> [11.5, 23]. The result is the sum of
// the values read in the loop plus the value read after it.
// FOR:      v [1. 2.]
// FOR-NEXT: v [2.5 5. ]
// FOR-NEXT: v [ 5.5 11. ]
// FOR-NEXT: result 0: tensor<2xf32>
// FOR-NEXT: [20.5 41. ]
func.func @accumulate(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>, %n: tensor<i64>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %zero = trace.constant dense<0.0> : tensor<2xf32>
  %two = trace.constant dense<2.0> : tensor<2xf32>
  %sum = scf.for %i = %c0 to %ni step %c1 iter_args(%acc = %zero) -> (tensor<2xf32>) {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<2xf32>>
    %p = trace.print %r {message = "v"} : tensor<2xf32>
    %d = trace.mul %r, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %w = trace.add %d, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %ca = trace.var.assign %v, %w : !trace.resource<tensor<2xf32>>
    %acc1 = trace.add %acc, %r : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    scf.yield %acc1 : tensor<2xf32>
  }
  %last, %cl = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %out = trace.add %sum, %last : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %out : tensor<2xf32>
}

// Double v while it is below 10: 1 -> 2 -> 4 -> 8 -> 16; the condition reads
// what the previous iteration's body assigned.
// WHILE:      result 0: tensor<1xf32>
// WHILE-NEXT: [16.]
func.func @doubling(%v: !trace.resource<tensor<1xf32>>) -> tensor<1xf32> {
  %limit = trace.constant dense<10.0> : tensor<1xf32>
  scf.while : () -> () {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<1xf32>>
    %lt = trace.lt %r, %limit : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
    %c0 = arith.constant 0 : index
    %b = tensor.extract %lt[%c0] : tensor<1xi1>
    scf.condition(%b)
  } do {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<1xf32>>
    %d = trace.add %r, %r : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %ca = trace.var.assign %v, %d : !trace.resource<tensor<1xf32>>
    scf.yield
  }
  %r, %c = trace.var.read %v : !trace.resource<tensor<1xf32>>
  return %r : tensor<1xf32>
}

// The read after the if sees the branch's write.
// IF-TRUE:      result 0: tensor<2xf32>
// IF-TRUE-NEXT: [2. 4.]
// IF-FALSE:      result 0: tensor<2xf32>
// IF-FALSE-NEXT: [1. 2.]
func.func @conditional(%v: !trace.resource<tensor<2xf32>>, %flag: tensor<i1>) -> tensor<2xf32> {
  %f = tensor.extract %flag[] : tensor<i1>
  scf.if %f {
    %r, %cr = trace.var.read %v : !trace.resource<tensor<2xf32>>
    %c = trace.var.assign_add %v, %r : !trace.resource<tensor<2xf32>>
  }
  %r, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  return %r : tensor<2xf32>
}
