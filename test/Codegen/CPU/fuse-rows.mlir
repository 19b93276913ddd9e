// RUN: tracec-opt %s --trace-cpu-fuse-rows | FileCheck %s

// A row chain (a row sum, then an outer product with it) is tiled to one
// row with its linalg producers fused; a call of a deduplicated kernel
// (trace-cpu-dedup-kernels) feeding it stays outside, called once (cloned
// into the row loop it ran whole once per row).

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d1)>
#rhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func private @relu(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {trace.tensor_kernel} {
  %0 = tensor.empty() : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @outer_product_of_a_kernel_call
// CHECK: call @relu
// CHECK: scf.forall
// CHECK-NOT: call @relu
// CHECK: linalg.generic
// CHECK: scf.forall.in_parallel
func.func @outer_product_of_a_kernel_call(%x: tensor<8x16xf32>, %y: tensor<8x10xf32>) -> tensor<8x16x10xf32> {
  %r = call @relu(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<8x10xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x10xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %sum : tensor<8x10xf32>, tensor<8xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<8x10xf32>
  %e3 = tensor.empty() : tensor<8x16x10xf32>
  %p = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r, %d : tensor<8x16xf32>, tensor<8x10xf32>) outs(%e3 : tensor<8x16x10xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x16x10xf32>
  return %p : tensor<8x16x10xf32>
}
