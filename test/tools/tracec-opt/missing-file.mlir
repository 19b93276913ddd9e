// RUN: rm -rf %t.dir
// RUN: not tracec-opt %t.dir/missing.mlir 2>&1 | FileCheck %s -DFILE=%t.dir/missing.mlir
// RUN: mkdir -p %t.dir
// RUN: not tracec-opt %t.dir 2>&1 | FileCheck %s --check-prefix=DIR -DFILE=%t.dir

// A missing input file, or a directory, is a diagnostic and exit code 1.

// CHECK: [[FILE]]: error: cannot open input file '[[FILE]]': No such file or directory
// CHECK-NOT: module
// DIR: [[FILE]]: error: cannot open input file '[[FILE]]': Is a directory
