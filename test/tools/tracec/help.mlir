// RUN: tracec --help | FileCheck %s
// RUN: tracec --help | FileCheck %s --check-prefix=NOT
// RUN: tracec --help-hidden | FileCheck %s --check-prefix=HIDDEN

// --help lists tracec's own options and LLVM's generic ones only; the
// options libLLVM and libMLIR register are behind --help-hidden.

// CHECK: OVERVIEW: tracec: compile trace functions to an object file and a C/C++ header
// CHECK: Generic Options:
// CHECK: --help
// CHECK: tracec options:
// CHECK-DAG: --entry=<name>
// CHECK-DAG: -o <file>
// CHECK-DAG: --header=<file.h>
// CHECK-DAG: --class=<Name>
// CHECK-DAG: --namespace=<ns>
// CHECK-DAG: --target-cpu=<cpu>
// CHECK-DAG: --cuda-chip=<sm_NN>
// CHECK-DAG: --emit=<value>
// NOT-NOT: --aarch64-neon-syntax
// NOT-NOT: --amdgpu-
// NOT-NOT: --x86-asm-syntax
// NOT-NOT: --mlir-print-ir-after-all
// NOT-NOT: --debugify-level

// HIDDEN-DAG: --aarch64-neon-syntax
// HIDDEN-DAG: --entry=<name>
