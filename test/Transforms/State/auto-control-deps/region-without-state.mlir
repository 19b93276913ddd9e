// RUN: tracec-opt %s --trace-auto-control-deps -split-input-file | FileCheck %s

// Regions that touch no state get no token: the if and the loop keep their
// results, and the ops around them are ordered as without them.

// CHECK-LABEL: func.func @no_state
// CHECK-NOT: !trace.control
// CHECK: %[[W:[a-z0-9_]+]] = trace.var.assign
// CHECK: scf.if %{{[a-z0-9_]+}} -> (tensor<4xf32>) {
// CHECK: scf.for {{.*}} -> (tensor<4xf32>) {
// CHECK: trace.var.read %{{[a-z0-9_]+}} after(%[[W]]) :
// CHECK-NOT: trace.group
// CHECK: return
func.func @no_state(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>, %pred: i1) -> tensor<4xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %y = scf.if %pred -> tensor<4xf32> {
    %e = trace.exp %x : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  %l = scf.for %i = %lb to %ub step %step iter_args(%acc = %y) -> tensor<4xf32> {
    %s = trace.add %acc, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %o = trace.add %r, %l : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %o : tensor<4xf32>
}
