// Random numbers ahead of time: the generator is plain arithmetic and its
// run counter a global in the object, so the object needs no symbol for
// them (only the CPU dispatch's getenv and strcmp), and its numbers are the
// JIT's: the first and second runs of a fresh module, as tracec-run
// computes them.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry draw --class random -o %t/random.o --header %t/random.h
// RUN: nm -u %t/random.o | FileCheck %s --check-prefix=UNDEFINED --implicit-check-not=U
// RUN: tracec %s --entry draw --class random --target-cpu=native -o %t/native.o
// RUN: nm -u %t/native.o | count 0
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/random-driver.c %t/random.o -lm -o %t/driver
// RUN: %t/driver | FileCheck %s --check-prefix=AOT
// RUN: tracec-run %s --entry draw | FileCheck %s --check-prefix=JIT0
// RUN: tracec-run %s --entry draw --repeat 2 | FileCheck %s --check-prefix=JIT1

// UNDEFINED: U getenv
// UNDEFINED: U strcmp
// AOT: call 0: 0.22591972 0.97543728 0.65173364 0.45919847
// AOT: call 1: -0.97988236 -0.74220073 -0.57442474 -0.7612983
// JIT0: [0.22591972 0.9754373  0.65173364 0.45919847]
// JIT1: [-0.97988236 -0.74220073 -0.57442474 -0.7612983 ]
func.func @draw() -> tensor<4xf32> {
  %u, %c = trace.random_uniform {seed = 42, low = -1.0, high = 1.0} : tensor<4xf32>
  return %u : tensor<4xf32>
}
