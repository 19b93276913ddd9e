//===- Executable.h - JIT-compiled trace modules --------------------------===//
//
//   tracec::Compiler compiler;
//   auto module = compiler.parseFile("mlp.mlir");          // Expected<Module>
//   auto exe = tracec::Executable::compile(*module);      // CPU, -O3
//   auto predict = (*exe)->function("predict");           // Expected<Function>
//   auto outputs = (*predict)({x, w});                    // Expected<vector<Tensor>>
//
// Functions check the count, dtype and shape of their arguments and report
// a mismatch as an error naming the argument. Compiled code is reentrant:
// one Function may be called from several threads at once, as long as no
// two concurrent calls update the same variable (see tracec::Variable).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_RUNTIME_EXECUTABLE_H
#define TRACEC_RUNTIME_EXECUTABLE_H

#include "tracec/Runtime/Compiler.h"
#include "tracec/Runtime/Signature.h"
#include "tracec/Tensor/Tensor.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
class TargetMachine;
} // namespace llvm

namespace tracec {

class CompileCache;

/// Where compiled code runs: the host CPU, or an NVIDIA GPU through the
/// CUDA driver (kernels as PTX, launched by host code on the CPU).
enum class Target { cpu, cuda };

struct CompileOptions {
  Target target = Target::cpu;
  /// LLVM optimization level (0-3) of the generated code.
  unsigned optLevel = 3;
  /// Target::cuda: the GPU architecture the PTX is generated for; the
  /// driver compiles it for the device, which may be this one or newer.
  /// Empty: device 0's (cuda::deviceChip(): sm_90a on Hopper, for its
  /// wgmma), sm_80 where there is no driver.
  std::string chip;
  /// Target::cuda: f32 matmuls on tensor cores in TF32 (10-bit mantissa
  /// products, f32 accumulation), as PyTorch's allow_tf32; off, they keep
  /// full f32 precision. f16 matmuls use tensor cores either way.
  bool tf32 = false;
  /// Target::cpu: threads that large loop nests are split across (OpenMP,
  /// through libomp). 0, the default, lets the OpenMP runtime choose, as
  /// PyTorch does: OMP_NUM_THREADS if set, else one per core. 1 compiles
  /// serial code. Small loop nests (under `parallelMinWork` operations) run
  /// serially whatever the count, and results do not depend on it.
  unsigned threads = 0;
  int64_t parallelMinWork = 32768;
  /// Each entry measures whether forking pays on this machine (timed
  /// serial and parallel calls of itself) and its calls fork only then;
  /// off: every region forks. Results are the same either way.
  bool adaptiveParallel = true;
  /// Target::cpu: intermediates of static size live in one workspace per
  /// function that warm calls reuse, so they call no malloc
  /// (trace-plan-workspace). Off: a malloc and free per buffer and call.
  bool workspace = true;
  /// Buffers that are never live together share the workspace's bytes
  /// (the MLP training step's 22.6 MB become 9.1 MB, which the loader
  /// zero-fills: a cached compile 115-130 -> 50 ms).
  bool workspaceShareBytes = true;
  /// Target::cpu: each loop nest becomes a kernel function of its own, and
  /// LLVM runs only a cleanup pipeline on the vectorized ones
  /// (trace-cpu-outline-kernels, tracec::optimizeCpuModule): compiles
  /// about 1.5x faster. Off: one function per traced function, LLVM's
  /// full pipeline on all of it.
  bool outlineKernels = true;
  /// Target::cpu: each op a function repeats (a graph unrolled over steps)
  /// becomes one function on tensors that every copy calls, compiled once
  /// (trace-cpu-dedup-kernels): the 64-step unrolled LSTM step compiles in
  /// a quarter of the time. Off: every copy is compiled.
  bool dedupKernels = true;
  /// Target::cpu: f32 contractions call the precompiled micro-kernels of
  /// TracecUkernels (include/tracec/ABI/tracec_ukernels.h) where the host
  /// has AVX2+FMA or AVX-512, instead of generating their inner loops: the
  /// MLP training step compiles about 1.3x faster than with the relayouts
  /// alone, but some steps' calls run slower (attention 8.4 against 7.3 ms
  /// at 1 thread, the ResNet block 11.2 against 10.2 ms at 2;
  /// docs/design/pipelines.md, "Contraction micro-kernels"), so it is
  /// opt-in.
  bool ukernels = false;
  /// Target::cpu: the relayouts of packed contractions (the transposes of
  /// their packs and unpacks) call TracecUkernels' relayout kernel where the
  /// host has AVX2 or AVX-512, in tasks threads split, instead of being
  /// generated per shape: per call as fast (bench/ukernels_ab.py's training
  /// steps at 1 and 2 threads), and a training step compiles 1.3-1.7x
  /// faster (docs/performance.md, "Compile time").
  bool ukernelRelayouts = true;
  /// Target::cpu: a data-parallel step's gradient all-reduces start as
  /// soon as their gradients exist, without blocking, and are waited for
  /// where the results are used: they overlap the rest of the backward
  /// pass (trace-schedule-collectives). Off, the default: each all-reduce
  /// blocks where the program lists it. Off because it did not pay where
  /// it was measured: with every core computing (2 ranks on 2 cores) the
  /// MLP and CNN steps ran 1-6% slower with it (docs/guides/distributed.md;
  /// OpenMPI progresses a non-blocking collective only inside MPI calls,
  /// and each start's agreement check is a synchronization). Results are
  /// the same either way.
  bool overlapCollectives = false;
  /// The functions to compile (with what they call); the module's other
  /// public functions are dropped before lowering. Empty, the default:
  /// every public function. tracec-run compiles its --entry only.
  std::vector<std::string> entries;
  /// Target::cpu: threads the compile itself uses: the module is split into
  /// that many partitions of whole functions, optimized and compiled to
  /// machine code side by side (tracec::compileCpuObjects). 0, the
  /// default, is one per core; 1 compiles on the calling thread only. The
  /// code is the same whatever the count.
  unsigned compileThreads = 0;
  /// The persistent compile cache (Target::cpu): a module compiled before
  /// with the same options, for the same CPU, by the same build of tracec
  /// is loaded from its object code instead of compiled. Turned off here,
  /// or by TRACEC_DISABLE_CACHE=1 in the environment (which wins).
  bool useCache = true;
  /// The cache's directory; empty: $TRACEC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/tracec, else ~/.cache/tracec.
  std::string cacheDirectory;
};

/// Where the time of Executable::compile went, and what the cache did.
struct CompileStats {
  /// The MLIR pass pipeline (none on a cache hit).
  double pipelineSeconds = 0;
  /// Translation to LLVM IR and LLVM's optimizer (with several compile
  /// threads: until the slowest partition is optimized).
  double optimizeSeconds = 0;
  /// Machine code and linking (the rest of the compile), or loading the
  /// cached objects.
  double codegenSeconds = 0;
  /// The object code came from the compile cache.
  bool cacheHit = false;
  /// An entry was found but failed its checks; it was rewritten.
  bool cacheEntryRejected = false;
  /// The compiled object was stored in the cache.
  bool cacheStored = false;
};

/// The threads a call uses with CompileOptions::threads = 0: the count
/// set by setDefaultThreads, else OpenMP's default for this process
/// (OMP_NUM_THREADS, else the number of cores).
unsigned defaultThreads();

/// Sets the threads that calls of functions compiled with
/// CompileOptions::threads = 0 use from now on, from every host thread
/// (as torch.set_num_threads does); 0 restores OpenMP's default. Functions
/// compiled with a count of their own keep it.
void setDefaultThreads(unsigned threads);

class Function {
public:
  const Signature &signature() const { return *signature_; }

