// RUN: tracec-opt %s --trace-auto-control-deps --canonicalize --cse --inline | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps --canonicalize --cse --inline --trace-auto-control-deps | FileCheck %s

// A read stays after the assign of its variable (it waits for the assign's
// token) and a read before an assign stays before it (the assign waits for
// the read's token), through canonicalize, cse and inlining.

// CHECK-LABEL: func.func @read_write_read
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: !trace.resource<tensor<4xf32>>, %[[X:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[R0:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]] = trace.var.read %[[V]] :
// CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign %[[V]], %[[X]] after(%[[C0]]) :
// CHECK-NEXT: %[[R1:[a-z0-9_]+]], %[[C1:[a-z0-9_]+]] = trace.var.read %[[V]] after(%[[W]]) :
// CHECK-NEXT: %[[S:[a-z0-9_]+]] = trace.sub %[[R0]], %[[R1]]
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[S]] after(%[[C1]]) :
// CHECK-NEXT: return %[[Y]]
func.func @read_write_read(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r0, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %s = trace.sub %r0, %r1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// The first read is in a callee: the call takes a token and returns one
// (the token nothing precedes, trace.group(), is what the inlined read
// waits for), so the assign after it waits for the read's token once the
// call is inlined; running the pass again changes nothing.
func.func private @get(%v: !trace.resource<tensor<4xf32>>) -> tensor<4xf32> {
  %r, %c = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @via_call
// CHECK-NEXT: %[[G:[a-z0-9_]+]] = trace.group()
// CHECK-NEXT: %{{[a-z0-9_]+}}, %[[C0:[a-z0-9_]+]] = trace.var.read %{{[a-z0-9_]+}} after(%[[G]]) :
// CHECK-NEXT: %[[W:[a-z0-9_]+]] = trace.var.assign {{.*}} after(%[[C0]]) :
// CHECK-NEXT: trace.var.read %{{[a-z0-9_]+}} after(%[[W]]) :
func.func @via_call(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r0 = func.call @get(%v) : (!trace.resource<tensor<4xf32>>) -> tensor<4xf32>
  %w = trace.var.assign %v, %x : !trace.resource<tensor<4xf32>>
  %r1, %c1 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %s = trace.sub %r0, %r1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
