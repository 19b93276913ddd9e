// More blocks in the grid's y dimension than CUDA allows (65535) is a
// diagnostic at compile time, not a failed launch. One row per block
// (tile-sizes=1,2) needs 100000 blocks along y; the default tiles (128 rows
// of 2 per block) need 782.
// RUN: not tracec-opt %s "--tracec-gpu-pipeline=tile-sizes=1,2" 2>&1 | FileCheck %s
// RUN: tracec-opt %s --tracec-gpu-pipeline -o /dev/null
// CHECK: grid-limit.mlir:[[@LINE+2]]:8: error: needs 100000 blocks in grid y, over CUDA's 65535 (use larger tile-sizes)
func.func @tall(%x: tensor<100000x2xf32>) -> tensor<100000x2xf32> {
  %0 = trace.exp %x : tensor<100000x2xf32>
  return %0 : tensor<100000x2xf32>
}