  /// Runs the function on `inputs` and returns new result tensors.
  ///
  /// Inputs are never written, except the tensor passed for a variable
  /// argument (TensorSpec::isVariable): it is not copied, and the call
  /// updates it in place, so every Tensor sharing its storage (such as
  /// Variable::buffer()) sees the new value. A variable's tensor must share
  /// storage with no other argument or output. Calls that update the same
  /// variable must not run concurrently: hold Variable::lock() around them.
  llvm::Expected<std::vector<Tensor>>
  operator()(llvm::ArrayRef<Tensor> inputs) const;

  /// Storage for result `index` of `shape`, where the function's code
  /// wants it: host memory for the CPU; for the GPU, CUDA managed memory
  /// (tracec_cuda_alloc_managed), which stays on the device when the
  /// result is passed to a later call, and which the host reads too.
  /// Its bytes are not initialized (the call writes them).
  llvm::Expected<Tensor> newResult(size_t index,
                                   llvm::ArrayRef<int64_t> shape) const;

  /// The results' shapes for `inputs`. With dynamic dims (`?`), this runs
  /// the function's shape function: it fails, naming the arguments, dims
  /// and sizes, where dims that must agree do not.
  llvm::Expected<std::vector<llvm::SmallVector<int64_t, 4>>>
  resultShapes(llvm::ArrayRef<Tensor> inputs) const;

  /// Destination passing: writes the results into caller-owned `outputs`,
  /// which must already have the result dtypes and shapes (resultShapes).
  /// A failed check writes nothing. A warm call of
  /// a CPU function with static shapes allocates no memory (up to 16
  /// arguments and results of rank 4 or less).
  llvm::Error call(llvm::ArrayRef<Tensor> inputs,
                   llvm::MutableArrayRef<Tensor> outputs) const;

