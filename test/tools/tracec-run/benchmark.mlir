// tracec-run --benchmark: the report's format (never its numbers), the
// results of the last call after it, and the flag's errors.
// RUN: tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=4 | FileCheck %s
// RUN: tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=1 --benchmark-warmup=1 | FileCheck %s --check-prefix=ONE
// RUN: tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark | FileCheck %s --check-prefix=AUTO
// RUN: rm -rf %t && tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=2 --output-dir %t | FileCheck %s --check-prefix=OUTDIR
// The compile cache: the second process loads the first one's object.
// RUN: rm -rf %t.cache && env -u TRACEC_DISABLE_CACHE TRACEC_CACHE_DIR=%t.cache tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=1 | FileCheck %s --check-prefix=MISS
// RUN: env -u TRACEC_DISABLE_CACHE TRACEC_CACHE_DIR=%t.cache tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=1 | FileCheck %s --check-prefix=HIT
// RUN: env TRACEC_DISABLE_CACHE=1 TRACEC_CACHE_DIR=%t.cache tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=1 | FileCheck %s --check-prefix=OFF
// RUN: not tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=many 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=3 --repeat=3 2>&1 | FileCheck %s --check-prefix=BOTH

// CHECK:      benchmark @f: 4 calls after 2 warm-up calls, outputs preallocated
// CHECK-NEXT:   compile  {{[0-9]+\.[0-9]{3} (s|ms|us|ns)}} ({{pipeline .*, optimize .*, codegen .*|cache hit}})
// CHECK-NEXT:   min      {{[0-9]+\.[0-9]{3} (s|ms|us|ns)$}}
// CHECK-NEXT:   median   {{[0-9]+\.[0-9]{3} (s|ms|us|ns)$}}
// CHECK-NEXT:   max      {{[0-9]+\.[0-9]{3} (s|ms|us|ns)$}}
// CHECK-NEXT: result 0: tensor<3xf32>
// CHECK-NEXT: [2. 4. 6.]

// ONE: benchmark @f: 1 calls after 1 warm-up call, outputs preallocated
// ONE: [2. 4. 6.]

// AUTO: benchmark @f: {{[0-9]+}} calls after 2 warm-up calls
// AUTO: median

// OUTDIR: median
// OUTDIR: wrote {{.*}}f_result0.npy

// MISS: compile {{.*}} (pipeline {{.*}}; cached)
// MISS: [2. 4. 6.]
// HIT: compile {{.*}} (cache hit)
// HIT: [2. 4. 6.]
// OFF: compile {{.*}} (pipeline {{.*}}, codegen {{[^;]*}})
// OFF-NOT: cache

// ZERO: tracec-run: error: --benchmark={{0|many}}: expected a number of calls of at least 1
// BOTH: tracec-run: error: --repeat and --benchmark both set how often the function runs: use --benchmark=N alone
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = trace.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
