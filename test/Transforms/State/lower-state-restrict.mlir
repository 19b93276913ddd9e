// RUN: tracec-opt %s --trace-lower-state | FileCheck %s
// RUN: tracec-opt %s --trace-lower-state | FileCheck %s --check-prefix=CONTRACT
// RUN: tracec-opt %s --trace-lower-state --trace-to-linalg --canonicalize --cse "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// bufferization's `restrict` contract: a `to_tensor ... restrict` is the
// only way tensor IR reaches its buffer, and no two restrict ops name one
// buffer. A variable read twice and written three times (read after
// assign, two assigns in a row, assign_add) must not put `restrict` on the
// caller's buffer at all: every restrict names a fresh snapshot buffer,
// exactly once.

// CONTRACT-LABEL: func.func @many_accesses
// CONTRACT-SAME: (%[[M:[a-z0-9_]+]]: memref<2xf32>
// CONTRACT-NOT: to_tensor %[[M]]
// CONTRACT-NOT: restrict {{.*}}%[[M]]
// CONTRACT-COUNT-3: to_tensor %{{.+}} restrict
// CONTRACT-NOT: to_tensor %[[M]]
// CONTRACT-NOT: restrict {{.*}}%[[M]]
// CONTRACT: return

// CHECK-LABEL: func.func @many_accesses
// CHECK-SAME: (%[[M:[a-z0-9_]+]]: memref<2xf32>
// CHECK-NOT: to_tensor %[[M]]
// CHECK-NOT: restrict {{.*}}%[[M]]
// CHECK: %[[B0:[a-z0-9_]+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[M]], %[[B0]]
// CHECK-NEXT: bufferization.to_tensor %[[B0]] restrict writable
// CHECK-NOT: to_tensor %[[M]]
// CHECK-NOT: restrict {{.*}}%[[M]]
// CHECK: %[[B1:[a-z0-9_]+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[M]], %[[B1]]
// CHECK-NEXT: bufferization.to_tensor %[[B1]] restrict writable
// CHECK-NOT: to_tensor %[[M]]
// CHECK-NOT: restrict {{.*}}%[[M]]
// CHECK: %[[B2:[a-z0-9_]+]] = memref.alloc()
// CHECK-NEXT: memref.copy %[[M]], %[[B2]]
// CHECK-NEXT: bufferization.to_tensor %[[B2]] restrict writable
// CHECK-NOT: to_tensor %[[M]]
// CHECK-NOT: restrict {{.*}}%[[M]]
// CHECK: return

// After one-shot bufferization the accesses of the caller's buffer keep
// their order: the snapshot of the first read is taken before the writes,
// each write lands where its assign stood, and the last read follows them.
// BUF-LABEL: func.func @many_accesses
// BUF-SAME: (%[[M:[a-z0-9_]+]]: memref<2xf32>, %[[X:[a-z0-9_]+]]: memref<2xf32>, %[[Y:[a-z0-9_]+]]: memref<2xf32>)
// BUF:      memref.copy %[[M]], %[[R0:[a-z0-9_]+]]
// BUF:      memref.copy %[[X]], %[[M]]
// BUF:      memref.copy %[[M]], %[[R1:[a-z0-9_]+]]
// BUF:      memref.copy %[[Y]], %[[M]]
// BUF:      memref.copy %[[M]], %[[OLD:[a-z0-9_]+]]
// BUF:      linalg.generic {{.*}} ins(%[[OLD]], %[[R1]]
// BUF:      memref.copy %{{.+}}, %[[M]]
// BUF:      return %[[R0]], %[[R1]]
func.func @many_accesses(%v: !trace.resource<tensor<2xf32>>, %x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<2xf32>>
  %c1 = trace.var.assign %v, %x after(%c0) : !trace.resource<tensor<2xf32>>
  %r1, %c2 = trace.var.read %v after(%c1) : !trace.resource<tensor<2xf32>>
  %c3 = trace.var.assign %v, %y after(%c2) : !trace.resource<tensor<2xf32>>
  %c4 = trace.var.assign_add %v, %r1 after(%c3) : !trace.resource<tensor<2xf32>>
  %a = trace.identity %r0 after(%c4) : tensor<2xf32>
  return %a, %r1 : tensor<2xf32>, tensor<2xf32>
}
