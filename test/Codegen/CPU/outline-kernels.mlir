// RUN: tracec-opt %s --trace-cpu-outline-kernels -split-input-file | FileCheck %s

// Each top-level loop nest becomes a call of a private (internal in LLVM)
// noinline kernel, marked "vector" when it holds vector code. Constants are cloned into
// the kernel; other values from above (buffers, an index) are arguments;
// the ops between the nests stay.
// CHECK-LABEL: func.func @two_nests
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[N:.*]]: index)
// CHECK:         call @two_nests_kernel(%[[A]], %[[B]]) : (memref<64xf32>, memref<64xf32>) -> ()
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    call @two_nests_kernel_0(%[[N]], %[[B]]) : (index, memref<64xf32>) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func private @two_nests_kernel(%[[KA:.*]]: memref<64xf32>, %[[KB:.*]]: memref<64xf32>)
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline", ["tracec-kernel", "vector"]]}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C64]] step %[[C16]] {
// CHECK-NEXT:      %[[V:.*]] = vector.load %[[KA]][%[[I]]]
// CHECK-NEXT:      vector.store %[[V]], %[[KB]][%[[I]]]
// CHECK:         return
// CHECK:       func.func private @two_nests_kernel_0(%{{.*}}: index, %{{.*}}: memref<64xf32>)
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline", ["tracec-kernel", "scalar"]]}
// CHECK:         scf.for
// CHECK:           memref.store
func.func @two_nests(%a: memref<64xf32>, %b: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c16 {
    %v = vector.load %a[%i] : memref<64xf32>, vector<16xf32>
    vector.store %v, %b[%i] : memref<64xf32>, vector<16xf32>
  }
  memref.store %zero, %b[%c0] : memref<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// A loop's results are the kernel's results; an scf.if around a loop is a
// nest too.
// CHECK-LABEL: func.func @results
// CHECK:         %[[S:.*]] = call @results_kernel(%{{.*}}) : (memref<8xf32>) -> f32
// CHECK:         %[[T:.*]] = call @results_kernel_0(%{{.*}}, %[[S]]) : (i1, f32) -> f32
// CHECK:         return %[[T]] : f32
// CHECK:       func.func private @results_kernel(%{{.*}}: memref<8xf32>) -> f32
// CHECK:         %[[R:.*]] = scf.for
// CHECK:         return %[[R]] : f32
// CHECK:       func.func private @results_kernel_0(%{{.*}}: i1, %{{.*}}: f32) -> f32
// CHECK:         scf.if
func.func @results(%a: memref<8xf32>, %p: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %a[%i] : memref<8xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  %r = scf.if %p -> f32 {
    %twice = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %sum) -> f32 {
      %next = arith.addf %acc, %acc : f32
      scf.yield %next : f32
    }
    scf.yield %twice : f32
  } else {
    scf.yield %sum : f32
  }
  return %r : f32
}

// -----

// Functions without loops or with a single nest (one op: a kernel would
// only cost code generation time), and declarations, are left alone.
// CHECK-LABEL: func.func @no_loops
// CHECK-NOT:   call
// CHECK-LABEL: func.func @one_nest
// CHECK-NOT:   call
// CHECK:         scf.for
// CHECK:       func.func private @external
// CHECK-NOT:   func.func
func.func @no_loops(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  return %b : f32
}
func.func @one_nest(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %zero, %a[%i] : memref<8xf32>
  }
  return
}
func.func private @external(f32) -> f32

// -----

// Two nests equal but for the buffers they take call one kernel; a nest
// that differs in a constant gets its own.
// CHECK-LABEL: func.func @equal_nests
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>)
// CHECK:         call @equal_nests_kernel(%[[A]]) : (memref<64xf32>) -> ()
// CHECK-NEXT:    call @equal_nests_kernel(%[[B]]) : (memref<64xf32>) -> ()
// CHECK-NEXT:    call @equal_nests_kernel_0(%[[B]]) : (memref<64xf32>) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func private @equal_nests_kernel(
// CHECK:         arith.constant 1.0
// CHECK:       func.func private @equal_nests_kernel_0(
// CHECK:         arith.constant 2.0
// CHECK-NOT:   func.func private
func.func @equal_nests(%a: memref<64xf32>, %b: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %one, %a[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %one, %b[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %two, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// In a kernel on tensors of trace-cpu-dedup-kernels, one nest is a kernel:
// LLVM must know whether its code is vectorized.
// CHECK-LABEL: func.func private @tensor_kernel(
// CHECK-NOT:     scf.for
// CHECK:         call @tensor_kernel_kernel(%{{.*}}) : (memref<8xf32>) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func private @tensor_kernel_kernel
// CHECK-SAME:    passthrough = ["noinline", ["tracec-kernel", "scalar"]]
// CHECK:         scf.for
func.func private @tensor_kernel(%a: memref<8xf32>) attributes {trace.tensor_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %zero, %a[%i] : memref<8xf32>
  }
  return
}
