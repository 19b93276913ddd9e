// Bad input: one clear error with a location where there is one, exit 1,
// and no output file left behind.

// RUN: not tracec %s --entry nope -o %t.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: errors.mlir:1:1: error: no public function @nope to export (the module has @dynamic, @scale, @counter, @counter_wide, @constant_loss, @unconnected)

// RUN: not tracec %s --entry hidden -o %t.o 2>&1 | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: error: no public function @hidden to export

// RUN: not tracec %s --entry dynamic -o %t.o 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: errors.mlir:[[@LINE+33]]:1: error: entry @dynamic: argument 1 is a variable of type !trace.resource<tensor<?x4xf32>> with dynamic dims; a variable's shape must be static

// RUN: not tracec %s --entry scale --entry scale -o %t.o 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: entry @scale is given twice

// RUN: rm -f %t.var.o %t.var.h
// RUN: not tracec %s --entry counter --entry counter_wide -o %t.var.o --header %t.var.h 2>&1 | FileCheck %s --check-prefix=VARIABLE
// RUN: not ls %t.var.o
// RUN: not ls %t.var.h
// VARIABLE: error: variable 'v' is tensor<8xf32> in @counter_wide but tensor<4xf32> in @counter (arguments with the same name are the same variable)

// RUN: not tracec %s --entry scale -o %t.missing/dir/out.o 2>&1 | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: tracec: error: cannot write '{{.*}}missing/dir/out.o': No such file or directory

// RUN: not tracec %s --entry scale -o %t.o --header %t.missing/dir/out.h 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: tracec: error: cannot write '{{.*}}missing/dir/out.h': No such file or directory

// RUN: not tracec %s --entry scale -o %t.o --target-cpu=pentium9 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: tracec: error: --target-cpu: unknown CPU 'pentium9' for x86_64

// RUN: not tracec %s --entry scale -o %t.o --class 9lives 2>&1 | FileCheck %s --check-prefix=CLASS
// CLASS: tracec: error: --class '9lives' is not a C++ identifier (or is a keyword)
// RUN: not tracec %s --entry scale -o %t.o --class int 2>&1 | FileCheck %s --check-prefix=KEYWORD
// KEYWORD: tracec: error: --class 'int' is not a C++ identifier (or is a keyword)

// Nothing but names reaches the header (a namespace was pasted verbatim).
// RUN: not tracec %s --entry scale -o %t.o --namespace 'x { } int evil() { return 1; } namespace y' 2>&1 | FileCheck %s --check-prefix=NAMESPACE
// NAMESPACE: tracec: error: --namespace 'x { } int evil() { return 1; } namespace y' is not a C++ namespace name (identifiers separated by '::', none a keyword)
// RUN: not tracec %s --entry scale -o %t.o --namespace 'a::' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tracec: error: --namespace 'a::' is not a C++ namespace name
// RUN: not tracec %s --entry scale -o %t.o --namespace 'a::class' 2>&1 | FileCheck %s --check-prefix=NSKEYWORD
// NSKEYWORD: tracec: error: --namespace 'a::class' is not a C++ namespace name

func.func @dynamic(%x: tensor<?x4xf32>, %v: !trace.resource<tensor<?x4xf32>>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func private @hidden(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @counter(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return
}

func.func @counter_wide(%v: !trace.resource<tensor<8xf32>>, %x: tensor<8xf32>) {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<8xf32>>
  return
}

// Only the entries are compiled: @unconnected, whose gradient the pipeline
// refuses, does not stop @scale.
// RUN: not tracec %s --entry unconnected -o %t.o 2>&1 | FileCheck %s --check-prefix=UNCONNECTED
// RUN: tracec %s --entry scale -o %t.o
// UNCONNECTED: error:
func.func @constant_loss(%x: tensor<4xf32>) -> tensor<f32> {
  %c = trace.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @unconnected(%x: tensor<4xf32>) -> tensor<4xf32> {
  %g = trace.grad @constant_loss(%x) {wrt = array<i64: 0>, unconnected = #trace.unconnected<error>} : (tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// RUN: not tracec %S/Inputs/bad-syntax.mlir --entry f -o %t.o 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: bad-syntax.mlir:3:27: error: expected '>' in tensor type

// RUN: not tracec %S/Inputs/no-such-file.mlir --entry f -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tracec: error: cannot read '{{.*}}no-such-file.mlir': No such file or directory

// RUN: not tracec %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: must be specified at least once
