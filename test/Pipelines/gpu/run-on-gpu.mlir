// REQUIRES: cuda
// The execution suites, run on the GPU (tracec-run --target=cuda) against
// the same NumPy references as on the CPU. lit reports this test
// UNSUPPORTED where no CUDA driver (libcuda.so.1) is found.
// RUN: rm -rf %t && mkdir -p %t/e %t/m
// RUN: env TRACEC_RUN_FLAGS=--target=cuda %python %S/../../Execution/Inputs/check_elementwise.py %S/../../Execution/elementwise.mlir %t/e | FileCheck %S/../../Execution/elementwise.mlir
// RUN: env TRACEC_RUN_FLAGS=--target=cuda %python %S/../../Execution/Inputs/check_matmul_reductions.py %S/../../Execution/matmul-reductions.mlir %t/m | FileCheck %S/../../Execution/matmul-reductions.mlir
// RUN: %python %S/../../tools/tracec-run/Inputs/dense_case.py make %t
// RUN: tracec-run %S/../../tools/tracec-run/numpy-reference.mlir --target=cuda --entry dense --input x=@%t/x.npy --input w=@%t/w.npy --input b=@%t/b.npy --output-dir %t/out
// RUN: %python %S/../../tools/tracec-run/Inputs/dense_case.py check %t/out/dense_result0.npy %t/expected.npy | FileCheck %S/../../tools/tracec-run/numpy-reference.mlir --check-prefix=NUMPY
