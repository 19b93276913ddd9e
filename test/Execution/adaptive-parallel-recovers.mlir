// A decision taken from samples that a burst on the host slowed is undone
// (trace-cpu-adaptive-parallel): every 32nd call past the samples (every
// 128th where the other way lost by more than 30%) runs the other way and
// is timed like every call, so the fast way wins from then on. The driver
// simulates the region's work: one way takes 0.1 ms, the other 40 ms, and
// the first sample of the fast way takes 100 ms.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec-opt %s --trace-cpu-adaptive-parallel --convert-to-llvm --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir -o %t/entry.ll
// RUN: clang -std=c11 -Wall -Wextra -Werror -Wno-override-module -O1 %t/entry.ll %S/Inputs/adaptive-parallel-driver.c %omp_lib -o %t/driver
// RUN: %t/driver parallel-burst | FileCheck %s --check-prefix=PARALLEL-BURST
// RUN: %t/driver serial-burst | FileCheck %s --check-prefix=SERIAL-BURST

// Call 0 forks untimed, 1 and 2 are the parallel and serial samples; the
// burst makes call 3 stop sampling early, the wrong way; call 16 explores
// the other way, which decides from call 17 on. The slow way lost by far
// more than 30%, so the next call to explore it is 144, not 48.
// PARALLEL-BURST: {{^}}PPSSSSSSSSSSSSSS{{(P{128})}}S{{P{15}$}}
// SERIAL-BURST:   {{^}}PPSPPPPPPPPPPPPP{{(S{128})}}P{{S{15}$}}

llvm.func @simulated_work(i32, i32)
llvm.func @omp_get_num_threads() -> i32
llvm.func @omp_get_thread_num() -> i32

func.func @entry() {
  %threads = llvm.mlir.constant(2 : i32) : i32
  omp.parallel num_threads(%threads : i32) {
    %n = llvm.call @omp_get_num_threads() : () -> i32
    %t = llvm.call @omp_get_thread_num() : () -> i32
    llvm.call @simulated_work(%n, %t) : (i32, i32) -> ()
    omp.terminator
  }
  return
}
