// RUN: tracec-opt %s --trace-gpu-managed-buffers -split-input-file -verify-diagnostics | FileCheck %s

// An entry point's buffers are staged in managed memory unless they are
// managed memory already (tracec_cuda_is_managed: a GPU function's result,
// device_put), which the function then uses in place: copied in on entry
// only if their contents may be used (the input, not the output, which a
// linalg.copy writes whole), copied back only if written (the output, not
// the input); the function's own allocations are managed; every managed
// buffer it made is freed.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: %[[XI:.*]] = arith.index_cast %[[XP]] : index to i64
// CHECK: %[[XF:.*]] = call @tracec_cuda_is_managed(%[[XI]]) : (i64) -> i32
// CHECK: %[[XM:.*]] = arith.cmpi ne, %[[XF]]
// CHECK: %[[MX:.*]] = scf.if %[[XM]] -> (memref<4xf32>) {
// CHECK-NEXT: scf.yield %[[X]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[TX:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-NEXT: memref.copy %[[X]], %[[TX]]
// CHECK-NEXT: scf.yield %[[TX]]
// CHECK: %[[OM:.*]] = arith.cmpi ne
// CHECK: %[[MOUT:.*]] = scf.if %[[OM]] -> (memref<4xf32>) {
// CHECK-NEXT: scf.yield %[[OUT]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[TOUT:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-NEXT: scf.yield %[[TOUT]]
// CHECK: %[[TMP:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK: linalg.copy ins(%[[MX]] : memref<4xf32>) outs(%[[TMP]] : memref<4xf32>)
// CHECK: linalg.copy ins(%[[TMP]] : memref<4xf32>) outs(%[[MOUT]] : memref<4xf32>)
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T0]]] %[[TMP]]
// CHECK: %[[OSTAGED:.*]] = arith.xori %[[OM]]
// CHECK: scf.if %[[OSTAGED]] {
// CHECK-NEXT: memref.copy %[[MOUT]], %[[OUT]]
// CHECK: gpu.dealloc async
// CHECK: %[[XSTAGED:.*]] = arith.xori %[[XM]]
// CHECK: scf.if %[[XSTAGED]] {
// CHECK-NOT: memref.copy
// CHECK: gpu.dealloc async
// CHECK: return
// CHECK: func.func private @tracec_cuda_is_managed(i64) -> i32
func.func @scale(%x: memref<4xf32>, %out: memref<4xf32>) {
  %tmp = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%tmp : memref<4xf32>)
  linalg.copy ins(%tmp : memref<4xf32>) outs(%out : memref<4xf32>)
  memref.dealloc %tmp : memref<4xf32>
  return
}

// -----

// Constants are host globals: staged where they are read. A private
// function's arguments come from its callers, already managed.
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %[[A:.*]]: memref<2xf32>)
// CHECK: %[[G:.*]] = memref.get_global @c
// CHECK: %[[MG:.*]] = gpu.alloc host_shared () : memref<2xf32>
// CHECK: memref.copy %[[G]], %[[MG]]
// CHECK: linalg.copy ins(%[[MG]] : memref<2xf32>) outs(%[[A]] : memref<2xf32>)
// CHECK: gpu.dealloc async
// CHECK-NOT: memref.copy
// CHECK: return
func.func private @helper(%a: memref<2xf32>) {
  %g = memref.get_global @c : memref<2xf32>
  linalg.copy ins(%g : memref<2xf32>) outs(%a : memref<2xf32>)
  return
}

// -----

// Dynamic sizes are read from the caller's buffer, before the copy.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %{{.*}}: memref<?xf32>)
// CHECK: %[[MX:.*]] = scf.if
// CHECK: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf32>
// CHECK: %[[TX:.*]] = gpu.alloc host_shared (%[[N]]) : memref<?xf32>
// CHECK: memref.copy %[[X]], %[[TX]]
// CHECK: memref.dim %[[MX]]
// CHECK: memref.load %[[MX]]
func.func @dynamic(%x: memref<?xf32>, %y: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  linalg.copy ins(%x : memref<?xf32>) outs(%y : memref<?xf32>)
  %n = memref.dim %x, %c0 : memref<?xf32>
  %last = arith.subi %n, %c0 : index
  %v = memref.load %x[%last] : memref<?xf32>
  return %v : f32
}

// -----

// A function that can run no kernel (no linalg op, no call), such as a
// shape function, is host code: its buffers stay the caller's, its
// allocations host memory, and it calls no CUDA.
// CHECK-LABEL: func.func @__shape_f(
// CHECK-SAME: %[[X:.*]]: memref<?x4xf32>, %[[OUT:.*]]: memref<4xi64>)
// CHECK-NOT: gpu.
// CHECK: memref.dim %[[X]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT: gpu.
// CHECK: return
func.func @__shape_f(%x: memref<?x4xf32>, %out: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %x, %c0 : memref<?x4xf32>
  %n64 = arith.index_cast %n : index to i64
  memref.store %n64, %out[%c3] : memref<4xi64>
  return
}

