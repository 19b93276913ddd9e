// RUN: tracec-opt %s --trace-lower-state -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps --trace-lower-state -split-input-file | FileCheck %s --check-prefix=ORDERED
// RUN: tracec-opt %s -split-input-file --tracec-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// A resource argument becomes the caller's buffer. A read is a snapshot (a
// copy of the buffer now, into a buffer of its own that one to_tensor
// restrict names); an assign writes into the buffer in place, without
// restrict (the buffer is written many times); assign_add and assign_sub
// read, compute with trace ops and write; control tokens and trace.identity
// with tokens disappear, program order stays.

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[M:[a-z0-9_]+]]: memref<4xf32>, %[[X:[a-z0-9_]+]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %[[B0:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: memref.copy %[[M]], %[[B0]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: %[[OLD:.+]] = bufferization.to_tensor %[[B0]] restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK-NEXT: %[[H:.+]] = trace.constant
// CHECK-NEXT: %[[HX:.+]] = trace.mul %[[H]], %[[X]]
// CHECK-NEXT: %[[N:.+]] = trace.sub %[[OLD]], %[[HX]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[N]] in writable %[[M]] : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: %[[B1:.+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[M]], %[[B1]]
// CHECK-NEXT: %[[S1:.+]] = bufferization.to_tensor %[[B1]] restrict writable
// CHECK-NEXT: %[[A:.+]] = trace.add %[[S1]], %[[X]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[A]] in writable %[[M]]
// CHECK-NEXT: %[[B2:.+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[M]], %[[B2]]
// CHECK-NEXT: %[[S2:.+]] = bufferization.to_tensor %[[B2]] restrict writable
// CHECK-NEXT: %[[B3:.+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[M]], %[[B3]]
// CHECK-NEXT: %[[S3:.+]] = bufferization.to_tensor %[[B3]] restrict writable
// CHECK-NEXT: %[[D:.+]] = trace.sub %[[S3]], %[[X]]
// CHECK-NEXT: bufferization.materialize_in_destination %[[D]] in writable %[[M]]
// CHECK-NEXT: return %[[OLD]], %[[S2]]
// CHECK-NOT: trace.var
// CHECK-NOT: trace.identity

// With the tokens of trace-auto-control-deps: the same, tokens gone.
// ORDERED-LABEL: func.func @step
// ORDERED-SAME: memref<4xf32>
// ORDERED-NOT: trace.var
// ORDERED-NOT: trace.identity
// ORDERED-NOT: after
// ORDERED: return

// The whole CPU pipeline takes it: the buffer is a plain pointer argument.
// LLVM-LABEL: llvm.func @step
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %old, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %h = trace.constant dense<0.5> : tensor<f32>
  %hx = trace.mul %h, %x : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %n = trace.sub %old, %hx : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c1 = trace.var.assign %v, %n after(%c0) : !trace.resource<tensor<4xf32>>
  %c2 = trace.var.assign_add %v, %x after(%c1) : !trace.resource<tensor<4xf32>>
  %new, %c3 = trace.var.read %v after(%c2) : !trace.resource<tensor<4xf32>>
  %c4 = trace.var.assign_sub %v, %x after(%c3) : !trace.resource<tensor<4xf32>>
  %r = trace.identity %old after(%c4) : tensor<4xf32>
  return %r, %new : tensor<4xf32>, tensor<4xf32>
}

// -----

// Calls pass the buffer on; a loop updates it once per iteration.
// CHECK-LABEL: func.func private @inc
// CHECK-SAME: (%{{.*}}: memref<2xf32>, %{{.*}}: tensor<2xf32>)
// CHECK: materialize_in_destination
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[M:[a-z0-9_]+]]: memref<2xf32>, %[[X:[a-z0-9_]+]]: tensor<2xf32>)
// CHECK-NEXT: call @inc(%[[M]], %[[X]]) : (memref<2xf32>, tensor<2xf32>) -> ()
// CHECK-NEXT: call @inc(%[[M]], %[[X]]) : (memref<2xf32>, tensor<2xf32>) -> ()
// CHECK-NEXT: memref.alloc()
// CHECK-NEXT: memref.copy %[[M]]
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK-NEXT: memref.alloc()
// CHECK-NEXT: memref.copy
// CHECK-NEXT: bufferization.to_tensor %{{.*}} restrict writable
// CHECK-NEXT: trace.sub
// CHECK-NEXT: bufferization.materialize_in_destination
// CHECK-NEXT: }

// LLVM-LABEL: llvm.func @twice
// LLVM-LABEL: llvm.func @loop
func.func private @inc(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) {
  %c = trace.var.assign_add %v, %x : !trace.resource<tensor<2xf32>>
  return
}
func.func @twice(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  func.call @inc(%v, %x) : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> ()
  func.call @inc(%v, %x) : (!trace.resource<tensor<2xf32>>, tensor<2xf32>) -> ()
  %r, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  return %r : tensor<2xf32>
}
func.func @loop(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  scf.for %i = %lb to %ub step %st {
    %c = trace.var.assign_sub %v, %x : !trace.resource<tensor<2xf32>>
  }
  %r, %c = trace.var.read %v : !trace.resource<tensor<2xf32>>
  return %r : tensor<2xf32>
}
