// RUN: not tracec-opt %s 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not tracec-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not tracec-run %s --entry f 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not tracec %s --entry f -o %t.o 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: %python -c "d = 1001; print('func.func @g() attributes {a = ' + '[' * d + ']' * d + '} {\n  return\n}')" > %t.deep.mlir
// RUN: not tracec-opt %t.deep.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not tracec-run %t.deep.mlir --entry g 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: %python -c "d = 1000; print('func.func @g() attributes {a = ' + '[' * (d - 1) + ']' * (d - 1) + '} {\n  return\n}')" > %t.ok.mlir
// RUN: tracec-opt %t.ok.mlir -o /dev/null

// Input that MLIR 22's parser crashes on (docs/upstream-bugs.md) is an
// error with a location, in every tool, from a file or stdin. Comments and
// strings are not scanned: array<index: 1> here is not an attribute.

// INDEX: parser-hazards.mlir:[[# @LINE + 4]]:32: error: a dense array of 'index' elements (array<index: ...>) is not supported: MLIR's parser crashes on it; use i64
// STDIN: <stdin>:[[# @LINE + 3]]:32: error: a dense array of 'index'
// DEEP: deep.mlir:1:1031: error: input nested more than 1000 levels deep
// DEEP-NOT: Stack dump
func.func @f() attributes {a = array<index: 0, 1>, s = "array<index: 2>"} {
  return
}
