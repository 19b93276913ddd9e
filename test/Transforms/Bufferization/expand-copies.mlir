// RUN: tracec-opt %s --trace-expand-copies -split-input-file | FileCheck %s

// A copy becomes a linalg.copy, which the loop lowering expands inline.
// CHECK-LABEL: func.func @strided_copy
// CHECK: linalg.copy ins(%arg0 : memref<4x4xf32, strided<[8, 1]>>) outs(%arg1 : memref<4x4xf32>)
// CHECK-NOT: memref.copy
func.func @strided_copy(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// -----

// A slice updated in place through reshapes that drop its unit dim, then
// "inserted" back (a bufferized tensor.insert_slice): the copy writes each
// element onto itself and is dropped.
// CHECK-LABEL: func.func @copy_onto_itself
// CHECK-NOT: copy
// CHECK: return
func.func @copy_onto_itself(%a: memref<1x57x57x64xf32>) {
  %s = memref.subview %a[0, 0, 0, 0] [1, 28, 28, 64] [1, 2, 2, 1] : memref<1x57x57x64xf32> to memref<1x28x28x64xf32, strided<[207936, 7296, 128, 1]>>
  %c = memref.collapse_shape %s [[0, 1], [2], [3]] : memref<1x28x28x64xf32, strided<[207936, 7296, 128, 1]>> into memref<28x28x64xf32, strided<[7296, 128, 1]>>
  %e = memref.expand_shape %c [[0, 1], [2], [3]] output_shape [1, 28, 28, 64] : memref<28x28x64xf32, strided<[7296, 128, 1]>> into memref<1x28x28x64xf32, strided<[204288, 7296, 128, 1]>>
  memref.copy %e, %s : memref<1x28x28x64xf32, strided<[204288, 7296, 128, 1]>> to memref<1x28x28x64xf32, strided<[207936, 7296, 128, 1]>>
  return
}

// -----

// Two different slices of one buffer: a real copy.
// CHECK-LABEL: func.func @copy_between_slices
// CHECK: linalg.copy
func.func @copy_between_slices(%a: memref<8x4xf32>) {
  %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1]>>
  %t = memref.subview %a[4, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
  memref.copy %s, %t : memref<4x4xf32, strided<[4, 1]>> to memref<4x4xf32, strided<[4, 1], offset: 16>>
  return
}
