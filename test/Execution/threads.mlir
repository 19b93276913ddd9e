// The JIT with threads computes what it computes serially, bit for bit:
// only parallel dimensions are split across threads, so every element
// comes from the same operations in the same order. The loops here are
// large enough to run in parallel (test/Pipelines/cpu-openmp.mlir shows
// the omp.parallel regions), and the results are written with full
// precision as .npy files and compared byte for byte. NumPy checks the
// serial result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec-run %s --entry f --threads 1 --output-dir %t/serial | FileCheck %s --check-prefix=WROTE
// RUN: tracec-run %s --entry f --threads 2 --output-dir %t/two
// RUN: env OMP_NUM_THREADS=2 tracec-run %s --entry f --output-dir %t/default
// Each region's first two runs fork, its third is a serial sample
// (trace-cpu-adaptive-parallel); without the policy every region forks.
// RUN: tracec-run %s --entry f --threads 2 --repeat 3 --output-dir %t/second
// RUN: tracec-run %s --entry f --threads 2 --adaptive-parallel=0 --output-dir %t/forked
// Each intermediate in bytes of its own (docs/design/parallel-runtime.md).
// RUN: tracec-run %s --entry f --threads 2 --workspace-share-bytes=0 --output-dir %t/unshared
// RUN: cmp %t/serial/f_result0.npy %t/unshared/f_result0.npy
// RUN: cmp %t/serial/f_result1.npy %t/unshared/f_result1.npy
// RUN: cmp %t/serial/f_result0.npy %t/second/f_result0.npy
// RUN: cmp %t/serial/f_result1.npy %t/second/f_result1.npy
// RUN: cmp %t/serial/f_result0.npy %t/forked/f_result0.npy
// RUN: cmp %t/serial/f_result1.npy %t/forked/f_result1.npy
// RUN: cmp %t/serial/f_result0.npy %t/two/f_result0.npy
// RUN: cmp %t/serial/f_result1.npy %t/two/f_result1.npy
// RUN: cmp %t/serial/f_result0.npy %t/default/f_result0.npy
// RUN: cmp %t/serial/f_result1.npy %t/default/f_result1.npy
// RUN: %python %S/Inputs/check_threads.py %t/serial

// WROTE: f_result0.npy
func.func @f() -> (tensor<256x128xf32>, tensor<128xf32>) {
  %i = trace.iota {axis = 0} : tensor<256x64xf32>
  %j = trace.iota {axis = 1} : tensor<256x64xf32>
  %x0 = trace.mul %i, %j : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
  %x = trace.sin %x0 : tensor<256x64xf32>
  %k = trace.iota {axis = 0} : tensor<64x128xf32>
  %n = trace.iota {axis = 1} : tensor<64x128xf32>
  %w0 = trace.add %k, %n : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %w = trace.cos %w0 : tensor<64x128xf32>
  %h = trace.matmul %x, %w : (tensor<256x64xf32>, tensor<64x128xf32>) -> tensor<256x128xf32>
  %y = trace.tanh %h : tensor<256x128xf32>
  %s = trace.reduce_sum %y {axes = array<i64: 0>} : tensor<256x128xf32> -> tensor<128xf32>
  return %y, %s : tensor<256x128xf32>, tensor<128xf32>
}
