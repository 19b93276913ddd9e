// RUN: not tracec-opt %S/Inputs/empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tracec-opt %S/Inputs/blank.mlir 2>&1 | FileCheck %s --check-prefix=BLANK
// RUN: not tracec-opt %S/Inputs/empty.mlir -split-input-file 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tracec-opt %S/Inputs/empty.mlir -verify-diagnostics 2>&1 | FileCheck %s --check-prefix=EMPTY

// An empty (or whitespace-only) input file is an error, not an empty
// module: it is almost always a failed redirect or a wrong path.

// EMPTY: Inputs/empty.mlir:1:1: error: empty input: expected an MLIR module
// EMPTY-NOT: module
// BLANK: Inputs/blank.mlir:1:1: error: empty input: expected an MLIR module
// BLANK-NOT: module
