// RUN: tracec-opt %s --trace-lower-state | FileCheck %s
// RUN: tracec-opt %s --tracec-cpu-pipeline="threads=1" | FileCheck %s --check-prefix=LLVM
// RUN: tracec-opt %s --trace-lower-state | FileCheck %s --check-prefix=GLOBALS

// Collectives in the same groups share one table of them: three sets of
// groups below, in five ops.
// GLOBALS-COUNT-3: memref.global "private" constant @__trace_collective_groups
// GLOBALS-NOT: memref.global "private" constant @__trace_collective_groups

// all_reduce becomes mpi.allreduce from the operand's buffer into a new
// buffer (as 1-D views: upstream counts only dim 0 of a buffer), guarded:
// tracec_collective_begin (the watchdog's wait), the MPI_MAX of
// {signature, -signature, rank + 1} checked by tracec_collective_check
// (the processes must agree on the collective), then after it
// tracec_collective_end. mean divides the sum by the world's size (the
// check's largest rank + 1);
// broadcast sums the root's operand and every other process's -0.0s;
// all_gather sums tensors that hold each process's operand in its slice;
// reduce_scatter keeps this process's slice of the all-reduce. The module
// is marked as calling OpenMPI, whose ABI the LLVM lowering uses (with the
// reduction's symbol misnamed upstream: CpuTarget.cpp renames it to
// ompi_mpi_op_sum in LLVM IR).
// CHECK: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">}
// CHECK-DAG: func.func private @tracec_collective_begin(!llvm.ptr)
// CHECK-DAG: func.func private @tracec_collective_check(!llvm.ptr, i64, !llvm.ptr, i64, i64)
// CHECK-DAG: func.func private @tracec_collective_end()
// CHECK-LABEL: func.func @mean
// CHECK: memref.get_global @__trace_collective_where
// CHECK: %[[WHERE:.+]] = llvm.inttoptr
// CHECK: call @tracec_collective_begin(%[[WHERE]])
// CHECK: %[[MINE:.+]] = memref.alloca() : memref<3xi64>
// CHECK: mpi.comm_rank
// CHECK: %[[AGREED:.+]] = memref.alloca() : memref<3xi64>
// CHECK: mpi.allreduce(%[[MINE]], %[[AGREED]], MPI_MAX,
// CHECK: call @tracec_collective_check(%[[WHERE]], %{{.+}}, %{{.+}}, %c0_i64, %c-1_i64)
// CHECK: %[[COMM:.+]] = mpi.comm_world : !mpi.comm
// CHECK: %[[SENDBUF:.+]] = bufferization.to_buffer %arg0 read_only
// CHECK: %[[RECV:.+]] = memref.alloc() : memref<4x3xf32>
// CHECK: %[[SEND1D:.+]] = memref.collapse_shape %[[SENDBUF]] {{\[\[}}0, 1]] : memref<4x3xf32> into memref<12xf32>
// CHECK: %[[RECV1D:.+]] = memref.collapse_shape %[[RECV]] {{\[\[}}0, 1]]
// CHECK: mpi.allreduce(%[[SEND1D]], %[[RECV1D]], MPI_SUM, %[[COMM]])
// CHECK: %[[SUM:.+]] = bufferization.to_tensor %[[RECV]] restrict writable
// CHECK: call @tracec_collective_end()
// CHECK: %[[SIZE:.+]] = memref.load %[[AGREED]][%{{.+}}] : memref<3xi64>
// CHECK: %[[SIZE32:.+]] = arith.trunci %[[SIZE]] : i64 to i32
// CHECK: %[[COUNT:.+]] = tensor.from_elements %[[SIZE32]]
// CHECK-NOT: mpi.allreduce
// CHECK: trace.div %[[SUM]]
// CHECK-NOT: trace.all_reduce
// LLVM-DAG: llvm.func @MPI_Allreduce
// LLVM-DAG: llvm.mlir.addressof @ompi_mpi_comm_world
// LLVM-DAG: llvm.mlir.addressof @ompi_mpi_float
// LLVM-DAG: llvm.mlir.addressof @ompi_mpi_sum
// LLVM-DAG: llvm.mlir.addressof @ompi_mpi_max
// LLVM-DAG: llvm.call @tracec_collective_check
// LLVM-NOT: unrealized_conversion_cast
func.func @mean(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0, %c = trace.all_reduce %x {reduction = "mean"} : tensor<4x3xf32>
  %1 = trace.identity %0 after(%c) : tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @max_and_rank
// CHECK: mpi.allreduce({{.+}}, MPI_MAX,
// CHECK: mpi.comm_rank
// CHECK: tensor.from_elements
func.func @max_and_rank(%x: tensor<2xi64>) -> (tensor<2xi64>, tensor<i32>) {
  %0, %c = trace.all_reduce %x {reduction = "max"} : tensor<2xi64>
  %r = trace.comm_rank : tensor<i32>
  return %0, %r : tensor<2xi64>, tensor<i32>
}

// With groups: the guard checks the world has the 4 processes they
// partition, the communicator is this process's group's (made once by
// tracec_collective_group and kept; its integer handle cast to the
// dialect's communicator), and mean divides by the group's size, 2.
// CHECK-LABEL: func.func @in_groups
// CHECK: %[[WHERE:.+]] = llvm.inttoptr
// CHECK: call @tracec_collective_check(%[[WHERE]], %{{.+}}, %{{.+}}, %c4_i64, %c-1_i64)
// CHECK: memref.get_global @__trace_collective_groups : memref<2x2xi64>
// CHECK: %[[TABLE:.+]] = llvm.inttoptr
// CHECK: %[[HANDLE:.+]] = call @tracec_collective_group(%[[WHERE]], %[[TABLE]], %c2_i64, %c2_i64{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64) -> i64
// CHECK: %[[COMM:.+]] = builtin.unrealized_conversion_cast %[[HANDLE]] : i64 to !mpi.comm
// CHECK: mpi.allreduce({{.+}}, MPI_SUM, %[[COMM]])
// CHECK: %[[TWO:.+]] = arith.constant 2 : i32
// CHECK: tensor.from_elements %[[TWO]]
// CHECK: trace.div
// LLVM-DAG: llvm.call @tracec_collective_group
func.func @in_groups(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0, %c = trace.all_reduce %x {reduction = "mean", groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// comm_size asks MPI (MLIR 22's mpi-to-llvm has no comm_size lowering):
// a local query, no collective.
// CHECK-LABEL: func.func @size
// CHECK: %[[SIZE:.+]] = call @tracec_collective_world_size() : () -> i32
// CHECK: tensor.from_elements %[[SIZE]] : tensor<i32>
// CHECK-NOT: mpi.allreduce
// LLVM-DAG: llvm.call @tracec_collective_world_size
func.func @size() -> tensor<i32> {
  %n = trace.comm_size : tensor<i32>
  return %n : tensor<i32>
}

// CHECK-LABEL: func.func @broadcast
// CHECK: call @tracec_collective_check({{.+}}, %c0_i64, %c2_i64)
// CHECK: %[[RANK:.+]] = tensor.from_elements
// CHECK: %[[ROOT:.+]] = trace.constant dense<2> : tensor<i32>
// CHECK: %[[ZEROS:.+]] = trace.constant dense<-0.000000e+00> : tensor<3xf64>
// CHECK: %[[IS_ROOT:.+]] = trace.eq %[[RANK]], %[[ROOT]]
// CHECK: %[[SENT:.+]] = trace.select %[[IS_ROOT]], %arg0, %[[ZEROS]]
// CHECK: %[[BUF:.+]] = bufferization.to_buffer %[[SENT]] read_only
// CHECK: mpi.allreduce(%[[BUF]], %{{.+}}, MPI_SUM,
// CHECK: call @tracec_collective_end()
// CHECK-NOT: trace.broadcast
func.func @broadcast(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0, %c = trace.broadcast %x {root = 2} : tensor<3xf64>
  return %0 : tensor<3xf64>
}

// CHECK-LABEL: func.func @all_gather
// CHECK: call @tracec_collective_check({{.+}}, %c2_i64, %c-1_i64)
// CHECK: %[[RANK:.+]] = mpi.comm_rank
// CHECK: %[[INDEX:.+]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[OFFSET:.+]] = arith.muli %[[INDEX]], %c3
// CHECK: %[[FILL:.+]] = trace.constant dense<0> : tensor<4x6xi32>
// CHECK: %[[PLACED:.+]] = tensor.insert_slice %arg0 into %[[FILL]][0, %[[OFFSET]]] [4, 3] [1, 1]
// CHECK: %[[BUF:.+]] = bufferization.to_buffer %[[PLACED]] read_only
// CHECK: mpi.allreduce({{.+}}, MPI_SUM,
// CHECK: call @tracec_collective_end()
func.func @all_gather(%x: tensor<4x3xi32>) -> tensor<4x6xi32> {
  %0, %c = trace.all_gather %x {axis = 1, world_size = 2} : tensor<4x3xi32> -> tensor<4x6xi32>
  return %0 : tensor<4x6xi32>
}

// CHECK-LABEL: func.func @reduce_scatter
// CHECK: call @tracec_collective_check({{.+}}, %c3_i64, %c-1_i64)
// CHECK: mpi.allreduce({{.+}}, MPI_MIN,
// CHECK: %[[ALL:.+]] = bufferization.to_tensor
// CHECK: call @tracec_collective_end()
// CHECK: %[[RANK:.+]] = mpi.comm_rank
// CHECK: %[[INDEX:.+]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[OFFSET:.+]] = arith.muli %[[INDEX]], %c2
// CHECK: tensor.extract_slice %[[ALL]][%[[OFFSET]]] [2] [1] : tensor<6xf32> to tensor<2xf32>
func.func @reduce_scatter(%x: tensor<6xf32>) -> tensor<2xf32> {
  %0, %c = trace.reduce_scatter %x {axis = 0, world_size = 3, reduction = "min"} : tensor<6xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Broadcast in groups: the guard checks the world has the 4 processes
// they partition (and no world root); the root is the process at position
// 1 of each group, which trace.comm_rank with the groups finds
// (tracec_collective_group_rank, a lookup); the sum runs on the group's
// communicator.
// CHECK-LABEL: func.func @broadcast_in_groups
// CHECK: call @tracec_collective_check({{.+}}, %c4_i64, %c-1_i64)
// CHECK: %[[HANDLE:.+]] = call @tracec_collective_group(
// CHECK: %[[COMM:.+]] = builtin.unrealized_conversion_cast %[[HANDLE]] : i64 to !mpi.comm
// CHECK: %[[POSITION:.+]] = call @tracec_collective_group_rank({{.+}}, %c2_i64{{.*}}, %c2_i64{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64) -> i32
// CHECK: %[[RANK:.+]] = tensor.from_elements %[[POSITION]]
// CHECK: %[[ROOT:.+]] = trace.constant dense<1> : tensor<i32>
// CHECK: %[[IS_ROOT:.+]] = trace.eq %[[RANK]], %[[ROOT]]
// CHECK: trace.select %[[IS_ROOT]], %arg0
// CHECK: mpi.allreduce({{.+}}, MPI_SUM, %[[COMM]])
// LLVM-DAG: llvm.call @tracec_collective_group_rank
func.func @broadcast_in_groups(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0, %c = trace.broadcast %x {root = 1, groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<3xf64>
  return %0 : tensor<3xf64>
}

// all_gather and reduce_scatter in groups: this process's slice is at its
// rank in its group's communicator (split with the position as the key);
// the all-reduce runs on it.
// CHECK-LABEL: func.func @gather_in_groups
// CHECK: call @tracec_collective_check({{.+}}, %c4_i64, %c-1_i64)
// CHECK: %[[HANDLE:.+]] = call @tracec_collective_group(
// CHECK: %[[COMM:.+]] = builtin.unrealized_conversion_cast %[[HANDLE]] : i64 to !mpi.comm
// CHECK: %[[RANK:.+]] = mpi.comm_rank(%[[COMM]])
// CHECK: %[[INDEX:.+]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: arith.muli %[[INDEX]], %c3
// CHECK: tensor.insert_slice
// CHECK: mpi.allreduce({{.+}}, MPI_SUM, %[[COMM]])
func.func @gather_in_groups(%x: tensor<3xf32>) -> tensor<6xf32> {
  %0, %c = trace.all_gather %x {axis = 0, world_size = 2, groups = dense<[[3, 1], [0, 2]]> : tensor<2x2xi64>} : tensor<3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @scatter_in_groups
// CHECK: call @tracec_collective_check({{.+}}, %c4_i64, %c-1_i64)
// CHECK: %[[HANDLE:.+]] = call @tracec_collective_group(
// CHECK: %[[COMM:.+]] = builtin.unrealized_conversion_cast %[[HANDLE]] : i64 to !mpi.comm
// CHECK: mpi.allreduce({{.+}}, MPI_SUM, %[[COMM]])
// CHECK: %[[RANK:.+]] = mpi.comm_rank(%[[COMM]])
// CHECK: tensor.extract_slice
// CHECK: %[[TWO:.+]] = trace.constant dense<2.000000e+00> : tensor<f32>
// CHECK: trace.div %{{.+}}, %[[TWO]]
func.func @scatter_in_groups(%x: tensor<6xf32>) -> tensor<3xf32> {
  %0, %c = trace.reduce_scatter %x {axis = 0, world_size = 2, reduction = "mean", groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<6xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// comm_rank in groups is a lookup of this process's position in its
// group; no collective.
// CHECK-LABEL: func.func @rank_in_groups
// CHECK: memref.get_global @__trace_collective_groups{{.*}} : memref<2x2xi64>
// CHECK: %[[POSITION:.+]] = call @tracec_collective_group_rank(
// CHECK: tensor.from_elements %[[POSITION]] : tensor<i32>
// CHECK-NOT: mpi.allreduce
func.func @rank_in_groups() -> tensor<i32> {
  %r = trace.comm_rank {groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<i32>
  return %r : tensor<i32>
}
