// Threads ahead of time are opt-in. By default the object is serial and
// needs no OpenMP (nor anything beyond libc/libm); with --threads 2 its
// large loops are OpenMP parallel loops and the program links libomp.
// Both compute the same bits, right against a double-precision reference.
// The threaded object sets the JIT's wait policy (workers spin 1 ms, then
// sleep) in a constructor, unless the environment chose one.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry dense --class dense -o %t/serial.o --header %t/dense.h
// RUN: nm -u %t/serial.o | not grep -i -E "kmpc|omp|setenv"
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/threads-driver.c %t/serial.o -lm -o %t/serial
// RUN: ldd %t/serial | not grep -i omp
// RUN: %t/serial > %t/serial.txt
// RUN: FileCheck %s < %t/serial.txt
//
// RUN: tracec %s --entry dense --class dense --threads 2 -o %t/threads.o --header %t/dense.h
// RUN: nm -u %t/threads.o | FileCheck %s --check-prefix=NM
// RUN: clang -std=c11 -I%t %S/Inputs/threads-driver.c %t/threads.o %omp_lib -lm -o %t/threads
// RUN: %t/threads > %t/threads.txt
// RUN: FileCheck %s < %t/threads.txt
// RUN: diff %t/serial.txt %t/threads.txt
// RUN: env OMP_NUM_THREADS=1 %t/threads | diff %t/serial.txt -
// RUN: env -u KMP_BLOCKTIME -u OMP_WAIT_POLICY KMP_SETTINGS=1 %t/threads 2>&1 >/dev/null | FileCheck %s --check-prefix=POLICY
// RUN: env KMP_SETTINGS=1 KMP_BLOCKTIME=7ms %t/threads 2>&1 >/dev/null | FileCheck %s --check-prefix=USER

// CHECK: 4 calls agree
// CHECK: max error below 1e-5
// CHECK: checksum
// NM: __kmpc_fork_call
// NM: setenv
// POLICY: KMP_BLOCKTIME=1ms
// USER: KMP_BLOCKTIME=7ms
func.func @dense(%x: tensor<256x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>)
    -> (tensor<256x128xf32>, tensor<256xf32>) {
  %h = trace.matmul %x, %w : (tensor<256x64xf32>, tensor<64x128xf32>) -> tensor<256x128xf32>
  %t = trace.tanh %h : tensor<256x128xf32>
  %y = trace.add %t, %b : (tensor<256x128xf32>, tensor<128xf32>) -> tensor<256x128xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 1>} : tensor<256x128xf32> -> tensor<256xf32>
  return %y, %s : tensor<256x128xf32>, tensor<256xf32>
}
