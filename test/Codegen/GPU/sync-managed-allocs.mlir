// RUN: tracec-opt %s --trace-gpu-sync-managed-allocs | FileCheck %s

// gpu-async-region made the managed allocations part of the stream's
// chain; they become synchronous again, and what waited on one waits on
// its dependency (one) or on a gpu.wait joining them (several). Device
// allocations stay asynchronous.
// CHECK-LABEL: func.func @allocs
// CHECK: %[[T0:.+]] = gpu.wait async
// CHECK: %[[M:.+]] = gpu.alloc  host_shared () : memref<4xf32>
// CHECK: %[[D:.+]], %[[T1:.+]] = gpu.alloc async [%[[T0]]] () : memref<4xf32>
// CHECK: %[[N:.+]] = gpu.alloc  host_shared () : memref<4xf32>
// CHECK: %[[JOIN:.+]] = gpu.wait async [%[[T0]], %[[T1]]]
// CHECK: gpu.memcpy async [%[[T0]]] %[[D]], %[[M]]
// CHECK: gpu.memcpy async [%[[JOIN]]] %[[N]], %[[D]]
// CHECK-NOT: async [{{.*}}] host_shared
func.func @allocs() {
  %t0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%t0] host_shared () : memref<4xf32>
  %d, %t2 = gpu.alloc async [%t0] () : memref<4xf32>
  %n, %t3 = gpu.alloc async [%t1, %t2] host_shared () : memref<4xf32>
  %t4 = gpu.memcpy async [%t1] %d, %m : memref<4xf32>, memref<4xf32>
  %t5 = gpu.memcpy async [%t3] %n, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%t4, %t5]
  return
}
