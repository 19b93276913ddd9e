// The named pipelines are the ones the JIT and tracec build in C++
// (unittests/Pipelines checks the two agree pass for pass and that the
// printed text parses back): each step is an ordinary pass, so
// --mlir-print-ir-after-all shows the IR after every one of them.
// RUN: tracec-opt %s --tracec-cpu-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: tracec-opt %s "--tracec-cpu-pipeline=threads=4 parallel-min-work=1000" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OMP
// RUN: tracec-opt %s "--tracec-cpu-pipeline=workspace=false" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOWS
// RUN: tracec-opt %s "--tracec-cpu-pipeline=ukernels=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=UK
// RUN: tracec-opt %s "--tracec-cpu-pipeline=ukernel-relayouts=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=UKR
// RUN: tracec-opt %s "--tracec-cpu-pipeline=overlap-collectives=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: tracec-opt %s "--tracec-gpu-pipeline=chip=sm_90 threads=128 tile-sizes=4,32 matmul-tile=8 reduction-threads=64 tf32=1 O=2" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: tracec-opt %s --tracec-cpu-pipeline --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=STEPS

// All-reduces move up into the backward pass, then start without
// blocking where their results are used only later.
// OVERLAP:      cse,
// OVERLAP-NEXT: func.func(
// OVERLAP-NEXT:   trace-schedule-collectives
// OVERLAP-NEXT: ),
// OVERLAP-NEXT: trace-lower-state{overlap-collectives=true},

