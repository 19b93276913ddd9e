// RUN: tracec-opt %s --trace-auto-control-deps --trace-lower-state -split-input-file | FileCheck %s

// A print becomes a call of the C callback tracec_print_tensor(message,
// dtype, rank, shape, data) on a contiguous copy of the tensor; the message
// (NUL-terminated) and the shape are constant globals. Prints keep their
// place between the variable's read and assign.

// CHECK-DAG: func.func private @tracec_print_tensor(!llvm.ptr, i32, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: memref.global "private" constant @__trace_print_message{{(_[0-9]+)?}} : memref<7xi8> = dense<[98, 101, 102, 111, 114, 101, 0]>
// CHECK-DAG: memref.global "private" constant @__trace_print_shape{{(_[0-9]+)?}} : memref<1xi64> = dense<2>
// CHECK-LABEL: func.func @between_variable_ops
// CHECK-SAME: (%[[M:[a-z0-9_]+]]: memref<2xf32>, %[[X:[a-z0-9_]+]]: tensor<2xf32>)
// CHECK: %[[OLD:.+]] = bufferization.to_tensor %{{.+}} restrict writable : memref<2xf32> to tensor<2xf32>
// CHECK: %[[MSG:.+]] = memref.get_global @__trace_print_message
// CHECK: %[[MSGP:.+]] = llvm.inttoptr
// CHECK: %[[SHAPE:.+]] = memref.get_global @__trace_print_shape
// CHECK: %[[SHAPEP:.+]] = llvm.inttoptr
// CHECK: %[[COPY:.+]] = bufferization.alloc_tensor() copy(%[[OLD]]) : tensor<2xf32>
// CHECK: %[[BUF:.+]] = bufferization.to_buffer %[[COPY]] read_only : tensor<2xf32> to memref<2xf32>
// CHECK: %[[ADDR:.+]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[DATAP:.+]] = llvm.inttoptr
// CHECK-DAG: %[[F32:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[RANK:.+]] = arith.constant 1 : i64
// CHECK: call @tracec_print_tensor(%[[MSGP]], %[[F32]], %[[RANK]], %[[SHAPEP]], %[[DATAP]])
// CHECK: bufferization.materialize_in_destination %{{.+}} in writable %[[M]]
// CHECK: call @tracec_print_tensor
// CHECK-NOT: trace.print
func.func @between_variable_ops(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p0 = trace.print %r0 {message = "before"} : tensor<2xf32>
  %c1 = trace.var.assign %v, %x : !trace.resource<tensor<2xf32>>
  %r1, %c2 = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %p1 = trace.print %r1 {message = "after"} : tensor<2xf32>
  return %r1 : tensor<2xf32>
}

// -----

// A scalar has no shape to point to; a print in a region is lowered in
// place; i1 is dtype 4.
// CHECK-LABEL: func.func @scalar_in_if
// CHECK: scf.if
// CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[I1:.+]] = arith.constant 4 : i32
// CHECK-DAG: %[[RANK0:.+]] = arith.constant 0 : i64
// CHECK: call @tracec_print_tensor(%{{.+}}, %[[I1]], %[[RANK0]], %[[NULL]], %{{.+}})
// CHECK-NOT: trace.
func.func @scalar_in_if(%x: tensor<i1>, %p: i1) -> tensor<i1> {
  %r = scf.if %p -> tensor<i1> {
    %c = trace.print %x : tensor<i1>
    scf.yield %x : tensor<i1>
  } else {
    scf.yield %x : tensor<i1>
  }
  return %r : tensor<i1>
}
