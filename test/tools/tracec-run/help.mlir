// RUN: tracec-run --help | FileCheck %s
// RUN: tracec-run --help | FileCheck %s --check-prefix=NOT
// RUN: tracec-run --help-hidden | FileCheck %s --check-prefix=HIDDEN

// --help lists tracec-run's own options and LLVM's generic ones only; the
// options libLLVM and libMLIR register are behind --help-hidden.

// CHECK: OVERVIEW: tracec-run: compile and run a trace function
// CHECK: Generic Options:
// CHECK: --help
// CHECK: tracec-run options:
// CHECK-DAG: --entry=<name>
// CHECK-DAG: --input=<name=value>
// CHECK-DAG: --output-dir=<dir>
// CHECK-DAG: --target=<value>
// CHECK-DAG: --chip=<sm_NN>
// CHECK-DAG: --repeat=<n>
// NOT-NOT: --aarch64-neon-syntax
// NOT-NOT: --amdgpu-
// NOT-NOT: --x86-asm-syntax
// NOT-NOT: --mlir-print-ir-after-all
// NOT-NOT: --debugify-level

// HIDDEN-DAG: --aarch64-neon-syntax
// HIDDEN-DAG: --entry=<name>
