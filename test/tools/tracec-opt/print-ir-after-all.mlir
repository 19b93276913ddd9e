// RUN: tracec-opt %s --canonicalize --cse --mlir-print-ir-after-all 2>&1 | FileCheck %s

// --mlir-print-ir-after-all dumps the trace program after each pass.

// CHECK: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK: func.func @step
// CHECK: trace.var.assign_add
// CHECK-NOT: trace.identity %{{[a-z0-9_]+}} : tensor<4xf32>
// CHECK: // -----// IR Dump After CSE (cse) //----- //
// CHECK: func.func @step
// CHECK: trace.add
// CHECK-NOT: trace.add
// CHECK: return
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %r, %c1 = trace.var.read %v after(%c0) : !trace.resource<tensor<4xf32>>
  %i = trace.identity %r : tensor<4xf32>
  %a = trace.add %i, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = trace.add %i, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
