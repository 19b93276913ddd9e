// RUN: tracec-opt %s --trace-lower-state=overlap-collectives | FileCheck %s
// RUN: tracec-opt %s --trace-lower-state | FileCheck %s --check-prefix=BLOCKING
// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=1 overlap-collectives=true" | FileCheck %s --check-prefix=LLVM

// With overlap-collectives, an all-reduce whose result the next op does
// not use starts after its guard's check (tracec_collective_start:
// MPI_Iallreduce from the operand's buffer into a new one) and is waited
// for right before the first op that uses its result (the ops between run
// while it communicates); the wait takes both buffers again, which keeps
// them live until then; the last argument is the communicator, 0 for the
// world (the start's pointers are taken in a no_inline
// region, so CSE cannot fold the wait's into them). `mean` divides after
// the wait.
// CHECK-DAG: func.func private @tracec_collective_start(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, i32, i64) -> !llvm.ptr
// CHECK-DAG: func.func private @tracec_collective_wait(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @overlapped
// CHECK: call @tracec_collective_check
// CHECK: %[[SEND:.+]] = bufferization.to_buffer %arg0 read_only
// CHECK: %[[RECV:.+]] = memref.alloc() : memref<4x3xf32>
// CHECK: %[[REQUEST:.+]] = scf.execute_region -> !llvm.ptr no_inline {
// CHECK: memref.extract_aligned_pointer_as_index %[[SEND]]
// CHECK: memref.extract_aligned_pointer_as_index %[[RECV]]
// CHECK: %[[STARTED:.+]] = func.call @tracec_collective_start(%[[WHERE:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}, %c12_i64, %c2_i32, %c0_i32{{.*}}, %c0_i64{{.*}})
// CHECK: scf.yield %[[STARTED]]
// CHECK: call @tracec_collective_end()
// CHECK: %[[BUSY:.+]] = trace.mul %arg1, %arg1
// CHECK: memref.extract_aligned_pointer_as_index %[[SEND]]
// CHECK: memref.extract_aligned_pointer_as_index %[[RECV]]
// CHECK: call @tracec_collective_wait(%[[WHERE]], %[[REQUEST]],
// CHECK: %[[SUM:.+]] = bufferization.to_tensor %[[RECV]] restrict writable
// CHECK: %[[MEAN:.+]] = trace.div %[[SUM]]
// CHECK: trace.add %[[MEAN]], %[[BUSY]]
// CHECK-NOT: mpi.allreduce({{.+}}MPI_SUM
// BLOCKING-LABEL: func.func @overlapped
// BLOCKING-NOT: tracec_collective_start
// BLOCKING: mpi.allreduce({{.+}}, MPI_SUM,
// LLVM: llvm.call @tracec_collective_start
// LLVM: llvm.call @tracec_collective_wait
func.func @overlapped(%x: tensor<4x3xf32>, %y: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r, %c = trace.all_reduce %x {reduction = "mean"} : tensor<4x3xf32>
  %busy = trace.mul %y, %y : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %out = trace.add %r, %busy : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %out : tensor<4x3xf32>
}

// The next op uses the result: nothing to overlap, the all-reduce blocks.
// CHECK-LABEL: func.func @used_next
// CHECK-NOT: tracec_collective_start
// CHECK: mpi.allreduce({{.+}}, MPI_MAX,
// CHECK: mpi.allreduce({{.+}}, MPI_MAX,
func.func @used_next(%x: tensor<4xf64>) -> tensor<4xf64> {
  %r, %c = trace.all_reduce %x {reduction = "max"} : tensor<4xf64>
  %out = trace.add %r, %r : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %out : tensor<4xf64>
}

// MPI reads the operand's buffer until the wait: the wait comes before
// the first later op that uses the operand, or a view of it taken before
// (which could update the buffer in place), not only the result. f64 sum:
// element TRACEC_DTYPE_F64 (3), reduction 0.
// CHECK-LABEL: func.func @operand_used_later
// CHECK: %[[VIEW:.+]] = tensor.extract_slice %arg0
// CHECK: call @tracec_collective_start({{.+}}, %c4_i64, %c3_i32, %c0_i32, %c0_i64{{.*}})
// CHECK: trace.mul %arg1, %arg1
// CHECK: call @tracec_collective_wait
// CHECK: trace.neg %[[VIEW]]
func.func @operand_used_later(%x: tensor<4xf64>, %y: tensor<4xf64>)
    -> (tensor<4xf64>, tensor<4xf64>, tensor<2xf64>) {
  %view = tensor.extract_slice %x[0] [2] [1] : tensor<4xf64> to tensor<2xf64>
  %r, %c = trace.all_reduce %x : tensor<4xf64>
  %busy = trace.mul %y, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %neg = trace.neg %view : tensor<2xf64>
  return %r, %busy, %neg : tensor<4xf64>, tensor<4xf64>, tensor<2xf64>
}

// In a loop body: the wait stays in the iteration (before the first use
// of the result, at the latest before the yield).
// CHECK-LABEL: func.func @in_a_loop
// CHECK: scf.for
// CHECK: call @tracec_collective_start
// CHECK: trace.mul
// CHECK: call @tracec_collective_wait
// CHECK: trace.add
// CHECK: scf.yield
func.func @in_a_loop(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %r, %c = trace.all_reduce %acc : tensor<4xf32>
    %busy = trace.mul %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %next = trace.add %r, %busy : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  return %out : tensor<4xf32>
}
