// Every top-level parallel region forks only while the module's mode says
// so (__tracec_parallel_fork), and every public function that forks, or
// calls one that does, sets the mode for its call and times it
// (__tracec_call_begin/end, one record per entry). The policy is defined
// in the module once. A region nested in another, or with a condition of
// its own, is left alone, and a function without such regions is not
// timed.
// RUN: tracec-opt %s --trace-cpu-adaptive-parallel | FileCheck %s
// Twice: nothing is added again.
// RUN: tracec-opt %s --trace-cpu-adaptive-parallel --trace-cpu-adaptive-parallel | FileCheck %s --check-prefix=TWICE
// To LLVM IR, where the if clause becomes libomp's conditional fork.
// RUN: tracec-opt %s --trace-cpu-adaptive-parallel --convert-to-llvm --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// CHECK-LABEL: func.func @two_regions
// CHECK:         %[[ENTRY:.*]] = llvm.mlir.addressof @__tracec_calls_of_two_regions : !llvm.ptr
// CHECK:         %[[TICKET:.*]] = llvm.call @__tracec_call_begin(%[[ENTRY]]) : (!llvm.ptr) -> i64
// CHECK:         %[[FORK:.*]] = llvm.call @__tracec_parallel_fork() : () -> i1
// CHECK:         omp.parallel if(%[[FORK]]) num_threads
// CHECK:           omp.parallel {
// CHECK:         %[[FORK2:.*]] = llvm.call @__tracec_parallel_fork() : () -> i1
// CHECK:         omp.parallel if(%[[FORK2]]) num_threads
// CHECK:         llvm.call @__tracec_call_end(%[[ENTRY]], %[[TICKET]]) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @helper
// CHECK-NOT:     __tracec_call_begin
// CHECK:         llvm.call @__tracec_parallel_fork()
// CHECK-LABEL: func.func @calls_helper
// CHECK:         llvm.call @__tracec_call_begin(
// CHECK:         call @helper
// CHECK:         llvm.call @__tracec_call_end(
// CHECK-LABEL: func.func @own_condition
// CHECK-NOT:     __tracec
// CHECK:         omp.parallel if(%arg2)
// CHECK-LABEL: func.func @serial
// CHECK-NOT:     __tracec
// CHECK:         return
// CHECK-DAG:   llvm.mlir.global internal @__tracec_parallel_mode(1 : i64)
// CHECK-DAG:   llvm.mlir.global internal @__tracec_calls_in_progress(0 : i64)
// CHECK-DAG:   llvm.func internal @__tracec_parallel_fork()
// CHECK-DAG:   llvm.func internal @__tracec_call_begin(
// CHECK-DAG:   llvm.func internal @__tracec_call_end(
// CHECK-DAG:   llvm.mlir.global internal @__tracec_calls_of_two_regions(dense<0> : tensor<3xi64>) {{.*}} : !llvm.array<3 x i64>
// CHECK-DAG:   llvm.mlir.global internal @__tracec_calls_of_calls_helper(dense<0> : tensor<3xi64>) {{.*}} : !llvm.array<3 x i64>

// TWICE-COUNT-1: llvm.func internal @__tracec_call_begin(
// TWICE-NOT:     llvm.func internal @__tracec_call_begin(
// TWICE-NOT:     @__tracec_calls_of_two_regions_0

// IR-LABEL: define void @two_regions
// IR:         call i64 @__tracec_call_begin(
// IR:         call i1 @__tracec_parallel_fork()
// IR:         call void @__kmpc_fork_call_if(
// IR:         call void @__tracec_call_end(
// Sampling stops early, and the other way is tried less often, where one
// way is far faster than the other.
// IR-LABEL: define internal i1 @__tracec_clearly_apart(
// IR:         call i64 @llvm.umin.i64(
// IR:         call i64 @llvm.umax.i64(
// IR-LABEL: define internal i64 @__tracec_call_begin(
// IR:         atomicrmw add ptr @__tracec_calls_in_progress, i64 1 monotonic
// IR:         call i1 @__tracec_clearly_apart(
// IR:         call i1 @__tracec_clearly_apart(
// IR:         select i1 %{{.*}}, i64 127, i64 31
// IR:         call i64 @llvm.readcyclecounter()
// IR-LABEL: define internal void @__tracec_call_end(
// IR:         atomicrmw umin ptr %{{.*}} monotonic
// IR:         atomicrmw sub ptr @__tracec_calls_in_progress, i64 1 monotonic

func.func @two_regions(%buf: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %threads = llvm.mlir.constant(2 : i32) : i32
  omp.parallel num_threads(%threads : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %one, %buf[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.parallel {
      omp.terminator
    }
    omp.terminator
  }
  omp.parallel num_threads(%threads : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %one, %buf[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

func.func private @helper(%buf: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %one, %buf[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

func.func @calls_helper(%buf: memref<?xf32>, %n: index) {
  call @helper(%buf, %n) : (memref<?xf32>, index) -> ()
  return
}

func.func @own_condition(%buf: memref<?xf32>, %n: index, %cond: i1) {
  omp.parallel if(%cond) {
    omp.terminator
  }
  return
}

func.func @serial(%buf: memref<?xf32>) {
  return
}
