// RUN: tracec-opt %s --trace-gpu-managed-buffers -split-input-file -verify-diagnostics | FileCheck %s

// An entry point's buffers are staged in managed memory: copied in on
// entry; copied back only if written (the output, not the input); the
// function's own allocations are managed; every managed buffer is freed.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-DAG: %[[MX:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-DAG: memref.copy %[[X]], %[[MX]]
// CHECK-DAG: %[[MOUT:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-DAG: memref.copy %[[OUT]], %[[MOUT]]
// CHECK: %[[TMP:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK: linalg.copy ins(%[[MX]] : memref<4xf32>) outs(%[[TMP]] : memref<4xf32>)
// CHECK: linalg.copy ins(%[[TMP]] : memref<4xf32>) outs(%[[MOUT]] : memref<4xf32>)
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T0]]] %[[TMP]]
// CHECK-NOT: memref.copy %[[MX]], %[[X]]
// CHECK: memref.copy %[[MOUT]], %[[OUT]]
// CHECK: gpu.dealloc async
// CHECK: gpu.dealloc async
// CHECK: return
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
// CHECK-SAME: %[[X:.*]]: memref<?xf32>)
// CHECK: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf32>
// CHECK: %[[MX:.*]] = gpu.alloc host_shared (%[[N]]) : memref<?xf32>
// CHECK: memref.copy %[[X]], %[[MX]]
// CHECK: memref.dim %[[MX]]
func.func @dynamic(%x: memref<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  return %n : index
}

// -----

// A layout other than the identity cannot be staged: a diagnostic.
func.func @strided(%x: memref<4xf32, strided<[2]>>) {
  // expected-error @-1 {{cannot be copied to GPU managed memory}}
  return
}
