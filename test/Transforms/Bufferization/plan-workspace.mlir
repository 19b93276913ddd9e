// RUN: tracec-opt %s --trace-plan-workspace="share-bytes=true" -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-plan-workspace -split-input-file | FileCheck %s --check-prefix=OWN
// RUN: tracec-opt %s --trace-plan-workspace="share-bytes=true share-equal-sizes-only=true" -split-input-file | FileCheck %s --check-prefix=EQUAL

// Three intermediates: %a and %b are live together, %c only after %a's
// last use, so it takes %a's bytes. The largest (%a, 4096 bytes) goes
// first, at 0; %b after it; %c at 0. The function takes the global
// workspace with an atomic exchange of its busy flag (or mallocs its own if
// another call holds it) and gives it back before returning; the
// deallocs are gone.
// CHECK:       memref.global "private" @__trace_workspace_f : memref<5120xi8> = uninitialized {alignment = 64 : i64}
// CHECK:       memref.global "private" @__trace_workspace_busy_f : memref<i32> = dense<0>
// CHECK-LABEL: func.func @f
// CHECK:         %[[BUSY:.*]] = memref.get_global @__trace_workspace_busy_f
// CHECK:         %[[WAS:.*]] = memref.atomic_rmw assign %{{.*}}, %[[BUSY]][]
// CHECK:         %[[FREE:.*]] = arith.cmpi eq, %[[WAS]]
// CHECK:         %[[WS:.*]] = scf.if %[[FREE]] -> (memref<5120xi8>) {
// CHECK:           memref.get_global @__trace_workspace_f
// CHECK:         } else {
// CHECK:           memref.alloc() {alignment = 64 : i64} : memref<5120xi8>
// CHECK:         }
// CHECK:         %[[A:.*]] = memref.view %[[WS]][%c0{{.*}}][] : memref<5120xi8> to memref<32x32xf32>
// CHECK:         %[[B:.*]] = memref.view %[[WS]][%c4096{{.*}}][] : memref<5120xi8> to memref<256xf32>
// CHECK:         %[[C:.*]] = memref.view %[[WS]][%c0{{.*}}][] : memref<5120xi8> to memref<16x16xf32>
// CHECK-NOT:     memref.dealloc %[[A]]
// CHECK:         scf.if %[[FREE]] {
// CHECK:           memref.atomic_rmw assign %{{.*}}, %[[BUSY]][]
// CHECK:         } else {
// CHECK:           memref.dealloc %[[WS]]
// CHECK:         }
// CHECK-NEXT:    return
// By default each buffer has its own global (LLVM can tell them apart),
// all taken together.
// OWN-DAG:     memref.global "private" @__trace_workspace_f : memref<32x32xf32> = uninitialized {alignment = 64 : i64}
// OWN-DAG:     memref.global "private" @__trace_workspace_f_0 : memref<256xf32> = uninitialized {alignment = 64 : i64}
// OWN-DAG:     memref.global "private" @__trace_workspace_f_1 : memref<16x16xf32> = uninitialized {alignment = 64 : i64}
// OWN-LABEL:   func.func @f
// OWN:           %[[WS:.*]]:3 = scf.if %[[FREE:.*]] -> (memref<32x32xf32>, memref<256xf32>, memref<16x16xf32>) {
// OWN:             memref.get_global @__trace_workspace_f :
// OWN:           } else {
// OWN-COUNT-3:     memref.alloc()
// OWN:           }
// OWN:           memref.copy %{{.*}}, %[[WS]]#0
// OWN-NOT:       memref.view
// OWN:           scf.if %[[FREE]] {
// OWN:           } else {
// OWN-NEXT:        memref.dealloc %[[WS]]#0
// OWN-NEXT:        memref.dealloc %[[WS]]#1
// OWN-NEXT:        memref.dealloc %[[WS]]#2
// OWN:           }
// OWN-NEXT:      return
func.func @f(%x: memref<32x32xf32>, %y: memref<256xf32>, %out: memref<16x16xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
  memref.copy %x, %a : memref<32x32xf32> to memref<32x32xf32>
  memref.copy %y, %b : memref<256xf32> to memref<256xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<32x32xf32> into memref<1024xf32>
  %part = memref.subview %flat[0] [256] [1] : memref<1024xf32> to memref<256xf32, strided<[1]>>
  memref.copy %part, %b : memref<256xf32, strided<[1]>> to memref<256xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  %bb = memref.expand_shape %b [[0, 1]] output_shape [16, 16] : memref<256xf32> into memref<16x16xf32>
  memref.copy %bb, %c : memref<16x16xf32> to memref<16x16xf32>
  memref.copy %c, %out : memref<16x16xf32> to memref<16x16xf32>
  memref.dealloc %a : memref<32x32xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<16x16xf32>
  return
}

