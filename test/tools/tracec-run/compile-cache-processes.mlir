// Four processes compile the same module into one compile cache at once:
// each writes its entry to a temporary file and renames it into place, so
// every process gets the right result, no temporary is left behind, and
// the cache holds one entry that a fifth process hits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env -u TRACEC_DISABLE_CACHE TRACEC_CACHE_DIR=%t/cache bash -c 'pids=(); for i in 1 2 3 4; do tracec-run "$0" --entry f --input x="[1, 2, 3]" --benchmark=1 > %t/out$i 2>&1 & pids+=($!); done; for p in "${pids[@]}"; do wait $p || exit 1; done' %s
// RUN: cat %t/out1 %t/out2 %t/out3 %t/out4 | FileCheck %s --check-prefix=EACH
// RUN: ls %t/cache | FileCheck %s --check-prefix=ENTRIES
// RUN: env -u TRACEC_DISABLE_CACHE TRACEC_CACHE_DIR=%t/cache tracec-run %s --entry f --input x="[1, 2, 3]" --benchmark=1 | FileCheck %s --check-prefix=HIT

// EACH-COUNT-4: [2. 4. 6.]
// ENTRIES:     {{^[0-9a-f]+\.objects$}}
// ENTRIES-NOT: {{.}}
// HIT: compile {{.*}} (cache hit)
// HIT: [2. 4. 6.]

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = trace.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