  /// A function with dynamic dims: its shape function (trace-shape-
  /// functions) and the messages of its checks.
  struct ShapeFunction {
    void (*entry)(void **) = nullptr;
    std::vector<std::string> checks;
    size_t dynamicResultDims = 0;
  };

private:
  friend class Executable;
  Function(std::shared_ptr<const Signature> signature, void (*entry)(void **),
           std::shared_ptr<const ShapeFunction> shape,
           std::shared_ptr<void> code, Target target)
      : signature_(std::move(signature)), entry_(entry),
        shape_(std::move(shape)), code_(std::move(code)), target_(target) {}

  /// Checks the inputs' dtypes and static dims and, with dynamic dims, runs
  /// the shape function: `shapes` gets the results' shapes.
  llvm::Error
  checkInputs(llvm::ArrayRef<Tensor> inputs,
              std::vector<llvm::SmallVector<int64_t, 4>> *shapes) const;

  /// Runs the compiled code on checked `inputs` and `outputs`.
  llvm::Error invoke(llvm::ArrayRef<Tensor> inputs,
                     llvm::MutableArrayRef<Tensor> outputs) const;

  std::shared_ptr<const Signature> signature_;
  void (*entry_)(void **);
  std::shared_ptr<const ShapeFunction> shape_;
  std::shared_ptr<void> code_; // keeps the code alive
  Target target_;
};

class Executable {
public:
  /// Runs the CPU or GPU pipeline on a copy of `module` (which stays
  /// usable) and JIT-compiles the host code for the host CPU. For
  /// Target::cuda this loads the kernels, so it fails where no CUDA driver
  /// or device is found ("CUDA driver not found: ...").
  static llvm::Expected<std::unique_ptr<Executable>>
  compile(const Module &module, const CompileOptions &options = {});

  /// A public function of the module; an error names the functions there
  /// are, or why this one cannot be called from the host.
  llvm::Expected<Function> function(llvm::StringRef name) const;

  /// The callable functions, in module order.
  std::vector<std::string> functionNames() const;

  const CompileStats &compileStats() const { return stats_; }

private:
  Executable() = default;

  // The steps of compile (Executable.cpp).
  using PackedLookup =
      llvm::function_ref<llvm::Expected<void (*)(void **)>(llvm::StringRef)>;
  using SymbolLookup =
      llvm::function_ref<llvm::Expected<void *>(llvm::StringRef)>;
  /// Keeps only `entries` public (all public functions if empty) and
  /// records the signatures of the callable ones.
  llvm::Error selectEntries(mlir::ModuleOp module,
                            llvm::ArrayRef<std::string> entries);
  /// Links CPU objects (compiled or cached) and finds the entries.
  llvm::Error
  linkObjects(llvm::MutableArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects,
              llvm::ArrayRef<llvm::StringRef> sharedLibraries);
  /// CPU code of the lowered `module`: LLVM's optimizer and code generator
  /// on all cores, linked by linkObjects, stored in `cache` under `key`.
  llvm::Error compileObjects(mlir::ModuleOp module,
                             const CompileOptions &options,
                             llvm::TargetMachine &machine,
                             llvm::ArrayRef<llvm::StringRef> sharedLibraries,
                             std::optional<CompileCache> &cache,
                             const std::string &key);
  /// GPU code, or CPU code with static constructors: MLIR's
  /// ExecutionEngine, which runs them.
  llvm::Error
  compileWithEngine(mlir::ModuleOp module, const CompileOptions &options,
                    std::unique_ptr<llvm::TargetMachine> machine,
                    llvm::ArrayRef<llvm::StringRef> sharedLibraries);
  /// Finds the entries and shape functions in the loaded code, which
  /// `holder` keeps alive.
  void lookUpCode(PackedLookup packed, SymbolLookup plain,
                  std::shared_ptr<void> holder);

  /// The mlir::ExecutionEngine or the ObjectJit holding the code.
  std::shared_ptr<void> code_;
  Target target_ = Target::cpu;
  CompileStats stats_;
  std::vector<std::shared_ptr<const Signature>> signatures_;
  /// Public functions that cannot be called from the host, and why.
  llvm::StringMap<std::string> uncallable_;
  /// The compiled entry of each callable function, looked up at compile
  /// time; and why the lookup failed, for those it did.
  llvm::StringMap<void (*)(void **)> entries_;
  llvm::StringMap<std::shared_ptr<const Function::ShapeFunction>> shapes_;
  llvm::StringMap<std::string> notCompiled_;
  /// The code's name of each entry named like a C library symbol.
  llvm::StringMap<std::string> renamed_;
};

} // namespace tracec

#endif // TRACEC_RUNTIME_EXECUTABLE_H
