// Portable objects: by default the object carries the model for x86-64-v3
// (AVX2, FMA) and x86-64-v4 (AVX-512), and each C function runs the best
// variant the CPU has, from CPUID at the first call; TRACEC_MAX_CPU caps
// the level. A CPU with none of the levels gets TRACEC_AOT_UNSUPPORTED_CPU
// from every call, not SIGILL. Every variant computes the same numbers.
//
// REQUIRES: avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry mm --class cpu -o %t/cpu.o --header %t/cpu.h
// RUN: FileCheck %s --check-prefix=HEADER < %t/cpu.h
// RUN: nm %t/cpu.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/cpu-dispatch-driver.c %t/cpu.o -lm -o %t/driver
// RUN: %t/driver | FileCheck %s --check-prefix=V4
// RUN: env TRACEC_MAX_CPU=x86-64-v3 %t/driver | FileCheck %s --check-prefix=V3
// RUN: env TRACEC_MAX_CPU=x86-64-v2 %t/driver | FileCheck %s --check-prefix=NONE
// RUN: env TRACEC_MAX_CPU=no-such-level %t/driver | FileCheck %s --check-prefix=V4
//
// A list adds levels: x86-64-v2 (SSE4.2) runs where the CPU has no AVX.
// RUN: tracec %s --entry mm --class cpu --target-cpu=x86-64-v4,x86-64-v2,x86-64-v3 -o %t/cpu.o
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/cpu-dispatch-driver.c %t/cpu.o -lm -o %t/driver3
// RUN: env TRACEC_MAX_CPU=x86-64-v2 %t/driver3 | FileCheck %s --check-prefix=V2
// RUN: env TRACEC_MAX_CPU=x86-64 %t/driver3 | FileCheck %s --check-prefix=NONE
//
// Each variant's code is for its level only: x86-64-v3 code has no AVX-512
// register, x86-64-v4 code has; the dispatch itself is plain x86-64.
// RUN: tracec %s --entry mm --class cpu --target-cpu=x86-64-v3 -o - --emit=asm | FileCheck %s --check-prefix=ASM3 --implicit-check-not=zmm
// RUN: tracec %s --entry mm --class cpu --target-cpu=x86-64-v4 -o - --emit=asm | FileCheck %s --check-prefix=ASM4
//
// One named CPU: no dispatch, no check.
// RUN: tracec %s --entry mm --class cpu --target-cpu=native -o %t/cpu.o
// RUN: nm %t/cpu.o | FileCheck %s --check-prefix=NATIVE --implicit-check-not=select_variant
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/cpu-dispatch-driver.c %t/cpu.o -lm -o %t/native
// RUN: %t/native | FileCheck %s --check-prefix=NATIVE-OUT
//
// RUN: not tracec %s --entry mm --target-cpu=x86-64-v3,skylake-avx512 -o %t/x.o 2>&1 | FileCheck %s --check-prefix=NOT-LEVEL
// RUN: not tracec %s --entry mm --target-cpu=x86-64-v3,x86-64-v3 -o %t/x.o 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not tracec %s --entry mm --target-cpu=x86-64-v9 -o %t/x.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// HEADER: #define TRACEC_AOT_UNSUPPORTED_CPU 4
// HEADER: const char *cpu_target_cpu(void);

// SYMBOLS-DAG: t cpu_mm.x86-64-v3
// SYMBOLS-DAG: t cpu_mm.x86-64-v4
// SYMBOLS-DAG: T cpu_mm
// SYMBOLS-DAG: T cpu_target_cpu

// V4: cpu x86-64-v4 status 0
// V4-NEXT: match
// V3: cpu x86-64-v3 status 0
// V3-NEXT: match
// V2: cpu x86-64-v2 status 0
// V2-NEXT: match
// NONE: cpu (none) status 4
// NONE-NOT: match

// ASM3: ymm
// ASM3: "cpu_mm.x86-64-v3":
// ASM3: cpu_mm:
// ASM4: zmm
// ASM4: "cpu_mm.x86-64-v4":

// NATIVE: T cpu_mm
// NATIVE: T cpu_target_cpu
// NATIVE-OUT: cpu native status 0
// NATIVE-OUT-NEXT: match

// NOT-LEVEL: error: --target-cpu: 'skylake-avx512' in a list: an object picks among x86-64 levels only (x86-64, x86-64-v2, x86-64-v3, x86-64-v4)
// TWICE: error: --target-cpu: 'x86-64-v3' is listed twice
// UNKNOWN: error: --target-cpu: unknown CPU 'x86-64-v9'
func.func @mm(%x: tensor<37x53xf32>, %w: tensor<53x29xf32>) -> (tensor<37x29xf32>, tensor<f32>) {
  %p = trace.matmul %x, %w : (tensor<37x53xf32>, tensor<53x29xf32>) -> tensor<37x29xf32>
  %y = trace.tanh %p : tensor<37x29xf32>
  %s = trace.reduce_sum %p {axes = array<i64: 0, 1>} : tensor<37x29xf32> -> tensor<f32>
  return %y, %s : tensor<37x29xf32>, tensor<f32>
}