// CPU:      builtin.module(
// CPU-NEXT:   trace-shard-to-collectives,
// CPU-NEXT:   trace-auto-control-deps,
// CPU-NEXT:   trace-autodiff{remat=everything},
// CPU-NEXT:   inline{default-pipeline=canonicalize
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   cse,
// CPU-NEXT:   trace-lower-state{overlap-collectives=false},
// CPU-NEXT:   trace-cpu-direct-filter-gradients{cpu=native},
// CPU-NEXT:   trace-to-linalg,
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   cse,
// CPU-NEXT:   trace-shape-functions,
// CPU-NEXT:   trace-fuse-elementwise,
// Contractions packed, repeated chains outlined, contractions tiled and
// vectorized; then rows, then vectors, on tensors (lib/Codegen/CPU).
// CPU-NEXT:   trace-cpu-pack-contractions{cpu=native min-work=4096},
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   trace-cpu-dedup-kernels,
// CPU-NEXT:   trace-cpu-tile-contractions{cpu=native ukernel-relayouts=false ukernels=false},
// CPU-NEXT:   trace-cpu-vectorize-contractions,
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   cse,
// CPU-NEXT:   loop-invariant-subset-hoisting,
// CPU-NEXT:   func.func(
// CPU-NEXT:     trace-cpu-fuse-rows
// CPU-NEXT:   ),
// CPU-NEXT:   func.func(
// CPU-NEXT:     trace-cpu-vectorize{dynamic-inner=false target-cpu=native}
// CPU-NEXT:   ),
// CPU-NEXT:   trace-readonly-inputs,
// CPU-NEXT:   trace-distinct-results,
// CPU-NEXT:   trace-empty-tensor-per-use,
// CPU-NEXT:   one-shot-bufferize{allow-return-allocs-from-loops=true {{.*}} bufferize-function-boundaries=true {{.*}} function-boundary-type-conversion=identity-layout-map
// CPU-NEXT:   trace-cpu-lower-contraction-vectors{cpu=native},
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   func.func(
// CPU-NEXT:     trace-cpu-lower-vectors
// CPU-NEXT:   ),
// CPU-NEXT:   cse,
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   func.func(
// CPU-NEXT:     buffer-loop-hoisting
// CPU-NEXT:   ),
// CPU-NEXT:   buffer-results-to-out-params{add-result-attr=false hoist-dynamic-allocs=true hoist-static-allocs=true modify-public-functions=true},
// The buffer-deallocation-pipeline, its dealloc split per allocation:
// CPU-NEXT:   expand-realloc{
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   ownership-based-buffer-deallocation{
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   trace-split-deallocs,
// CPU-NEXT:   buffer-deallocation-simplification,
// CPU-NEXT:   bufferization-lower-deallocations,
// CPU-NEXT:   cse,
// CPU-NEXT:   canonicalize{
// CPU-NEXT:   trace-contraction-loop-order,
// CPU-NEXT:   trace-expand-copies{memcpy=true},
// CPU-NEXT:   trace-plan-workspace{share-bytes=true share-equal-sizes-only=false},
// CPU-NEXT:   func.func(
// CPU-NEXT:     trace-cpu-math-approximation
// CPU-NEXT:   ),
// CPU-NEXT:   convert-vector-to-scf{full-unroll=true
// CPU-NEXT:   convert-linalg-to-loops,
// CPU-NEXT:   scf-forall-to-for,
// CPU-NEXT:   trace-cpu-outline-kernels,
// CPU-NEXT:   trace-stack-loop-buffers{max-bytes=16384},
// CPU-NEXT:   convert-math-to-funcs{
// CPU-NEXT:   convert-scf-to-cf{
// CPU-NEXT:   expand-strided-metadata,
// CPU-NEXT:   lower-affine,
// CPU-NEXT:   convert-math-to-llvm{
// CPU-NEXT:   convert-math-to-libm,
// CPU-NEXT:   convert-vector-to-llvm{{{.*}}reassociate-fp-reductions=true {{.*}}vector-contract-lowering=outerproduct vector-transpose-lowering=shuffle1d
// CPU-NEXT:   convert-to-llvm{
// CPU-NEXT:   reconcile-unrealized-casts
// CPU-NEXT: )

// threads other than 1: parallel loops, one per large nest, to OpenMP.
// OMP:        trace-plan-workspace{share-bytes=true share-equal-sizes-only=true},
// OMP:        convert-vector-to-scf{
// OMP-NEXT:   convert-linalg-to-parallel-loops,
// OMP-NEXT:   scf-forall-to-parallel,
// OMP-NEXT:   trace-parallel-loops{min-work=1000},
// OMP-NEXT:   convert-scf-to-openmp{num-threads=4},
// OMP-NEXT:   trace-cpu-inline-alloca-scopes,
// OMP-NEXT:   canonicalize{
// OMP:        trace-cpu-outline-kernels,
// OMP-NEXT:   trace-stack-loop-buffers{max-bytes=16384},
// OMP:        convert-to-llvm{
// OMP-NEXT:   reconcile-unrealized-casts
// NOWS:       trace-expand-copies{memcpy=true},
// NOWS-NEXT:  func.func(
// NOWS-NEXT:    trace-cpu-math-approximation
// With ukernels the tile step leaves the micro-kernels whole, and they
// become calls once the workspace is planned.
// UK:         trace-cpu-tile-contractions{cpu=native ukernel-relayouts=false ukernels=true},
// UK:         trace-plan-workspace{share-bytes=true share-equal-sizes-only=false},
// UK-NEXT:    trace-cpu-lower-to-ukernels{copies=true cpu=native},
// UK-NEXT:    func.func(
// UK-NEXT:      trace-cpu-math-approximation

// With ukernel-relayouts (the JIT's default) only the relayouts become
// calls; copies stay loops, which threads split.
// UKR:        trace-cpu-tile-contractions{cpu=native ukernel-relayouts=true ukernels=false},
// UKR:        trace-plan-workspace{share-bytes=true share-equal-sizes-only=false},
// UKR-NEXT:   trace-cpu-lower-to-ukernels{copies=false cpu=native},

// The typed options reach the passes that take them; size-1 dims are
// folded on tensors (for trace-gpu-row-blocks).
// GPU:      linalg-fold-unit-extent-dims{
// GPU:      trace-expand-copies{memcpy=false},
// GPU-NEXT: trace-gpu-managed-buffers,
// GPU-NEXT: func.func(
// GPU-NEXT:   trace-gpu-mma-matmul{tf32=true wgmma=false},
// GPU-NEXT:   trace-gpu-tiled-matmul{tile=8},
// GPU-NEXT:   trace-gpu-row-blocks{threads=64},
// GPU-NEXT:   trace-gpu-block-reductions{threads=64},
// GPU-NEXT:   convert-linalg-to-parallel-loops,
// GPU-NEXT:   trace-gpu-tile-parallel-loops{threads=128 tile-sizes={4,32}},
// GPU-NEXT:   gpu-map-parallel-loops{mapping-policy=innermost-first},
// GPU-NEXT:   convert-parallel-loops-to-gpu,
// GPU-NEXT:   trace-gpu-grid-stride
// GPU-NEXT: ),
// GPU:      convert-nvgpu-to-nvvm
// GPU-NEXT: gpu-kernel-outlining
// GPU-NEXT: func.func(
// GPU-NEXT:   gpu-async-region,
// GPU-NEXT:   trace-gpu-sync-managed-allocs
// GPU-NEXT: ),
// GPU-NEXT: trace-nvvm-attach-target{O=2 chip=sm_90 features=},
// GPU:      gpu.module(
// GPU-NEXT:   trace-gpu-expand-math,
// GPU-NEXT:   gpu.func(
// GPU-NEXT:     trace-gpu-align-workgroup-buffers
// GPU-NEXT:   ),
// GPU-NEXT:   convert-gpu-to-nvvm{
// GPU-NEXT:   trace-gpu-extern-dynamic-shared,
// GPU-NEXT:   trace-nvvm-native-math,
// GPU:      gpu-module-to-binary{format=isa

// STEPS: IR Dump After TraceAutoDiff (trace-autodiff)
// STEPS: IR Dump After OneShotBufferizePass (one-shot-bufferize)
// STEPS: IR Dump After BufferResultsToOutParamsPass (buffer-results-to-out-params)
// STEPS: IR Dump After TraceExpandCopies (trace-expand-copies)
// STEPS: IR Dump After ReconcileUnrealizedCastsPass (reconcile-unrealized-casts)
func.func @scale(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = trace.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
