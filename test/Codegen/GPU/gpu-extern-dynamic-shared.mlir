// RUN: tracec-opt %s --pass-pipeline="builtin.module(gpu.module(trace-gpu-extern-dynamic-shared))" | FileCheck %s

// The zero-length shared array (dynamic shared memory) becomes an
// external declaration; sized shared arrays and zero-length globals of
// other address spaces stay as they are.
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
// CHECK: llvm.mlir.global internal @empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
  llvm.mlir.global internal @empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}
