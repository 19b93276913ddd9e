// RUN: tracec-opt --help | FileCheck %s
// RUN: tracec-opt --show-dialects | FileCheck %s --check-prefix=SHOW

// --help and --show-dialects list the trace dialect next to the upstream
// ones, and the usual mlir-opt options.

// CHECK: OVERVIEW: tracec optimizer driver
// CHECK: Available Dialects: {{.*}}func{{.*}}, trace,
// CHECK: USAGE: tracec-opt [options] <input file>
// CHECK-DAG: --pass-pipeline
// CHECK-DAG: --split-input-file
// CHECK-DAG: --verify-diagnostics
// CHECK-DAG: --mlir-print-ir-after-all
// CHECK-DAG: --canonicalize
// CHECK-DAG: --cse

// SHOW: Available Dialects: {{.*}},trace,
