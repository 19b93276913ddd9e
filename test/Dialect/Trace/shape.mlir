// RUN: tracec-opt %s | tracec-opt | FileCheck %s

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x3xf32>, %s: tensor<f32>, %i: tensor<1x1xi1>, %e: tensor<0x3xi32>) -> (tensor<6xf32>, tensor<3x1x2xf32>, tensor<1xf32>, tensor<i1>, tensor<3x0xi32>) {
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<2x3xf32> -> tensor<6xf32>
  %0 = trace.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<2x3xf32> -> tensor<3x1x2xf32>
  %1 = trace.reshape %x : tensor<2x3xf32> -> tensor<3x1x2xf32>
  // Scalars hold one element.
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<f32> -> tensor<1xf32>
  %2 = trace.reshape %s : tensor<f32> -> tensor<1xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<1x1xi1> -> tensor<i1>
  %3 = trace.reshape %i : tensor<1x1xi1> -> tensor<i1>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<0x3xi32> -> tensor<3x0xi32>
  %4 = trace.reshape %e : tensor<0x3xi32> -> tensor<3x0xi32>
  return %0, %1, %2, %3, %4 : tensor<6xf32>, tensor<3x1x2xf32>, tensor<1xf32>, tensor<i1>, tensor<3x0xi32>
}

// A dynamic side only needs the other side's count to be a multiple of its
// static dims.
// CHECK-LABEL: func.func @reshape_dynamic
func.func @reshape_dynamic(%x: tensor<?x3xf32>, %y: tensor<2x6xf32>) -> (tensor<?xf32>, tensor<?x2x3xf32>, tensor<4x?xf32>, tensor<6xf32>) {
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x3xf32> -> tensor<?xf32>
  %0 = trace.reshape %x : tensor<?x3xf32> -> tensor<?xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x3xf32> -> tensor<?x2x3xf32>
  %1 = trace.reshape %x : tensor<?x3xf32> -> tensor<?x2x3xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<2x6xf32> -> tensor<4x?xf32>
  %2 = trace.reshape %y : tensor<2x6xf32> -> tensor<4x?xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x3xf32> -> tensor<6xf32>
  %3 = trace.reshape %x : tensor<?x3xf32> -> tensor<6xf32>
  return %0, %1, %2, %3 : tensor<?xf32>, tensor<?x2x3xf32>, tensor<4x?xf32>, tensor<6xf32>
}

