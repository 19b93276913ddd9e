// With threads, large linalg ops become OpenMP parallel loops (one region
// per op, forked once, its first parallel dimension split across threads);
// small ones stay serial. threads=1, the default, emits no OpenMP at all.
// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=2 adaptive-parallel=0" | FileCheck %s
// Each region's fork is decided by measurement (trace-cpu-adaptive-parallel,
// test/Codegen/CPU/adaptive-parallel.mlir):
// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=2" | FileCheck %s --check-prefix=ADAPTIVE
// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=0" | FileCheck %s --check-prefix=DEFAULT
// RUN: tracec-opt %s --tracec-cpu-pipeline | FileCheck %s --check-prefix=SERIAL --implicit-check-not=omp.
// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=2 parallel-min-work=1000000000" | FileCheck %s --check-prefix=SERIAL --implicit-check-not=omp.

// CHECK-LABEL: llvm.func @large
// CHECK:         %[[N:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest (%{{.*}}) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK:         omp.parallel num_threads
// CHECK-LABEL: llvm.func @small
// CHECK-NOT:     omp.
// CHECK:         llvm.return

// ADAPTIVE-LABEL: llvm.func @large
// ADAPTIVE:         %[[T:.*]] = llvm.call @__tracec_call_begin(
// ADAPTIVE:         %[[FORK:.*]] = llvm.call @__tracec_parallel_fork() : () -> i1
// ADAPTIVE:         llvm.call @{{.*}}(%[[FORK]]
// ADAPTIVE:         llvm.call @__tracec_call_end(%{{.*}}, %[[T]])
// ADAPTIVE:         omp.parallel if(%{{.*}}) num_threads(

// DEFAULT-LABEL: llvm.func @large
// DEFAULT:         omp.parallel if(%{{.*}}) {
// DEFAULT-NOT:     num_threads

// SERIAL-LABEL: llvm.func @large
// SERIAL-LABEL: llvm.func @small
func.func @large(%x: tensor<256x256xf32>, %w: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %y = trace.matmul %x, %w : (tensor<256x256xf32>, tensor<256x512xf32>) -> tensor<256x512xf32>
  %r = trace.relu %y : tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
func.func @small(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = trace.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
