// RUN: tracec-opt %s --trace-to-linalg --linalg-fuse-elementwise-ops --trace-cpu-vectorize="target-cpu=skylake-avx512 dynamic-inner=true" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=AVX512
// RUN: tracec-opt %s --trace-to-linalg --linalg-fuse-elementwise-ops --trace-cpu-vectorize=target-cpu=x86-64-v3 --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: not tracec-opt %s --trace-cpu-vectorize=target-cpu=no-such-cpu -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// A fused elementwise chain: one loop of full vectors (16 f32 lanes with
// AVX-512, 8 with AVX2), then the remainder (1000 = 62 * 16 + 8) as one
// shorter vector, no masks.
// AVX512-LABEL: func.func @elementwise
// AVX512: scf.for %[[I:.*]] = %c0 to %c992 step %c16
// AVX512:   %[[X:.*]] = vector.transfer_read %arg0[%[[I]]]{{.*}} : tensor<1000xf32>, vector<16xf32>
// AVX512:   %[[Y:.*]] = vector.transfer_read %arg1[%[[I]]]{{.*}} : tensor<1000xf32>, vector<16xf32>
// AVX512:   %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : vector<16xf32>
// AVX512:   math.tanh %[[M]] : vector<16xf32>
// AVX512: vector.transfer_read %arg0[%c992]{{.*}} : tensor<1000xf32>, vector<8xf32>
// AVX512: math.tanh %{{.*}} : vector<8xf32>
// AVX512-NOT: vector.mask
// AVX512-NOT: linalg.generic
// AVX2-LABEL: func.func @elementwise
// AVX2: scf.for %{{.*}} = %c0 to %c1000 step %c8
// AVX2:   math.tanh %{{.*}} : vector<8xf32>
// BAD: error: trace-cpu-vectorize: unknown CPU 'no-such-cpu'
func.func @elementwise(%x: tensor<1000xf32>, %y: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = trace.mul %x, %y : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  %1 = trace.tanh %0 : tensor<1000xf32>
  return %1 : tensor<1000xf32>
}

// -----

// A broadcast operand is read once per vector of the row and broadcast
// across the rows; rows of 100 = 6 * 16 + 4. The rows, independent, are an
// scf.forall (which threads may share).
// AVX512-LABEL: func.func @broadcast
// AVX512: scf.forall (%[[R:.*]]) in (37)
// AVX512:   scf.for %[[C:.*]] = %c0 to %c96 step %c16
// AVX512:     vector.transfer_read %arg0[%[[R]], %[[C]]]{{.*}} : tensor<37x100xf32>, vector<1x16xf32>
// AVX512:     vector.transfer_read %arg1[%[[C]]]{{.*}} : tensor<100xf32>, vector<16xf32>
// AVX512:     vector.broadcast
// AVX512:     arith.addf {{.*}} : vector<1x16xf32>
// AVX512:   arith.addf {{.*}} : vector<1x4xf32>
func.func @broadcast(%x: tensor<37x100xf32>, %b: tensor<100xf32>) -> tensor<37x100xf32> {
  %0 = trace.add %x, %b : (tensor<37x100xf32>, tensor<100xf32>) -> tensor<37x100xf32>
  return %0 : tensor<37x100xf32>
}

// -----

// A reduction along the rows: 16 lane accumulators carried through the
// loop as a vector, the 4 left over added into the first lanes, one
// reduction across the lanes per row.
// AVX512-LABEL: func.func @row_sums
// AVX512: scf.forall (%[[R:.*]]) in (8)
// AVX512:   %[[ACC:.*]] = scf.for %[[C:.*]] = %c0 to %c96 step %c16 iter_args(%[[A:.*]] = %cst) -> (vector<1x16xf32>)
// AVX512:     %[[V:.*]] = vector.transfer_read %arg0[%[[R]], %[[C]]]
// AVX512:     arith.addf %[[V]], %[[A]] : vector<1x16xf32>
// AVX512:   arith.addf {{.*}} : vector<1x4xf32>
// AVX512:   vector.multi_reduction <add>, {{.*}} [1] : vector<1x16xf32> to vector<1xf32>
func.func @row_sums(%x: tensor<8x100xf32>) -> tensor<8xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<8x100xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A reduction across the rows: the innermost loop is parallel, so the
// accumulator row is updated a vector at a time.
// AVX512-LABEL: func.func @column_max
// AVX512: scf.for %{{.*}} = %c0 to %c8 step %c1
// AVX512:   scf.for %{{.*}} = %c0 to %c96 step %c16
// AVX512:     arith.maximumf {{.*}} : vector<16xf32>
// AVX512:   arith.maximumf {{.*}} : vector<4xf32>
func.func @column_max(%x: tensor<8x100xf32>) -> tensor<100xf32> {
  %0 = trace.reduce_max %x {axes = array<i64: 0>} : tensor<8x100xf32> -> tensor<100xf32>
  return %0 : tensor<100xf32>
}

