// The buffers of run-time size that an entry allocates are reused across
// calls: the object's malloc/free calls go to tracec_aot_alloc/free, a
// cache compiled into it (internal symbols: the object still needs only
// libc), freed by a destructor at exit. The driver counts the object's
// mallocs of 4 KiB and more (-Wl,--wrap=malloc): after the first round of
// batch sizes, none. Results stay right at every size, also when threads
// call at once, and valgrind finds nothing left allocated at exit.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry hidden --entry doubled --class Cache -o %t/model.o --header %t/model.h
// RUN: tracec %s --entry hidden --entry doubled --class Cache --emit=mlir -o %t/model.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/model.mlir
// RUN: nm %t/model.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: tracec %s --entry doubled --emit=mlir -o %t/static.mlir
// RUN: FileCheck %s --check-prefix=STATIC < %t/static.mlir
// RUN: clang -std=c11 -Wall -Wextra -Werror -pthread -I%t %S/Inputs/buffer-cache-driver.c %t/model.o -lm -Wl,--wrap=malloc -o %t/driver
// RUN: %t/driver | FileCheck %s --check-prefix=RUNS
// Valgrind runs code for a CPU without AVX-512.
// RUN: tracec %s --entry hidden --entry doubled --class Cache --target-cpu=x86-64-v3 -o %t/portable.o
// RUN: clang -std=c11 -pthread -I%t %S/Inputs/buffer-cache-driver.c %t/portable.o -lm -Wl,--wrap=malloc -o %t/portable-driver
// RUN: %if !sanitizer %{ valgrind --quiet --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 %t/portable-driver 3 2>&1 | FileCheck %s --check-prefix=RUNS %}
// A function of the model may not take a name of the cache.
// RUN: not tracec %S/Inputs/buffer-cache-clash.mlir --entry tracec_aot_alloc -o %t/clash.o 2>&1 | FileCheck %s --check-prefix=CLASH
// RUN: not ls %t/clash.o

// CLASH: buffer-cache-clash.mlir:3:1: error: @tracec_aot_alloc is a name that the AOT object's buffer cache defines

// IR-NOT: llvm.call @{{(malloc|free)}}(
// IR: llvm.call @tracec_aot_alloc(
// IR-NOT: llvm.call @{{(malloc|free)}}(
// IR: llvm.call @tracec_aot_free(
// IR-NOT: llvm.call @{{(malloc|free)}}(
// IR: llvm.func internal @__tracec_aot_new(%{{.*}}: i64) -> !llvm.ptr
// IR: llvm.call @malloc(
// IR: llvm.func internal @tracec_aot_alloc(%{{.*}}: i64) -> (!llvm.ptr {llvm.noalias})
// IR: llvm.func internal @tracec_aot_free(%{{.*}}: !llvm.ptr)
// IR: llvm.call @free(
// IR: llvm.mlir.global_dtors dtors = [@__tracec_aot_cache_release]

// Only the C functions are exported; the object needs libc's malloc/free.
// SYMBOLS-DAG: T cache_doubled
// SYMBOLS-DAG: T cache_hidden
// SYMBOLS-DAG: T cache_hidden_shape
// SYMBOLS-DAG: t tracec_aot_alloc
// SYMBOLS-DAG: t tracec_aot_free
// SYMBOLS-DAG: U free
// SYMBOLS-DAG: U malloc

// An object that allocates nothing gets no allocator.
// STATIC-NOT: tracec_aot
// STATIC-NOT: malloc
// STATIC: llvm.func @dynamic_buffer_cache_doubled(

// RUNS: first round: {{[1-9][0-9]*}} mallocs of 4 KiB or more
// RUNS-NEXT: {{20|2}} more rounds: 0 mallocs of 4 KiB or more
// RUNS-NEXT: results at 256, 7, 256, 1, 64, 300: ok
// RUNS-NEXT: 4 threads: ok
// RUNS-NOT: {{.}}

// y = tanh(x @ w1) @ w2: the ?x64 intermediate is 64 KiB at batch 256.
func.func @hidden(%x: tensor<?x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x8xf32>)
    -> (tensor<?x8xf32> {trace.name = "y"}) {
  %h = trace.matmul %x, %w1 : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %a = trace.tanh %h : tensor<?x64xf32>
  %y = trace.matmul %a, %w2 : (tensor<?x64xf32>, tensor<64x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

func.func @doubled(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