// -----

// Left as they are: a dynamic size, a buffer carried by a loop, one that a
// call receives, one freed in a nested region. No workspace is made.
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: memref.alloc
// CHECK-NOT:   memref.view
func.func private @use(memref<8xf32>)
func.func @kept(%n: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  %l = memref.alloc() : memref<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %l) -> (memref<8xf32>) {
    scf.yield %it : memref<8xf32>
  }
  memref.dealloc %l : memref<8xf32>
  %k = memref.alloc() : memref<8xf32>
  func.call @use(%k) : (memref<8xf32>) -> ()
  memref.dealloc %k : memref<8xf32>
  %s = memref.alloc() : memref<8xf32>
  scf.if %cond {
    memref.dealloc %s : memref<8xf32>
  }
  return
}

// -----

// A call of a function that only borrows its arguments (a kernel of
// trace-cpu-dedup-kernels) keeps the buffer the caller's: it moves into
// the workspace like any other.
// OWN:       memref.global "private" @__trace_workspace_borrowed : memref<8xf32>
// CHECK-LABEL: func.func @borrowed
// CHECK:         memref.view
// CHECK:         call @kernel
// OWN-LABEL: func.func @borrowed
// OWN:         %[[K:.*]] = scf.if
// OWN:           memref.get_global @__trace_workspace_borrowed
// OWN:         call @kernel(%[[K]])
func.func private @kernel(memref<8xf32>) attributes {trace.borrows_arguments}
func.func @borrowed() {
  %k = memref.alloc() : memref<8xf32>
  func.call @kernel(%k) : (memref<8xf32>) -> ()
  memref.dealloc %k : memref<8xf32>
  return
}

// -----

// Buffers allocated in a loop body stay there: each iteration allocates.
// CHECK-LABEL: func.func @in_loop
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloc
// CHECK-NOT:     memref.view
func.func @in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<8xf32>
    memref.dealloc %t : memref<8xf32>
  }
  return
}

// -----

// %a, %c and %d are never live together. Sharing freely, all three take
// the same bytes. With share-equal-sizes-only (what the pipeline sets for
// threads other than 1) only %d, of %a's size, takes %a's bytes: two
// buffers of different sizes are split between the threads at different
// bytes, so sharing would make a core write lines the other core's cache
// holds (docs/design/parallel-runtime.md).
// CHECK-LABEL: func.func @sizes
// CHECK-COUNT-3: memref.view %{{.*}}[%c0{{.*}}][]
// EQUAL:       memref.global "private" @__trace_workspace_sizes : memref<5120xi8>
// EQUAL-LABEL: func.func @sizes
// EQUAL:         memref.view %{{.*}}[%c0{{.*}}][] : memref<5120xi8> to memref<32x32xf32>
// EQUAL:         memref.view %{{.*}}[%c4096{{.*}}][] : memref<5120xi8> to memref<16x16xf32>
// EQUAL:         memref.view %{{.*}}[%c0{{.*}}][] : memref<5120xi8> to memref<1024xf32>
func.func @sizes(%x: memref<32x32xf32>, %y: memref<16x16xf32>, %z: memref<1024xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
  memref.copy %x, %a : memref<32x32xf32> to memref<32x32xf32>
  memref.copy %a, %x : memref<32x32xf32> to memref<32x32xf32>
  memref.dealloc %a : memref<32x32xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  memref.copy %y, %c : memref<16x16xf32> to memref<16x16xf32>
  memref.copy %c, %y : memref<16x16xf32> to memref<16x16xf32>
  memref.dealloc %c : memref<16x16xf32>
  %d = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  memref.copy %z, %d : memref<1024xf32> to memref<1024xf32>
  memref.copy %d, %z : memref<1024xf32> to memref<1024xf32>
  memref.dealloc %d : memref<1024xf32>
  return
}