// -----

// A mutable global used only by host code (a random op's run counter,
// advanced atomically) stays in place; one a linalg op writes is staged
// and written back.
memref.global "private" @counter : memref<i64> = dense<0>
memref.global "private" @table : memref<2xf32> = dense<0.0>
// CHECK-LABEL: func.func @globals(
// CHECK: %[[COUNTER:.*]] = memref.get_global @counter
// CHECK-NEXT: memref.atomic_rmw addi %{{.*}}, %[[COUNTER]][]
// CHECK: %[[TABLE:.*]] = memref.get_global @table
// CHECK-NEXT: %[[MT:.*]] = gpu.alloc host_shared () : memref<2xf32>
// CHECK-NEXT: memref.copy %[[TABLE]], %[[MT]]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[MT]] : memref<2xf32>)
// CHECK: memref.copy %[[MT]], %[[TABLE]]
func.func @globals() -> i64 {
  %one = arith.constant 1 : i64
  %c = memref.get_global @counter : memref<i64>
  %n = memref.atomic_rmw addi %one, %c[] : (i64, memref<i64>) -> i64
  %t = memref.get_global @table : memref<2xf32>
  %v = arith.constant 1.0 : f32
  linalg.fill ins(%v : f32) outs(%t : memref<2xf32>)
  return %n : i64
}

// -----

// A layout other than the identity cannot be staged: a diagnostic.
func.func @strided(%x: memref<4xf32, strided<[2]>>) {
  // expected-error @-1 {{cannot be copied to GPU managed memory}}
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%x : memref<4xf32, strided<[2]>>)
  return
}

// -----

// An output that is also read (a matmul accumulates into it) is copied in;
// so is a buffer that flows into a region as an operand, whatever happens
// to it there.
// CHECK-LABEL: func.func @read_write(
// CHECK-SAME: %[[A:.*]]: memref<2x2xf32>, %[[C:.*]]: memref<2x2xf32>, %[[L:.*]]: memref<2xf32>)
// CHECK: memref.copy %[[A]]
// CHECK: memref.copy %[[C]]
// CHECK: memref.copy %[[L]]
// CHECK: linalg.matmul
// CHECK: scf.for
// CHECK-NOT: memref.copy %{{.*}}, %[[A]]
// CHECK-DAG: memref.copy %{{.*}}, %[[C]]
// CHECK-DAG: memref.copy %{{.*}}, %[[L]]
func.func @read_write(%a: memref<2x2xf32>, %c: memref<2x2xf32>, %l: memref<2xf32>) {
  linalg.matmul ins(%a, %a : memref<2x2xf32>, memref<2x2xf32>) outs(%c : memref<2x2xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%b = %l) -> (memref<2xf32>) {
    scf.yield %b : memref<2xf32>
  }
  return
}

// -----

// Outputs the function writes whole before it reads them back (an exp the
// reduction then reads, a fill the reduction accumulates into) are not
// copied in: their contents on entry are never read. One written only in
// part (a view of it) is, and so is one whose first writer reads it, as
// its init or as its input (an exp in place).
// CHECK-LABEL: func.func @written_whole_first(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[E:.*]]: memref<4x8xf32>, %[[S:.*]]: memref<4xf32>, %[[P:.*]]: memref<4x8xf32>, %[[A:.*]]: memref<4xf32>, %[[V:.*]]: memref<4xf32>)
// CHECK-DAG: memref.copy %[[X]],
// CHECK-DAG: memref.copy %[[P]],
// CHECK-DAG: memref.copy %[[A]],
// CHECK-DAG: memref.copy %[[V]],
// CHECK-NOT: memref.copy %[[E]],
// CHECK-NOT: memref.copy %[[S]],
// CHECK: linalg.generic
// CHECK-DAG: memref.copy %{{.*}}, %[[E]]
// CHECK-DAG: memref.copy %{{.*}}, %[[S]]
// CHECK-DAG: memref.copy %{{.*}}, %[[P]]
// CHECK-DAG: memref.copy %{{.*}}, %[[A]]
// CHECK-DAG: memref.copy %{{.*}}, %[[V]]
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0) -> (d0)>
func.func @written_whole_first(%x: memref<4x8xf32>, %e: memref<4x8xf32>, %s: memref<4xf32>,
                               %p: memref<4x8xf32>, %a: memref<4xf32>, %v: memref<4xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%e : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.reduce ins(%e : memref<4x8xf32>) outs(%s : memref<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  %half = memref.subview %p[0, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1]>>
  linalg.fill ins(%zero : f32) outs(%half : memref<2x8xf32, strided<[8, 1]>>)
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel"]}
      ins(%s : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel"]}
      ins(%v : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  }
  return
}
