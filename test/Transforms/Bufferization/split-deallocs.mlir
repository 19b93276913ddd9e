// RUN: tracec-opt %s --trace-split-deallocs --split-input-file | FileCheck %s

// Distinct allocations, or the one view of an allocation in the list, are
// freed one by one, with their conditions.
// CHECK-LABEL: func @distinct
//  CHECK-SAME:   (%[[C:.*]]: i1)
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<4xf32>
//       CHECK:   %[[B:.*]] = memref.alloc() : memref<8xf32>
//       CHECK:   %[[V:.*]] = memref.subview %[[B]]
//       CHECK:   bufferization.dealloc (%[[A]] : memref<4xf32>) if (%[[C]])
//  CHECK-NEXT:   bufferization.dealloc (%[[V]] : {{.*}}) if (%true)
//  CHECK-NEXT:   return
func.func @distinct(%c: i1) {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  %v = memref.subview %b[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  bufferization.dealloc (%a, %v : memref<4xf32>, memref<4xf32, strided<[1], offset: 2>>) if (%c, %true)
  return
}

// -----

// Two views of one allocation stay in one dealloc (it frees the buffer
// once); the others are split off.
// CHECK-LABEL: func @views_of_one
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<4xf32>
//       CHECK:   %[[B:.*]] = memref.alloc() : memref<8xf32>
//       CHECK:   %[[V:.*]] = memref.subview %[[B]]
//       CHECK:   bufferization.dealloc (%[[A]] : memref<4xf32>)
//  CHECK-NEXT:   bufferization.dealloc (%[[B]], %[[V]] :
//  CHECK-NEXT:   return
func.func @views_of_one(%c: i1) {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  %v = memref.subview %b[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  bufferization.dealloc (%a, %b, %v : memref<4xf32>, memref<8xf32>, memref<4xf32, strided<[1], offset: 2>>) if (%true, %c, %true)
  return
}

// -----

// A memref of another origin (here an argument) may alias any of them:
// the dealloc stays whole, as does one with retained values.
// CHECK-LABEL: func @unknown_origin
//       CHECK:   bufferization.dealloc (%{{.*}}, %{{.*}} :
//   CHECK-NOT:   bufferization.dealloc
// CHECK-LABEL: func @retained
//       CHECK:   bufferization.dealloc (%{{.*}}, %{{.*}} : {{.*}}) retain
//   CHECK-NOT:   bufferization.dealloc
func.func @unknown_origin(%arg: memref<4xf32>, %c: i1) {
  %a = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %arg : memref<4xf32>, memref<4xf32>) if (%c, %c)
  return
}
func.func @retained(%r: memref<4xf32>, %c: i1) -> i1 {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %o = bufferization.dealloc (%a, %b : memref<4xf32>, memref<4xf32>) if (%c, %c) retain (%r : memref<4xf32>)
  return %o : i1
}
