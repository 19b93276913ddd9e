// RUN: tracec-opt %s --trace-cpu-inline-alloca-scopes | FileCheck %s
// RUN: tracec-opt %s "--tracec-cpu-pipeline=threads=2 ukernels=1" -o /dev/null

// A parallel body's scope (convert-scf-to-openmp's) around a micro-kernel
// call and a loop: inlined, so the loop may become blocks.
// CHECK-LABEL: func.func @call_and_loop
// CHECK-NOT: memref.alloca_scope
// CHECK: scf.for
// CHECK: call @kernel
// CHECK-NOT: memref.alloca_scope
func.func private @kernel(memref<16xf32>)
func.func @call_and_loop(%b: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  memref.alloca_scope {
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %zero, %b[%i] : memref<16xf32>
    }
    func.call @kernel(%b) : (memref<16xf32>) -> ()
  }
  return
}

// A scope whose body allocates on the stack stays.
// CHECK-LABEL: func.func @alloca
// CHECK: memref.alloca_scope
// CHECK:   memref.alloca
func.func @alloca(%b: memref<16xf32>) {
  memref.alloca_scope {
    %t = memref.alloca() : memref<16xf32>
    memref.copy %b, %t : memref<16xf32> to memref<16xf32>
    func.call @kernel(%t) : (memref<16xf32>) -> ()
  }
  return
}

// The pipeline case (an MLP's last weight gradient): a packed f32
// contraction at 2 threads whose tasks zero their accumulators with a loop
// and call the micro-kernel; it failed to lower before the pass.
func.func @matmul(%a: tensor<256x512xf32>, %b: tensor<256x10xf32>) -> tensor<512x10xf32> {
  %c = trace.matmul %a, %b {transpose_a} : (tensor<256x512xf32>, tensor<256x10xf32>) -> tensor<512x10xf32>
  return %c : tensor<512x10xf32>
}