// -----

// f64: 8 lanes with AVX-512.
// AVX512-LABEL: func.func @f64
// AVX512: math.exp %{{.*}} : vector<8xf64>
func.func @f64(%x: tensor<64xf64>) -> tensor<64xf64> {
  %0 = trace.exp %x : tensor<64xf64>
  return %0 : tensor<64xf64>
}

// -----

// Contractions and their accumulator's fill are left to the contraction
// passes.
// AVX512-LABEL: func.func @matmul
// AVX512: linalg.fill
// AVX512: linalg.matmul
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = trace.matmul %a, %b : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// A pooling is its window's taps (strided slices of the input) combined
// elementwise, vectorized along the channels, and so is its -inf fill (as
// scalar loops, LLVM's loop vectorizer took 60 ms on each). The ops of
// pooling gradients that reduce over a window are taps too (below).
// AVX512-LABEL: func.func @max_pool
// AVX512: %[[NEG_INF:.*]] = arith.constant dense<0xFF800000> : vector<1x1x1x16xf32>
// AVX512: vector.transfer_write %[[NEG_INF]]
// AVX512: %[[T00:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [2, 4, 4, 16] [1, 2, 2, 1]
// AVX512: %[[T01:.*]] = tensor.extract_slice %arg0[0, 0, 1, 0] [2, 4, 4, 16] [1, 2, 2, 1]
// AVX512: %[[T10:.*]] = tensor.extract_slice %arg0[0, 1, 0, 0] [2, 4, 4, 16] [1, 2, 2, 1]
// AVX512: %[[T11:.*]] = tensor.extract_slice %arg0[0, 1, 1, 0] [2, 4, 4, 16] [1, 2, 2, 1]
// AVX512: scf.forall
// AVX512: %[[V00:.*]] = vector.transfer_read %[[T00]]
// AVX512: %[[V01:.*]] = vector.transfer_read %[[T01]]
// AVX512: %[[V10:.*]] = vector.transfer_read %[[T10]]
// AVX512: %[[V11:.*]] = vector.transfer_read %[[T11]]
// AVX512: %[[ACC:.*]] = vector.transfer_read
// AVX512: %[[M0:.*]] = arith.maximumf %[[ACC]], %[[V00]] : vector<1x1x1x16xf32>
// AVX512: %[[M1:.*]] = arith.maximumf %[[M0]], %[[V01]]
// AVX512: %[[M2:.*]] = arith.maximumf %[[M1]], %[[V10]]
// AVX512: %[[M3:.*]] = arith.maximumf %[[M2]], %[[V11]]
// AVX512: vector.transfer_write %[[M3]]
// AVX512-NOT: linalg.pooling_nhwc_max
func.func @max_pool(%x: tensor<2x8x8x16xf32>) -> tensor<2x4x4x16xf32> {
  %0 = trace.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x8x8x16xf32> -> tensor<2x4x4x16xf32>
  return %0 : tensor<2x4x4x16xf32>
}

// -----

