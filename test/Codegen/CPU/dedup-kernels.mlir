// RUN: tracec-opt %s --trace-cpu-dedup-kernels -split-input-file | FileCheck %s

// Two steps of the same cell: the chain each repeats (a tanh into a
// matmul whose accumulator is filled: ops used once each, by the next)
// becomes one private, internal, noinline function that both steps call,
// with the empty tensor and the constant cloned in; the second step takes
// the first one's result. The exp occurs once and stays.
// CHECK-LABEL: func.func @steps
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>)
// CHECK:         %[[M1:.*]] = call @[[CELL:steps_linalg_matmul]](%[[X]], %[[W]]) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[M2:.*]] = call @[[CELL]](%[[M1]], %[[W]])
// CHECK:         %[[U:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:         return %[[M1]], %[[M2]], %[[U]]
// CHECK:       func.func private @[[CELL]](%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:    attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"], trace.borrows_arguments, trace.tensor_kernel}
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0.0
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK:           math.tanh
// CHECK:         %[[I:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4x8xf32>)
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[T]], %[[B]] : {{.*}}) outs(%[[I]] : tensor<4x8xf32>)
// CHECK:         return %[[M]]
// CHECK-NOT:   func.func
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @steps(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m1 = linalg.matmul ins(%t1, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%i1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%t2, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%i2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.exp %in : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %m1, %m2, %u : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Not twins: the constants differ (they are part of the kernel), the
// shapes differ, a value used twice is not two values, a size is dynamic.
// Nothing is outlined.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT:     call
// CHECK-NOT:   func.func private
#id = affine_map<(d0) -> (d0)>
func.func @distinct(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<4xf32>, %d: tensor<?xf32>, %n: index)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<?xf32>, tensor<?xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %b = linalg.fill ins(%two : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %c = linalg.fill ins(%one : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %pr = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%d : tensor<?xf32>) -> tensor<?xf32>
  %f2 = linalg.fill ins(%one : f32) outs(%d : tensor<?xf32>) -> tensor<?xf32>
  return %a, %b, %c, %sq, %pr, %f1, %f2 : tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<?xf32>, tensor<?xf32>
}
