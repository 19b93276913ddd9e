// random_uniform and random_normal, run by tracec-run and compared with an
// independent NumPy model of Philox4x32-10 (Inputs/philox_reference.py, which
// checks itself against Random123's known answers): uniform numbers bit for
// bit, normal ones to rounding of log/cos; statistics of large samples;
// reproducibility across compiles, new numbers on every run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/philox_reference.py | FileCheck %s --check-prefix=KAT
// RUN: %python %S/Inputs/check_random.py %s %t | FileCheck %s

// KAT-COUNT-3: ok known answer
// KAT-NOT: FAIL

// CHECK-DAG: ok uniform_f32 run 0
// CHECK-DAG: ok uniform_f32 run 2
// CHECK-DAG: ok uniform_f64 run 0
// CHECK-DAG: ok uniform_f64 run 1
// CHECK-DAG: ok uniform_f16_range run 0
// CHECK-DAG: ok uniform_bf16 run 0
// CHECK-DAG: ok normal_f32 run 0
// CHECK-DAG: ok normal_f32 run 1
// CHECK-DAG: ok normal_f64_params run 0
// CHECK-DAG: ok normal_f16 run 0
// CHECK-DAG: ok uniform_large_seed run 0
// CHECK-DAG: ok fresh compiles repeat the sequence
// CHECK-DAG: ok runs differ
// CHECK-DAG: ok seeds differ
// CHECK-DAG: ok two ops with different seeds differ
// CHECK-DAG: ok a called function draws new numbers per call
// CHECK-DAG: ok each loop iteration draws a new run
// CHECK-DAG: ok the gradient through a random op is its draw
// CHECK-DAG: ok uniform statistics
// CHECK-DAG: ok normal statistics
// CHECK-NOT: FAIL

func.func @uniform_f32() -> tensor<3x5xf32> {
  %0, %c = trace.random_uniform {seed = 42} : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func @uniform_f64() -> tensor<7xf64> {
  %0, %c = trace.random_uniform {seed = 7} : tensor<7xf64>
  return %0 : tensor<7xf64>
}
func.func @uniform_f16_range() -> tensor<4x4xf16> {
  %0, %c = trace.random_uniform {seed = 3, low = -2.0, high = 5.0} : tensor<4x4xf16>
  return %0 : tensor<4x4xf16>
}
func.func @uniform_bf16() -> tensor<9xbf16> {
  %0, %c = trace.random_uniform {seed = 11, low = 1.0, high = 1.5} : tensor<9xbf16>
  return %0 : tensor<9xbf16>
}
func.func @normal_f32() -> tensor<2x3x4xf32> {
  %0, %c = trace.random_normal {seed = 5} : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
func.func @normal_f64_params() -> tensor<10xf64> {
  %0, %c = trace.random_normal {seed = 9, mean = -3.0, stddev = 0.25} : tensor<10xf64>
  return %0 : tensor<10xf64>
}
func.func @normal_f16() -> tensor<6xf16> {
  %0, %c = trace.random_normal {seed = 2, mean = 1.0, stddev = 2.0} : tensor<6xf16>
  return %0 : tensor<6xf16>
}
// Both 32-bit words of the key matter.
func.func @uniform_large_seed() -> tensor<8xf32> {
  %0, %c = trace.random_uniform {seed = -6148914691236517206} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @uniform_seed_43() -> tensor<3x5xf32> {
  %0, %c = trace.random_uniform {seed = 43} : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func @two_ops() -> (tensor<16xf32>, tensor<16xf32>) {
  %0, %c0 = trace.random_uniform {seed = 1} : tensor<16xf32>
  %1, %c1 = trace.random_uniform {seed = 2} : tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// A function with a random op is not inlined: its one counter advances on
// each call, so the two calls draw runs 0 and 1.
func.func private @noise() -> tensor<8xf32> {
  %0, %c = trace.random_uniform {seed = 17} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @called_twice() -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = func.call @noise() : () -> tensor<8xf32>
  %1 = func.call @noise() : () -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// Large samples for the statistics.
func.func @uniform_large() -> tensor<100000xf32> {
  %0, %c = trace.random_uniform {seed = 123, low = -1.0, high = 3.0} : tensor<100000xf32>
  return %0 : tensor<100000xf32>
}
func.func @normal_large() -> tensor<500x200xf64> {
  %0, %c = trace.random_normal {seed = 321, mean = 2.0, stddev = 3.0} : tensor<500x200xf64>
  return %0 : tensor<500x200xf64>
}

// In a loop, every iteration is a run: the sum of three draws.
func.func @loop_sum() -> tensor<5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = trace.constant dense<0.0> : tensor<5xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (tensor<5xf32>) {
    %u, %c = trace.random_uniform {seed = 8} : tensor<5xf32>
    %s = trace.add %acc, %u : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    scf.yield %s : tensor<5xf32>
  }
  return %r : tensor<5xf32>
}

// A differentiated function draws too: d/dw sum(w * u) = u.
func.func @masked_sum(%w: tensor<6xf32>) -> tensor<f32> {
  %u, %c = trace.random_uniform {seed = 6} : tensor<6xf32>
  %m = trace.mul %w, %u : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %s = trace.reduce_sum %m {axes = array<i64: 0>} : tensor<6xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grad_of_masked_sum(%w: tensor<6xf32>) -> tensor<6xf32> {
  %g = trace.grad @masked_sum(%w) {wrt = array<i64: 0>} : (tensor<6xf32>) -> tensor<6xf32>
  return %g : tensor<6xf32>
}