// max_pool2d_grad's window argmax (value and index carried per tap, the
// first maximum in window order winning) and its gather of dy, as taps:
// no reduction loop is left, and the index selects are vectors (8 lanes:
// the indices are i64).
// AVX512-LABEL: func.func @max_pool_grad
// AVX512-NOT: reduction
// AVX512: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<1x1x1x8xi1>, vector<1x1x1x8xi64>
// AVX512-NOT: reduction
// AVX512: return
func.func @max_pool_grad(%x: tensor<2x9x9x32xf32>, %dy: tensor<2x4x4x32xf32>) -> tensor<2x9x9x32xf32> {
  %0 = trace.max_pool2d_grad %x, %dy {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : (tensor<2x9x9x32xf32>, tensor<2x4x4x32xf32>) -> tensor<2x9x9x32xf32>
  return %0 : tensor<2x9x9x32xf32>
}

// -----

// A window of more than 16 taps (global pooling) stays a pooling.
// AVX512-LABEL: func.func @global_avg_pool
// AVX512: linalg.pooling_nhwc_sum
func.func @global_avg_pool(%x: tensor<2x7x7x16xf32>) -> tensor<2x1x1x16xf32> {
  %0 = trace.avg_pool2d %x {window = array<i64: 7, 7>, strides = array<i64: 1, 1>} : tensor<2x7x7x16xf32> -> tensor<2x1x1x16xf32>
  return %0 : tensor<2x1x1x16xf32>
}

// -----

// A contraction without m and n dims (a row-wise dot product, as softmax's
// gradient has) is a reduction: vectorized along its contiguous k.
// AVX512-LABEL: func.func @row_dot
// AVX512-NOT: linalg.generic
// AVX512: arith.mulf %{{.*}} : vector<1x16xf32>
// AVX512: vector.multi_reduction <add>
func.func @row_dot(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8xf32> {
  %0 = trace.mul %x, %y : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %1 = trace.reduce_sum %0 {axes = array<i64: 1>} : tensor<8x64xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Booleans (one byte each in memory, one bit each in a vector) stay loops.
// AVX512-LABEL: func.func @compare
// AVX512: linalg.generic
func.func @compare(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xi1> {
  %0 = trace.lt %x, %y : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  return %0 : tensor<64xi1>
}

// -----

// A `?` innermost dim: full vectors while they fit (no mask), then the
// remainder of fewer than 16 as one masked vector per row, never a scalar
// loop.
// AVX512-LABEL: func.func @dynamic_inner
// AVX512: %[[N:.*]] = tensor.dim %arg0, %c1
// AVX512: scf.forall (%[[R:.*]]) in (4)
// AVX512:   %[[FULL:.*]] = affine.apply #{{.*}}()[%[[N]]]
// AVX512:   scf.for %[[C:.*]] = %c0 to %[[FULL]] step %c16
// AVX512:     vector.transfer_read %arg0[%[[R]], %[[C]]]{{.*}} : tensor<4x?xf32>, vector<1x16xf32>
// AVX512:     math.tanh %{{.*}} : vector<1x16xf32>
// AVX512:   scf.for %[[REST:.*]] = %[[FULL]] to %[[N]] step %c16
// AVX512:     %[[LEFT:.*]] = affine.apply #{{.*}}(%[[REST]])[%[[N]]]
// AVX512:     %[[MASK:.*]] = vector.create_mask %c1, %[[LEFT]] : vector<1x16xi1>
// AVX512:     vector.mask %[[MASK]] { vector.transfer_read %arg0[%[[R]], %[[REST]]]
// AVX512:     math.tanh %{{.*}} : vector<1x16xf32>
// AVX512:     vector.mask %[[MASK]] { vector.transfer_write
// AVX512-NOT: linalg.generic
func.func @dynamic_inner(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = trace.tanh %x : tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// A 1-D `?` op: the remainder is one masked vector.
// AVX512-LABEL: func.func @dynamic_1d
// AVX512: %[[N:.*]] = tensor.dim %arg0, %c0
// AVX512: %[[FULL:.*]] = affine.apply #{{.*}}()[%[[N]]]
// AVX512: scf.for %{{.*}} = %c0 to %[[FULL]] step %c16
// AVX512:   math.tanh %{{.*}} : vector<16xf32>
// AVX512: scf.for %{{.*}} = %[[FULL]] to %[[N]] step %c16
// AVX512:   %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// AVX512:   vector.mask %[[MASK]] { vector.transfer_read
// AVX512:   math.tanh %{{.*}} : vector<16xf32>
// AVX512:   vector.mask %[[MASK]] { vector.transfer_write
func.func @dynamic_1d(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = trace.tanh %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A row reduction over a `?` dim: 16 lane accumulators over the full
// vectors, the remainder added into the first lanes under a mask, one
// reduction across the lanes.
// AVX512-LABEL: func.func @dynamic_row_sums
// AVX512: scf.forall
// AVX512:   scf.for {{.*}} step %c16 iter_args(%{{.*}} = %cst) -> (vector<1x16xf32>)
// AVX512:     arith.addf %{{.*}}, %{{.*}} : vector<1x16xf32>
// AVX512:   %[[MASK:.*]] = vector.create_mask %c1, %{{.*}} : vector<1x16xi1>
// AVX512:   vector.mask %[[MASK]] { vector.transfer_read %arg0
// AVX512:   arith.addf %{{.*}}, %{{.*}} : vector<1x16xf32>
// AVX512:   vector.multi_reduction <add>, {{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// AVX512-NOT: linalg.generic
func.func @dynamic_row_sums(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// One long row (1-D, or unit outer dims) has no outer loop for the threads
// to split: it becomes chunks of 4096 elements in an scf.forall, each a
// loop of vectors (8192 = 2 chunks; 10000 = 2 full chunks and one of 1808,
// whose vector loop has its remainder peeled).
// AVX512-LABEL: func.func @long_row
// AVX512: scf.forall (%[[C:.*]]) = (0) to (8192) step (4096)
// AVX512:   scf.for %{{.*}} = %c0 to %c4096 step %c16
// AVX512:     math.tanh %{{.*}} : vector<16xf32>
// AVX512-LABEL: func.func @long_row_unit_outer
// AVX512: scf.forall (%[[C:.*]]) = (0) to (10000) step (4096)
// AVX512:   scf.for
// AVX512:     math.tanh %{{.*}} : vector<1x16xf32>
func.func @long_row(%x: tensor<8192xf32>) -> tensor<8192xf32> {
  %0 = trace.tanh %x : tensor<8192xf32>
  return %0 : tensor<8192xf32>
}

func.func @long_row_unit_outer(%x: tensor<1x10000xf32>) -> tensor<1x10000xf32> {
  %0 = trace.tanh %x : tensor<1x10000xf32>
  return %0 : tensor<1x10000xf32>
}
