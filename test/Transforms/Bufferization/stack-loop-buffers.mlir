// RUN: tracec-opt %s --trace-stack-loop-buffers --split-input-file | FileCheck %s

// A row's accumulator, allocated and freed in every iteration of serial
// loops: one stack buffer at the function's entry.
// CHECK-LABEL: func.func @serial
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NOT:     memref.alloc()
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.store %{{.*}}, %[[BUF]][%{{.*}}]
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @serial(%x: memref<4x16xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %j = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %c4 step %c1 {
      %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
      %v = vector.load %x[%i, %c0] : memref<4x16xf32>, vector<16xf32>
      vector.store %v, %a[%c0] : memref<16xf32>, vector<16xf32>
      %w = vector.load %a[%c0] : memref<16xf32>, vector<16xf32>
      %s = vector.reduction <add>, %w : vector<16xf32> into f32
      memref.store %s, %y[%i] : memref<4xf32>
      memref.dealloc %a : memref<16xf32>
    }
  }
  return
}

// -----

// In an OpenMP parallel region, one buffer per thread: at the region's
// entry, not the function's.
// CHECK-LABEL: func.func @per_thread
// CHECK-NEXT:    omp.parallel {
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloca() : memref<16xf32>
// CHECK:           omp.wsloop
// CHECK-NOT:         memref.alloc()
// CHECK:             vector.store %{{.*}}, %[[BUF]]
func.func @per_thread(%x: memref<4x16xf32>, %y: memref<4xf32>) {
  omp.parallel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        %a = memref.alloc() : memref<16xf32>
        %v = vector.load %x[%i, %c0] : memref<4x16xf32>, vector<16xf32>
        vector.store %v, %a[%c0] : memref<16xf32>, vector<16xf32>
        %w = vector.load %a[%c0] : memref<16xf32>, vector<16xf32>
        %s = vector.reduction <add>, %w : vector<16xf32> into f32
        memref.store %s, %y[%i] : memref<4xf32>
        memref.dealloc %a : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Left alone: iterations of scf.forall may run at once; a buffer outside
// any loop (trace-plan-workspace's); one above max-bytes (16 KiB); one that
// leaves its iteration.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     memref.alloca
// CHECK:         scf.forall
// CHECK-NEXT:      memref.alloc() : memref<16xf32>
// CHECK:         memref.alloc() : memref<16xf32>
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloc() : memref<8192xf32>
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloc() : memref<16xf32>
// CHECK:           func.call @keep
func.func private @keep(memref<16xf32>)
func.func @left_alone(%x: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.forall (%i) in (4) {
    %a = memref.alloc() : memref<16xf32>
    %v = vector.load %x[%i, %c0] : memref<4x16xf32>, vector<16xf32>
    vector.store %v, %a[%c0] : memref<16xf32>, vector<16xf32>
    memref.dealloc %a : memref<16xf32>
  }
  %b = memref.alloc() : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %big = memref.alloc() : memref<8192xf32>
    memref.dealloc %big : memref<8192xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.alloc() : memref<16xf32>
    func.call @keep(%a) : (memref<16xf32>) -> ()
    memref.dealloc %a : memref<16xf32>
  }
  return
}
