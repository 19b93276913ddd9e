// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// random_* and print have unknown effects: each is ordered with every other
// stateful op, one after the other.

// CHECK-LABEL: func.func @random_and_print
func.func @random_and_print(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[U:[a-z0-9_]+]], %[[CU:[a-z0-9_]+]] = trace.random_uniform {seed = 1 : i64}
  // CHECK-NEXT: %[[CP:[a-z0-9_]+]] = trace.print %[[U]] after(%[[CU]])
  // CHECK-NEXT: %[[N:[a-z0-9_]+]], %[[CN:[a-z0-9_]+]] = trace.random_normal after(%[[CP]]) {seed = 2 : i64}
  // The result comes from the last op itself: no identity needed.
  // CHECK-NEXT: return %[[N]]
  %u, %cu = trace.random_uniform {seed = 1} : tensor<4xf32>
  %cp = trace.print %u : tensor<4xf32>
  %n, %cn = trace.random_normal {seed = 2} : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// An unknown op waits for the last write and the reads of every variable;
// the ops after it wait for it (the random op through the assign).
// CHECK-LABEL: func.func @print_between_variables
func.func @print_between_variables(%a: !trace.resource<tensor<4xf32>>, %b: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // CHECK-NEXT: %[[CA:[a-z0-9_]+]] = trace.var.assign
  // CHECK-NEXT: %{{[a-z0-9_]+}}, %[[CB:[a-z0-9_]+]] = trace.var.read
  // CHECK-NEXT: %[[P:[a-z0-9_]+]] = trace.print %{{[a-z0-9_]+}} after(%[[CA]], %[[CB]])
  // CHECK-NEXT: %[[CB2:[a-z0-9_]+]] = trace.var.assign {{.*}} after(%[[P]]) :
  // CHECK-NEXT: trace.random_uniform after(%[[CB2]])
  %ca = trace.var.assign %a, %x : !trace.resource<tensor<4xf32>>
  %rb, %cb = trace.var.read %b : !trace.resource<tensor<4xf32>>
  %p = trace.print %x : tensor<4xf32>
  %cb2 = trace.var.assign %b, %x : !trace.resource<tensor<4xf32>>
  %u, %cu = trace.random_uniform : tensor<4xf32>
  return
}