// A static zero-size dim makes the dynamic side empty, like the other side.
// CHECK-LABEL: func.func @reshape_dynamic_empty
func.func @reshape_dynamic_empty(%x: tensor<?x0xf32>) -> (tensor<0x5xf32>, tensor<?xf32>) {
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x0xf32> -> tensor<0x5xf32>
  %0 = trace.reshape %x : tensor<?x0xf32> -> tensor<0x5xf32>
  // CHECK: trace.reshape %{{[a-z0-9_]+}} : tensor<?x0xf32> -> tensor<?xf32>
  %1 = trace.reshape %x : tensor<?x0xf32> -> tensor<?xf32>
  return %0, %1 : tensor<0x5xf32>, tensor<?xf32>
}

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3xf32>, %y: tensor<2x3x4xi32>, %s: tensor<f32>, %d: tensor<?x1x5xf16>) -> (tensor<3x2xf32>, tensor<4x2x3xi32>, tensor<2x3x4xi32>, tensor<f32>, tensor<5x?x1xf16>) {
  // CHECK: trace.transpose %{{[a-z0-9_]+}} {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %0 = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  // Result dim i is operand dim perm[i].
  // CHECK: trace.transpose %{{[a-z0-9_]+}} {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xi32> -> tensor<4x2x3xi32>
  %1 = trace.transpose %y {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xi32> -> tensor<4x2x3xi32>
  // CHECK: trace.transpose %{{[a-z0-9_]+}} {perm = array<i64: 0, 1, 2>} : tensor<2x3x4xi32> -> tensor<2x3x4xi32>
  %2 = trace.transpose %y {perm = array<i64: 0, 1, 2>} : tensor<2x3x4xi32> -> tensor<2x3x4xi32>
  // CHECK: trace.transpose %{{[a-z0-9_]+}} {perm = array<i64>} : tensor<f32> -> tensor<f32>
  %3 = trace.transpose %s {perm = array<i64>} : tensor<f32> -> tensor<f32>
  // CHECK: trace.transpose %{{[a-z0-9_]+}} {perm = array<i64: 2, 0, 1>} : tensor<?x1x5xf16> -> tensor<5x?x1xf16>
  %4 = trace.transpose %d {perm = array<i64: 2, 0, 1>} : tensor<?x1x5xf16> -> tensor<5x?x1xf16>
  return %0, %1, %2, %3, %4 : tensor<3x2xf32>, tensor<4x2x3xi32>, tensor<2x3x4xi32>, tensor<f32>, tensor<5x?x1xf16>
}

// CHECK-LABEL: func.func @broadcast_to
func.func @broadcast_to(%x: tensor<3xf32>, %s: tensor<i32>, %o: tensor<2x1xi1>, %d: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<4x5xi32>, tensor<7x2x6xi1>, tensor<3xf32>, tensor<?x4xf32>, tensor<5x3xf32>) {
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<3xf32> -> tensor<2x3xf32>
  %0 = trace.broadcast_to %x : tensor<3xf32> -> tensor<2x3xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<i32> -> tensor<4x5xi32>
  %1 = trace.broadcast_to %s : tensor<i32> -> tensor<4x5xi32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<2x1xi1> -> tensor<7x2x6xi1>
  %2 = trace.broadcast_to %o : tensor<2x1xi1> -> tensor<7x2x6xi1>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<3xf32> -> tensor<3xf32>
  %3 = trace.broadcast_to %x : tensor<3xf32> -> tensor<3xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<?x1xf32> -> tensor<?x4xf32>
  %4 = trace.broadcast_to %d : tensor<?x1xf32> -> tensor<?x4xf32>
  // CHECK: trace.broadcast_to %{{[a-z0-9_]+}} : tensor<3xf32> -> tensor<5x3xf32>
  %5 = trace.broadcast_to %x : tensor<3xf32> -> tensor<5x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<4x5xi32>, tensor<7x2x6xi1>, tensor<3xf32>, tensor<?x4xf32>, tensor<5x3xf32>
}

// CHECK-LABEL: func.func @concat
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %c: tensor<2x5xf32>, %v: tensor<4xi32>, %d: tensor<?x3xf32>) -> (tensor<3x3xf32>, tensor<2x8xf32>, tensor<2x11xf32>, tensor<4xi32>, tensor<8xi32>, tensor<?x3xf32>) {
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  %0 = trace.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1 = trace.concat %a, %c {axis = -1} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  %2 = trace.concat %a, %c, %a {axis = 1} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  // CHECK: trace.concat %{{[a-z0-9_]+}} {axis = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  %3 = trace.concat %v {axis = 0} : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : (tensor<4xi32>, tensor<4xi32>) -> tensor<8xi32>
  %4 = trace.concat %v, %v {axis = 0} : (tensor<4xi32>, tensor<4xi32>) -> tensor<8xi32>
  // A dynamic size along the axis makes the result dynamic there.
  // CHECK: trace.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %5 = trace.concat %d, %a {axis = 0} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x3xf32>, tensor<2x8xf32>, tensor<2x11xf32>, tensor<4xi32>, tensor<8xi32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @slice
func.func @slice(%x: tensor<2x3xf32>, %v: tensor<10xi32>, %d: tensor<?x4xf32>) -> (tensor<2x1xf32>, tensor<1x3xf32>, tensor<4xi32>, tensor<0xi32>, tensor<2x3xf32>, tensor<3x2xf32>) {
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 2, 3>, start = array<i64: 0, 1>, strides = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<2x1xf32>
  %0 = trace.slice %x {start = array<i64: 0, 1>, limit = array<i64: 2, 3>, strides = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<2x1xf32>
  // Strides default to 1.
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 2, 3>, start = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<1x3xf32>
  %1 = trace.slice %x {start = array<i64: 1, 0>, limit = array<i64: 2, 3>} : tensor<2x3xf32> -> tensor<1x3xf32>
  // Elements 0, 3, 6 and 9: ceil(10 / 3) = 4.
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 10>, start = array<i64: 0>, strides = array<i64: 3>} : tensor<10xi32> -> tensor<4xi32>
  %2 = trace.slice %v {start = array<i64: 0>, limit = array<i64: 10>, strides = array<i64: 3>} : tensor<10xi32> -> tensor<4xi32>
  // An empty slice.
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 5>, start = array<i64: 5>} : tensor<10xi32> -> tensor<0xi32>
  %3 = trace.slice %v {start = array<i64: 5>, limit = array<i64: 5>} : tensor<10xi32> -> tensor<0xi32>
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 2, 3>, start = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %4 = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 3>} : tensor<2x3xf32> -> tensor<2x3xf32>
  // Slicing a dynamic dim gives a static size.
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 4, 4>, start = array<i64: 1, 0>, strides = array<i64: 1, 2>} : tensor<?x4xf32> -> tensor<3x2xf32>
  %5 = trace.slice %d {start = array<i64: 1, 0>, limit = array<i64: 4, 4>, strides = array<i64: 1, 2>} : tensor<?x4xf32> -> tensor<3x2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x1xf32>, tensor<1x3xf32>, tensor<4xi32>, tensor<0xi32>, tensor<2x3xf32>, tensor<3x2xf32>
}

