// RUN: tracec-opt %s --trace-cpu-direct-filter-gradients=cpu=skylake-avx512 --canonicalize -split-input-file | FileCheck %s

// conv2d_backprop_filter of static shape becomes register tiles of the
// gradient: per tap row kh, rows (kw, c) by channels. Four tasks split the
// 8 x 10 output rows (n, oh), each zeroing and summing a partial gradient
// [KH, KW * C, F] in blocks of rows (here one block of 20 rows); per block
// and tile, a row of pixels is summed from zero in registers by one outer
// product per pixel (the R input values the rows read there with dy's
// channels), rows into the block's sum, which is added to the partial. The
// partials are summed at the end. 3 x 16 = 48 rows of 16 channels (one
// vector): tiles of 16 rows. x is read in place, never padded: a row that
// reads padding is skipped, and only the columns before and after the
// interior ones (where every row of the tile reads x) load under a guard,
// in one loop that jumps the interior.
// CHECK-LABEL: func.func @filter_gradient
// CHECK-NOT: tensor.pad
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x3x48x16xf32>
// CHECK: %[[PARTIALS:.*]] = scf.forall (%[[T:[a-z0-9_]+]]) in (4) shared_outs(%[[OUT:[a-z0-9_]+]] = %[[EMPTY]])
// CHECK: %[[MINE:.*]] = tensor.extract_slice %[[OUT]][%[[T]], 0, 0, 0] [1, 3, 48, 16]
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[MINE]] : tensor<3x48x16xf32>)
// CHECK: scf.for %[[FIRST:[a-z0-9_]+]] = {{.*}} step %c20 iter_args(%{{.*}} = %[[ZEROS]]) -> (tensor<3x48x16xf32>)
// CHECK: scf.for %[[KH:[a-z0-9_]+]] = %c0 to %c3 {{.*}} -> (tensor<3x48x16xf32>)
// CHECK: scf.for %[[TILE:[a-z0-9_]+]] = %c0 to %c3 {{.*}} -> (tensor<3x48x16xf32>)
// CHECK: %[[LO:.*]] = arith.minsi %{{.*}}, %c10 : index
// CHECK: %[[HI:.*]] = arith.maxsi %{{.*}}, %[[LO]] : index
// CHECK: scf.for %[[P:[a-z0-9_]+]] = %[[FIRST]] to {{.*}} -> (vector<16x16xf32>)
// CHECK: %[[N:.*]] = arith.divui %[[P]], %c10
// CHECK: %[[OH:.*]] = arith.remui %[[P]], %c10
// CHECK: %[[IH:.*]] = arith.addi %[[OH]], %{{.*}} : index
// CHECK: %[[ROW_GE:.*]] = arith.cmpi sge, %[[IH]], %c0
// CHECK: %[[ROW_LT:.*]] = arith.cmpi slt, %[[IH]], %c10
// CHECK: %[[ROW_OK:.*]] = arith.andi %[[ROW_GE]], %[[ROW_LT]]
// CHECK: scf.if %[[ROW_OK]] -> (vector<16x16xf32>)
// CHECK: scf.for %[[OW:[a-z0-9_]+]] = %[[LO]] to %[[HI]] {{.*}} -> (vector<16x16xf32>)
// CHECK: vector.transfer_read %arg1[%[[N]], %[[OH]], %[[OW]], %c0]{{.*}} : tensor<8x10x10x16xf32>, vector<16xf32>
// CHECK-NOT: arith.select
// CHECK-COUNT-16: tensor.extract %arg0[%[[N]], %[[IH]],
// CHECK-NOT: arith.select
// CHECK: vector.outerproduct {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %c0 to %{{.*}} -> (vector<16x16xf32>)
// CHECK: %[[AFTER:.*]] = arith.cmpi uge, %[[I]], %[[LO]] : index
// CHECK: %[[SHIFT:.*]] = arith.select %[[AFTER]], %{{.*}}, %c0 : index
// CHECK: %[[OW:.*]] = arith.addi %[[I]], %[[SHIFT]] : index
// CHECK: vector.transfer_read %arg1[%[[N]], %[[OH]], %[[OW]], %c0]{{.*}} : tensor<8x10x10x16xf32>, vector<16xf32>
// CHECK: %[[AT:.*]] = arith.select %[[OK:.*]], %{{.*}}, %c0 : index
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[N]], %[[IH]], %[[AT]], %{{.*}}]
// CHECK: arith.select %[[OK]], %[[X]], %cst{{.*}} : f32
// CHECK: vector.outerproduct {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK: } else {
// CHECK: vector.transfer_read %{{.*}}[%[[KH]], {{.*}} : tensor<3x48x16xf32>, vector<16x16xf32>
// CHECK: arith.addf {{.*}} : vector<16x16xf32>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true, true]} : vector<16x16xf32>, tensor<3x48x16xf32>
// CHECK: tensor.parallel_insert_slice
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[PARTIALS]] : tensor<4x3x48x16xf32>) {{.*}} dimensions = [0]
// CHECK: tensor.expand_shape %[[SUM]] {{\[\[}}0], [1, 2], [3]] output_shape [3, 3, 16, 16] : tensor<3x48x16xf32> into tensor<3x3x16x16xf32>
func.func @filter_gradient(%x: tensor<8x10x10x16xf32>, %dy: tensor<8x10x10x16xf32>) -> tensor<3x3x16x16xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 16, 16>, padding = array<i64: 1, 1, 1, 1>} : (tensor<8x10x10x16xf32>, tensor<8x10x10x16xf32>) -> tensor<3x3x16x16xf32>
  return %0 : tensor<3x3x16x16xf32>
}

// -----

// 3 x 3 = 9 rows, 20 channels (two vectors, the second masked: dy's rows
// read and the tile stored under a mask); unpadded, no pad.
// CHECK-LABEL: func.func @masked_channels
// CHECK-NOT: tensor.pad
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK: vector.transfer_read %arg1{{.*}} : tensor<1x4x3x20xf32>, vector<32xf32>
// CHECK-COUNT-9: tensor.extract %arg0[
// CHECK: vector.outerproduct {{.*}} : vector<9xf32>, vector<32xf32>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true, false]} : vector<9x32xf32>, tensor<2x9x20xf32>
func.func @masked_channels(%x: tensor<1x5x5x3xf32>, %dy: tensor<1x4x3x20xf32>) -> tensor<2x3x3x20xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 2, 3, 3, 20>} : (tensor<1x5x5x3xf32>, tensor<1x4x3x20xf32>) -> tensor<2x3x3x20xf32>
  return %0 : tensor<2x3x3x20xf32>
}

// -----

// A `?` batch keeps trace-to-linalg's matmuls.
// CHECK-LABEL: func.func @dynamic
// CHECK: trace.conv2d_backprop_filter
func.func @dynamic(%x: tensor<?x5x5x3xf32>, %dy: tensor<?x3x3x4xf32>) -> tensor<3x3x3x4xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 3, 4>} : (tensor<?x5x5x3xf32>, tensor<?x3x3x4xf32>) -> tensor<3x3x3x4xf32>
  return %0 : tensor<3x3x3x4xf32>
}
