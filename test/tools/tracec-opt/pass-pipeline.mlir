// RUN: tracec-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | FileCheck %s
// RUN: tracec-opt %s --canonicalize --cse | FileCheck %s
// RUN: not tracec-opt %s --pass-pipeline='builtin.module(func.func(no-such-pass))' 2>&1 | FileCheck %s --check-prefix=BAD

// A textual pass pipeline runs on a trace program as the flags do.

// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[C0:[a-z0-9_]+]] = trace.var.assign_add %[[V]], %[[X]]
// CHECK-NEXT: %[[R:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[C0]])
// CHECK-NEXT: %[[A:[a-z0-9_]+]] = trace.add %[[R]], %[[X]]
// CHECK-NEXT: %[[P:[a-z0-9_]+]] = trace.print %[[A]] after(%[[C1]])
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[A]] after(%[[P]])
// CHECK-NEXT: return %[[Y]], %[[A]]
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %r, %c1 = trace.var.read %v after(%c0) : !trace.resource<tensor<4xf32>>
  %i = trace.identity %r : tensor<4xf32>
  %a = trace.add %i, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = trace.add %i, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %unused = trace.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %p = trace.print %a after(%c1) : tensor<4xf32>
  %y = trace.identity %a after(%p) : tensor<4xf32>
  return %y, %b : tensor<4xf32>, tensor<4xf32>
}

// BAD: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