// A stride larger than the extent takes one element (and must not overflow).
// CHECK-LABEL: func.func @slice_huge_stride
func.func @slice_huge_stride(%v: tensor<10xi32>) -> tensor<1xi32> {
  // CHECK: trace.slice %{{[a-z0-9_]+}} {limit = array<i64: 10>, start = array<i64: 2>, strides = array<i64: 9223372036854775807>} : tensor<10xi32> -> tensor<1xi32>
  %0 = trace.slice %v {start = array<i64: 2>, limit = array<i64: 10>, strides = array<i64: 9223372036854775807>} : tensor<10xi32> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %d: tensor<?x3xf32>) -> (tensor<3x5xf32>, tensor<2x3xf32>, tensor<9xi32>, tensor<?x4xf32>) {
  // CHECK: trace.pad %{{[a-z0-9_]+}} {high = array<i64: 0, 2>, low = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x5xf32>
  %0 = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 2>, value = 0.0 : f64} : tensor<2x3xf32> -> tensor<3x5xf32>
  // CHECK: trace.pad %{{[a-z0-9_]+}} {high = array<i64: 0, 0>, low = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = trace.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: trace.pad %{{[a-z0-9_]+}} {high = array<i64: 3>, low = array<i64: 2>, value = -1.000000e+00 : f64} : tensor<4xi32> -> tensor<9xi32>
  %2 = trace.pad %i {low = array<i64: 2>, high = array<i64: 3>, value = -1.0 : f64} : tensor<4xi32> -> tensor<9xi32>
  // A padded dynamic dim stays dynamic.
  // CHECK: trace.pad %{{[a-z0-9_]+}} {high = array<i64: 1, 1>, low = array<i64: 2, 0>} : tensor<?x3xf32> -> tensor<?x4xf32>
  %3 = trace.pad %d {low = array<i64: 2, 0>, high = array<i64: 1, 1>} : tensor<?x3xf32> -> tensor<?x4xf32>
  return %0, %1, %2, %3 : tensor<3x5xf32>, tensor<2x3xf32>, tensor<9xi32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @pad_scalar
