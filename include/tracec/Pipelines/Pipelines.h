//===- Pipelines.h - The named tracec pass pipelines ----------------------===//

#ifndef TRACEC_PIPELINES_PIPELINES_H
#define TRACEC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

// The pipelines are built in C++ from the passes' constructors and typed
// options: building and running one needs no pass registry, so programs
// that compile (the JIT, tracec) register nothing. Only tools that parse
// pass names (tracec-opt) register the passes and the pipelines.

namespace tracec {

/// Options of --tracec-cpu-pipeline.
struct CpuPipelineOptions : mlir::PassPipelineOptions<CpuPipelineOptions> {
  Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("CPU whose vector unit sizes the micro-kernels and "
                     "vectors: native (the host) or an LLVM CPU name such as "
                     "skylake-avx512 or x86-64-v3"),
      llvm::cl::init("native")};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads of a parallel loop: 1 = serial code that needs "
                     "no OpenMP runtime (the default), 0 = as many as the "
                     "OpenMP runtime chooses (OMP_NUM_THREADS, else every "
                     "core), N = N"),
      llvm::cl::init(1)};
  Option<int64_t> parallelMinWork{
      *this, "parallel-min-work",
      llvm::cl::desc("Operations a loop nest must execute to be split across "
                     "threads (smaller ones stay serial)"),
      llvm::cl::init(32768)};
  Option<bool> adaptiveParallel{
      *this, "adaptive-parallel",
      llvm::cl::desc("Each parallel region times sampled serial and "
                     "parallel runs of itself and forks only where forking "
                     "paid (trace-cpu-adaptive-parallel); off: every region "
                     "forks"),
      llvm::cl::init(true)};
  Option<bool> workspace{
      *this, "workspace",
      llvm::cl::desc("Place intermediate buffers of static size in one "
                     "workspace per function, allocated once "
                     "(trace-plan-workspace); off: one malloc per buffer "
                     "and call"),
      llvm::cl::init(true)};
  Option<bool> workspaceShareBytes{
      *this, "workspace-share-bytes",
      llvm::cl::desc("Buffers never live together share the workspace's "
                     "bytes (less memory to zero at load and to touch per "
                     "call); off: one global per buffer"),
      llvm::cl::init(true)};
  Option<bool> dedupKernels{
      *this, "dedup-kernels",
      llvm::cl::desc("Ops a function repeats (a graph unrolled over steps) "
                     "become one function each on tensors, compiled once "
                     "(trace-cpu-dedup-kernels): compile time grows with "
                     "the distinct code"),
      llvm::cl::init(true)};
  Option<bool> outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("Move each top-level loop nest into a noinline kernel "
                     "function that tells LLVM whether it is vectorized "
                     "(trace-cpu-outline-kernels): faster LLVM compiles"),
      llvm::cl::init(true)};
  Option<bool> ukernels{
      *this, "ukernels",
      llvm::cl::desc("f32 contractions call the precompiled micro-kernels "
                     "of TracecUkernels (mmt4d, relayouts) where the target "
                     "has AVX2+FMA or AVX-512, instead of generating them "
                     "(trace-cpu-lower-to-ukernels): much less IR to compile. "
                     "The code then needs TracecUkernels' symbols (the JIT "
                     "provides them)"),
      llvm::cl::init(false)};
  Option<bool> ukernelRelayouts{
      *this, "ukernel-relayouts",
      llvm::cl::desc("The relayouts of packed contractions (f32 transposes "
                     "of packs and unpacks) call TracecUkernels' relayout "
                     "kernel where the target has AVX2 or AVX-512, in tasks "
                     "that threads split: as fast as the generated ones "
                     "and 25-40% less to compile for a training step. "
                     "The code then needs TracecUkernels' symbols (the JIT "
                     "provides them and turns this on)"),
      llvm::cl::init(false)};
  Option<bool> overlapCollectives{
      *this, "overlap-collectives",
      llvm::cl::desc("All-reduces move up to where their operands are "
                     "computed (trace-schedule-collectives) and start "
                     "without blocking, waited for where their results are "
                     "used: a data-parallel step's gradient all-reduces "
                     "overlap the rest of its backward pass. Off by "
                     "default: it pays only with cores to spare (on 2 "
                     "cores, 2 ranks' steps ran 1-6% slower with it)"),
      llvm::cl::init(false)};
};

/// Adds trace (on tensors) -> LLVM dialect for the CPU `targetCpu` to `pm`,
/// which is anchored on builtin.module. Entry points use destination
/// passing: every result becomes a caller-owned out-parameter appended after
/// the arguments, and every buffer the code allocates internally is freed
/// before it returns (intermediates of static size live in a workspace that
/// a warm call reuses: no malloc). With `threads` other than 1, large loop
/// nests run as OpenMP parallel loops: the code calls libomp's __kmpc_*
/// entry points.
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const CpuPipelineOptions &options = {});

/// Options of --tracec-gpu-pipeline.
struct GpuPipelineOptions : mlir::PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("NVIDIA GPU architecture: sm_80, "
                                          "sm_90, sm_90a, ..."),
                           llvm::cl::init("sm_80")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features such as +ptx80 (default: the chip's "
                     "minimum PTX version)"),
      llvm::cl::init("")};
  Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads per block, given to the innermost parallel "
                     "dimensions (unless tile-sizes is set)"),
      llvm::cl::init(256)};
  Option<int64_t> reductionThreads{
      *this, "reduction-threads",
      llvm::cl::desc("Threads per block of a reduction (a power of two, "
                     "32-1024)"),
      llvm::cl::init(256)};
  Option<int64_t> matmulTile{
      *this, "matmul-tile",
      llvm::cl::desc("Edge of a matmul's shared-memory tile (tile x tile "
                     "threads per block, at most 32)"),
      llvm::cl::init(16)};
  Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("f32 matmuls on tensor cores in TF32 (10-bit mantissa "
                     "products, f32 accumulation; sm_80 and newer)"),
      llvm::cl::init(false)};
  ListOption<int64_t> tileSizes{
      *this, "tile-sizes",
      llvm::cl::desc("Threads per block along the innermost parallel "
                     "dimensions, outermost first")};
  Option<unsigned> optLevel{*this, "O",
                            llvm::cl::desc("LLVM optimization level of the "
                                           "kernels (0-3)"),
                            llvm::cl::init(3)};
};

/// Adds trace (on tensors) -> GPU kernels as PTX in `gpu.binary` ops, and
/// host code in the LLVM dialect that launches them through the mgpu*
/// runtime calls (lib/ABI/Cuda), to `pm` (anchored on builtin.module).
/// Same calling convention as the CPU pipeline. Bad options (an unknown
/// chip, a PTX version too old for it, no threads) are diagnostics of the
/// passes that take them, when the pipeline runs.
void buildGpuPipeline(mlir::OpPassManager &pm,
                      const GpuPipelineOptions &options);

/// Registers --tracec-cpu-pipeline and --tracec-gpu-pipeline (with the
/// options above) with the global pass registry, for tools that parse
/// pipelines by name. Libraries never call it.
void registerPipelines();

} // namespace tracec

#endif // TRACEC_PIPELINES_PIPELINES_H
