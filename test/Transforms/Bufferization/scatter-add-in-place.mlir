// A sparse optimizer step: only the rows an embedding lookup touched are
// updated, var.assign(table, scatter_add(var.read(table), ids, -lr * rows)).
// After the CPU pipeline's bufferization and workspace plan, the loop over
// the ids adds each row into the variable's own buffer: no buffer of the
// table's size is allocated and nothing copies the table.
// RUN: tracec-opt %s --tracec-cpu-pipeline --mlir-print-ir-after=trace-plan-workspace -o /dev/null 2>&1 | FileCheck %s
// CHECK-LABEL: func.func @sparse_sgd(
// CHECK-SAME:    %[[TABLE:[a-z0-9_]+]]: memref<1000x64xf32>
// CHECK-NOT:     memref<1000x64xf32> = memref.alloc
// CHECK-NOT:     memref.alloc() {{.*}} : memref<1000x64xf32>
// CHECK-NOT:     memref.copy
// CHECK-NOT:     linalg.copy
// CHECK:         scf.for
// CHECK:           memref.load
// CHECK:           memref.subview %[[TABLE]]
// CHECK-NOT:     memref.copy
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @sparse_sgd(%table: !trace.resource<tensor<1000x64xf32>>, %ids: tensor<32xi32>, %rows: tensor<32x64xf32>) {
  %t, %c0 = trace.var.read %table : !trace.resource<tensor<1000x64xf32>>
  %lr = trace.constant dense<-0.1> : tensor<f32>
  %d = trace.mul %rows, %lr : (tensor<32x64xf32>, tensor<f32>) -> tensor<32x64xf32>
  %n = trace.scatter_add %t, %ids, %d : (tensor<1000x64xf32>, tensor<32xi32>, tensor<32x64xf32>) -> tensor<1000x64xf32>
  %c1 = trace.var.assign %table, %n after(%c0) : !trace.resource<tensor<1000x64xf32>>
  return
}