func.func @pad_scalar(%s: tensor<f32>) -> tensor<f32> {
  // CHECK: trace.pad %{{[a-z0-9_]+}} {high = array<i64>, low = array<i64>} : tensor<f32> -> tensor<f32>
  %0 = trace.pad %s {low = array<i64>, high = array<i64>} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @gather
func.func @gather(%p: tensor<5x3xf32>, %i: tensor<4xi32>, %j: tensor<2x2xi64>, %s: tensor<i32>, %d: tensor<?xi32>) -> (tensor<4x3xf32>, tensor<5x4xf32>, tensor<5x2x2xf32>, tensor<3xf32>, tensor<?x3xf32>, tensor<5x4xf32>) {
  // The default axis 0 is not printed.
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %0 = trace.gather %p, %i {axis = 0} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 1 : i64} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<5x4xf32>
  %1 = trace.gather %p, %i {axis = 1} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<5x4xf32>
  // params.shape[:axis] + indices.shape + params.shape[axis+1:]
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = -1 : i64} : (tensor<5x3xf32>, tensor<2x2xi64>) -> tensor<5x2x2xf32>
  %2 = trace.gather %p, %j {axis = -1} : (tensor<5x3xf32>, tensor<2x2xi64>) -> tensor<5x2x2xf32>
  // A scalar index drops the gathered dim.
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<5x3xf32>, tensor<i32>) -> tensor<3xf32>
  %3 = trace.gather %p, %s : (tensor<5x3xf32>, tensor<i32>) -> tensor<3xf32>
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : (tensor<5x3xf32>, tensor<?xi32>) -> tensor<?x3xf32>
  %4 = trace.gather %p, %d : (tensor<5x3xf32>, tensor<?xi32>) -> tensor<?x3xf32>
  // CHECK: trace.gather %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = -1 : i64} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<5x4xf32>
  %5 = trace.gather %p, %i {axis = -1} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<5x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x3xf32>, tensor<5x4xf32>, tensor<5x2x2xf32>, tensor<3xf32>, tensor<?x3xf32>, tensor<5x4xf32>
}

// CHECK-LABEL: func.func @one_hot
func.func @one_hot(%i: tensor<4xi32>, %j: tensor<2x3xi64>, %s: tensor<i32>, %d: tensor<?xi32>) -> (tensor<4x10xf32>, tensor<10x4xf32>, tensor<2x5x3xi32>, tensor<3xf16>, tensor<?x2xi1>, tensor<4x1xf32>) {
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {depth = 10 : i64} : tensor<4xi32> -> tensor<4x10xf32>
  %0 = trace.one_hot %i {depth = 10} : tensor<4xi32> -> tensor<4x10xf32>
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {axis = 0 : i64, depth = 10 : i64} : tensor<4xi32> -> tensor<10x4xf32>
  %1 = trace.one_hot %i {depth = 10, axis = 0} : tensor<4xi32> -> tensor<10x4xf32>
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {axis = -2 : i64, depth = 5 : i64, off_value = -1.000000e+00 : f64, on_value = 7.000000e+00 : f64} : tensor<2x3xi64> -> tensor<2x5x3xi32>
  %2 = trace.one_hot %j {depth = 5, axis = -2, on_value = 7.0 : f64, off_value = -1.0 : f64} : tensor<2x3xi64> -> tensor<2x5x3xi32>
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {depth = 3 : i64} : tensor<i32> -> tensor<3xf16>
  %3 = trace.one_hot %s {depth = 3} : tensor<i32> -> tensor<3xf16>
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {depth = 2 : i64} : tensor<?xi32> -> tensor<?x2xi1>
  %4 = trace.one_hot %d {depth = 2} : tensor<?xi32> -> tensor<?x2xi1>
  // CHECK: trace.one_hot %{{[a-z0-9_]+}} {depth = 1 : i64} : tensor<4xi32> -> tensor<4x1xf32>
  %5 = trace.one_hot %i {depth = 1} : tensor<4xi32> -> tensor<4x1xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x10xf32>, tensor<10x4xf32>, tensor<2x5x3xi32>, tensor<3xf16>, tensor<?x2xi1>, tensor<4x1xf32>
}

// CHECK-LABEL: func.func @sort
// CHECK: trace.sort %arg0 : tensor<4x?xf32>
// CHECK: trace.sort %arg0, %arg1 {axis = 0 : i64, descending} : tensor<4x?xf32>, tensor<4x?xi32>
func.func @sort(%x: tensor<4x?xf32>, %i: tensor<4x?xi32>) {
  %0 = trace.sort %x : tensor<4x?xf32>
  %1:2 = trace.sort %x, %i {axis = 0, descending} : tensor<4x?xf32>, tensor<4x?xi32>
  return
}
