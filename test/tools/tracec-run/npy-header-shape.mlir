// A .npy header may declare any shape: it is checked against the file's
// size and the argument's type before anything is allocated. A header
// declaring (100000000000,) with no data used to abort with "LLVM ERROR:
// out of memory".
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy.lib.format as f; h = f.header_data_from_array_1_0(__import__('numpy').zeros(1, 'f4')); h['shape'] = (100000000000,); o = open('%t/huge.npy', 'wb'); f.write_array_header_1_0(o, h)"
// RUN: %python -c "import numpy.lib.format as f; h = f.header_data_from_array_1_0(__import__('numpy').zeros(1, 'f4')); h['shape'] = (2**62, 2**62); o = open('%t/overflow.npy', 'wb'); f.write_array_header_1_0(o, h)"
// RUN: not tracec-run %s --entry sum --input x=@%t/huge.npy 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not tracec-run %s --entry small --input x=@%t/huge.npy 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tracec-run %s --entry small --input x=@%t/overflow.npy 2>&1 | FileCheck %s --check-prefix=OVERFLOW

// SIZE: tracec-run: error: input 'x' (argument 0 of @sum): {{.*}}huge.npy: holds 0 data bytes but tensor<100000000000xf32> needs 400000000000
// TYPE: tracec-run: error: input 'x' (argument 0 of @small): expected tensor<3xf32>, got tensor<100000000000xf32>
// OVERFLOW: tracec-run: error: input 'x' (argument 0 of @small): expected tensor<3xf32>, got tensor<4611686018427387904x4611686018427387904xf32>
func.func @sum(%x: tensor<100000000000xf32>) -> tensor<f32> {
  %s = trace.reduce_sum %x {axes = array<i64: 0>} : tensor<100000000000xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @small(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = trace.neg %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
