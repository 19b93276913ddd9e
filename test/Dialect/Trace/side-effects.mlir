// RUN: tracec-opt %s --canonicalize --cse | FileCheck %s
// RUN: tracec-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | FileCheck %s

// The memory effects of the state ops as canonicalize and cse see them:
// stateful ops stay even when their token is unused, reads are not merged
// across a write, pure ops are removed when unused and merged when equal.

// CHECK-LABEL: func.func @assign_kept
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @assign_kept(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // CHECK-NEXT: trace.var.assign %[[V]], %[[X]]
  // CHECK-NEXT: trace.var.assign_add %[[V]], %[[X]]
  // CHECK-NEXT: trace.var.assign_sub %[[V]], %[[X]]
  // CHECK-NEXT: return
  %c0 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %c1 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %c2 = trace.var.assign_sub %v, %x : !trace.resource<tensor<4xf32>>
  return
}

// Two identical assignments are two writes: neither is merged or dropped.
// CHECK-LABEL: func.func @assign_twice
func.func @assign_twice(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // CHECK-COUNT-2: trace.var.assign_add
  %c0 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %c1 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  return
}

// CHECK-LABEL: func.func @print_kept
func.func @print_kept(%x: tensor<4xf32>) {
  // CHECK-NEXT: trace.print %{{[a-z0-9_]+}} {message = "x"}
  // CHECK-NEXT: trace.print %{{[a-z0-9_]+}} {message = "x"}
  // CHECK-NEXT: return
  %p0 = trace.print %x {message = "x"} : tensor<4xf32>
  %p1 = trace.print %x {message = "x"} : tensor<4xf32>
  return
}

// Two reads with nothing in between read the same value: cse merges them.
// CHECK-LABEL: func.func @reads_merged
func.func @reads_merged(%v: !trace.resource<tensor<4xf32>>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[R:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read
  // CHECK-NEXT: return %[[R]], %[[R]]
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}

// A write between two reads of the same variable: both reads stay.
// CHECK-LABEL: func.func @reads_across_write
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @reads_across_write(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[R0:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]]
  // CHECK: trace.var.assign %[[V]], %[[X]]
  // CHECK: %[[R1:[a-z0-9_]+]], %{{[a-z0-9_]+}} = trace.var.read %[[V]]
  // CHECK: return %[[R0]], %[[R1]]
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %c1 = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r1, %c2 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}

// Also when the second read waits for the write's token, and for
// assign_add.
// CHECK-LABEL: func.func @reads_across_assign_add
func.func @reads_across_assign_add(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: trace.var.read
  // CHECK: trace.var.assign_add
  // CHECK: trace.var.read
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %c1 = trace.var.assign_add %v, %x after(%c0) : !trace.resource<tensor<4xf32>>
  %r1, %c2 = trace.var.read %v after(%c1) : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}

// A print writes only its output, not variables, but cse does not know
// which resource it writes: the reads stay apart.
// CHECK-LABEL: func.func @reads_across_print
func.func @reads_across_print(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: trace.var.read
  // CHECK: trace.print
  // CHECK: trace.var.read
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %p = trace.print %x : tensor<4xf32>
  %r1, %c2 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}

// A read whose results are unused only reads: it is removed.
// CHECK-LABEL: func.func @unused_read
func.func @unused_read(%v: !trace.resource<tensor<4xf32>>) {
  // CHECK-NEXT: return
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return
}

// CHECK-LABEL: func.func @unused_pure
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @unused_pure(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: return %[[X]]
  %a = trace.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = trace.exp %x : tensor<4xf32>
  return %x : tensor<4xf32>
}

// CHECK-LABEL: func.func @cse_pure
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[Y:[a-z0-9_]+]]: tensor<4xf32>)
func.func @cse_pure(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[S:[a-z0-9_]+]] = trace.add %[[X]], %[[Y]]
  // CHECK-NEXT: return %[[S]], %[[S]]
  %a = trace.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = trace.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// identity without tokens folds to its operand; with tokens it stays (and
// so does what it waits for).
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
func.func @identity(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]]
  // CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[C]])
  // CHECK-NEXT: return %[[X]], %[[Y]]
  %a = trace.identity %x : tensor<4xf32>
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %b = trace.identity %x after(%c) : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// An identity with tokens whose result is unused is pure: it goes, but the
// write it waited for stays.
// CHECK-LABEL: func.func @unused_identity
func.func @unused_identity(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) {
  // CHECK-NEXT: trace.var.assign
  // CHECK-NEXT: return
  %c = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %b = trace.identity %x after(%c) : tensor<4xf32>
  return
}

func.func @loss(%w: tensor<4xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %w {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// The gradient ops are pure: unused ones go, equal ones merge.
// CHECK-LABEL: func.func @gradients
// CHECK-SAME: (%[[W:[a-z0-9_]+]]: tensor<4xf32>)
func.func @gradients(%w: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[G:[a-z0-9_]+]] = trace.grad @loss(%[[W]])
  // CHECK-NEXT: return %[[G]], %[[G]]
  %unused, %unused_g = trace.value_and_grad @loss(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  %a = trace.grad @loss(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %b = trace.grad @loss(%w) {wrt = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
