//===- Executable.cpp - JIT-compiled trace modules ------------------------===//

#include "tracec/Runtime/Executable.h"

#include "CallAllocator.h"
#include "CompileCache.h"
#include "EngineLifetime.h"
#include "JitArena.h"
#include "ObjectJit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "tracec/ABI/CudaRuntime.h"
#include "tracec/ABI/tracec_collectives.h"
#include "tracec/ABI/tracec_cuda.h"
#include "tracec/ABI/tracec_openmp.h"
#include "tracec/ABI/tracec_print.h"
#include "tracec/ABI/tracec_ukernels.h"
#include "tracec/Codegen/CPU/CpuTarget.h"
#include "tracec/Codegen/CPU/LazyWorkspace.h"
#include "tracec/Codegen/CPU/MachineCode.h"
#include "tracec/Pipelines/LibraryNames.h"
#include "tracec/Pipelines/Lowering.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <thread>

extern "C" int omp_get_max_threads(void); // libomp's omp.h
extern "C" void omp_set_num_threads(int);

using namespace tracec;

/// OpenMP's own default thread count (OMP_NUM_THREADS, else the cores),
/// read when libomp starts.
static unsigned openmpDefaultThreads = 0;

/// Workers spin briefly, then sleep (TRACEC_OPENMP_BLOCKTIME, in
/// tracec_openmp.h, says why), unless the user chose a policy
/// (KMP_BLOCKTIME or OMP_WAIT_POLICY). libomp's own default, 200 ms, lets
/// an idle worker take a core from other processes for that long after
/// every call; 0 (sleep at once) made every parallel region wake its
/// workers through the kernel, which cost more than most kernels: on 2
/// cores, 2 threads were slower than 1. libomp reads these once, when it
/// starts, which is after this: every use of it goes through here first.
static void configureOpenMP() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!std::getenv("KMP_BLOCKTIME") && !std::getenv("OMP_WAIT_POLICY"))
      setenv("KMP_BLOCKTIME", TRACEC_OPENMP_BLOCKTIME, /*overwrite=*/0);
    openmpDefaultThreads = static_cast<unsigned>(omp_get_max_threads());
  });
}

/// setDefaultThreads' count (0: OpenMP's default). OpenMP keeps the count
/// per thread (omp_set_num_threads sets the calling thread's), so each
/// host thread applies the process-wide choice to itself before a call.
static std::atomic<unsigned> chosenThreads{0};
static thread_local unsigned appliedThreads = 0;

static void applyChosenThreads() {
  unsigned chosen = chosenThreads.load(std::memory_order_relaxed);
  if (chosen == appliedThreads)
    return;
  omp_set_num_threads(static_cast<int>(chosen ? chosen : openmpDefaultThreads));
  appliedThreads = chosen;
}

unsigned tracec::defaultThreads() {
  configureOpenMP();
  unsigned chosen = chosenThreads.load(std::memory_order_relaxed);
  return chosen ? chosen : openmpDefaultThreads;
}

void tracec::setDefaultThreads(unsigned threads) {
  configureOpenMP();
  chosenThreads.store(threads, std::memory_order_relaxed);
}

/// The file of the libomp this library is linked with. Parallel loops call
/// it (__kmpc_fork_call, ...), and the engine loads it by this path: its
/// symbols need not be visible in the process's global scope (they are
/// not where this library is itself loaded with RTLD_LOCAL, as Python
/// loads extension modules).
static std::string openmpLibraryPath() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&omp_get_max_threads), &info) ||
      !info.dli_fname)
    return {};
  return info.dli_fname;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

/// "file:line:col: error: message", as the parser reports.
static std::string formatDiagnostic(mlir::Diagnostic &diagnostic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(diagnostic.getLocation()))
    os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
       << loc.getColumn();
  else
    os << diagnostic.getLocation();
  switch (diagnostic.getSeverity()) {
  case mlir::DiagnosticSeverity::Error: os << ": error: "; break;
  case mlir::DiagnosticSeverity::Warning: os << ": warning: "; break;
  default: os << ": note: "; break;
  }
  os << diagnostic;
  return text;
}

/// What compiled code calls back into: trace.print's formatter, the
/// collectives' guard, the micro-kernels.
static llvm::orc::SymbolMap
runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  symbols[interner(TRACEC_PRINT_TENSOR_SYMBOL)] = {
      llvm::orc::ExecutorAddr::fromPtr(&tracec_print_tensor),
      llvm::JITSymbolFlags::Exported};
  // Collectives call their agreement check, watchdog and non-blocking
  // all-reduce.
  std::pair<const char *, void *> collectives[] = {
      {TRACEC_COLLECTIVE_BEGIN_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_begin)},
      {TRACEC_COLLECTIVE_CHECK_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_check)},
      {TRACEC_COLLECTIVE_END_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_end)},
      {TRACEC_COLLECTIVE_START_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_start)},
      {TRACEC_COLLECTIVE_WAIT_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_wait)},
      {TRACEC_COLLECTIVE_WORLD_SIZE_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_world_size)},
      {TRACEC_COLLECTIVE_GROUP_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_group)},
      {TRACEC_COLLECTIVE_GROUP_RANK_SYMBOL,
       reinterpret_cast<void *>(&tracec_collective_group_rank)}};
  for (auto [name, address] : collectives)
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  // Contractions call the micro-kernels (trace-cpu-lower-to-ukernels).
  for (const tracec_ukernel_symbol *kernel = tracec_ukernel_symbols();
       kernel->name; ++kernel)
    symbols[interner(kernel->name)] = {
        llvm::orc::ExecutorAddr::fromPtr(kernel->address),
        llvm::JITSymbolFlags::Exported};
  return symbols;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Everything that decides the object code of `module` (as it goes into
/// the pipeline: with only the entries public): its text, the pass
/// pipeline with every option, LLVM's level, the CPU, the build.
static std::string cacheKey(mlir::ModuleOp module, mlir::PassManager &pm,
                            const CompileOptions &options,
                            llvm::TargetMachine &machine) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << CompileCache::buildIdentity() << "\nO" << options.optLevel << "\n"
     << machine.getTargetTriple().str() << " " << machine.getTargetCPU()
     << " " << machine.getTargetFeatureString() << "\n";
  pm.printAsTextualPipeline(os);
  os << "\n";
  module.print(os);
  return key;
}

namespace {
/// Compiled code (an mlir::ExecutionEngine or an ObjectJit) and the
/// workspaces its calls allocated, freed before the code goes.
struct LoadedCode {
  std::shared_ptr<void> engine;
  void (*releaseWorkspaces)() = nullptr;
  TRACEC_CALLS_JIT_CODE ~LoadedCode() {
    if (releaseWorkspaces)
      releaseWorkspaces();
  }
};
} // namespace

/// Holds `engine`, which defines kReleaseWorkspacesSymbol where `lookup`
/// finds it (allocateWorkspacesOnFirstUse).
template <typename LookupFn>
static std::shared_ptr<void> holdCode(std::shared_ptr<void> engine,
                                      LookupFn lookup) {
  auto code = std::make_shared<LoadedCode>();
  code->engine = std::move(engine);
  if (auto release = lookup(kReleaseWorkspacesSymbol))
    code->releaseWorkspaces = reinterpret_cast<void (*)()>(*release);
  else
    llvm::consumeError(release.takeError());
  return code;
}

/// Looks the entry point of each signature up with `lookup` (which
/// compiles it, if it is not yet).
template <typename LookupFn>
static void
lookUpEntries(llvm::ArrayRef<std::shared_ptr<const Signature>> signatures,
              llvm::StringMap<void (*)(void **)> &entries,
              llvm::StringMap<std::string> &notCompiled, LookupFn lookup) {
  for (const auto &signature : signatures) {
    auto entry = lookup(signature->name);
    if (entry)
      entries[signature->name] = *entry;
    else
      notCompiled[signature->name] = llvm::toString(entry.takeError());
  }
}

/// The shape function of each signature with dynamic dims, and its checks'
/// messages (trace-shape-functions), found with `lookupPacked` and
/// `lookup`.
template <typename LookupPackedFn, typename LookupFn>
static void lookUpShapeFunctions(
    llvm::ArrayRef<std::shared_ptr<const Signature>> signatures,
    llvm::StringMap<std::shared_ptr<const Function::ShapeFunction>> &shapes,
    llvm::StringMap<void (*)(void **)> &entries,
    llvm::StringMap<std::string> &notCompiled, LookupPackedFn lookupPacked,
    LookupFn lookup) {
  for (const auto &signature : signatures) {
    if (!signature->hasDynamicDims() || !entries.count(signature->name))
      continue;
    std::string name = "__shape_" + signature->name;
    auto entry = lookupPacked(name);
    if (!entry) {
      entries.erase(signature->name);
      notCompiled[signature->name] = "no shape function @" + name + ": " +
                                     llvm::toString(entry.takeError());
      continue;
    }
    auto shape = std::make_shared<Function::ShapeFunction>();
    shape->entry = *entry;
    for (const TensorSpec &spec : signature->results)
      shape->dynamicResultDims += llvm::count(spec.shape, TensorSpec::kDynamic);
    for (size_t k = 0;; ++k) {
      auto message = lookup(name + "_check_" + std::to_string(k));
      if (!message) {
        llvm::consumeError(message.takeError());
        break;
      }
      shape->checks.push_back(static_cast<const char *>(*message));
    }
    shapes[signature->name] = std::move(shape);
  }
}

llvm::Error Executable::selectEntries(mlir::ModuleOp module,
                                      llvm::ArrayRef<std::string> entries) {
  if (!entries.empty()) {
    std::string known;
    llvm::StringSet<> publicNames;
    for (auto func : module.getOps<mlir::func::FuncOp>())
      if (func.isPublic() && !func.isExternal()) {
        publicNames.insert(func.getSymName());
        known += (known.empty() ? "@" : ", @") + func.getSymName().str();
      }
    for (const std::string &name : entries)
      if (!publicNames.contains(name))
        return llvm::createStringError(
            "no function @" + name + " in the module" +
            (known.empty() ? std::string() : " (it has " + known + ")"));
    keepOnlyEntriesPublic(
        module,
        [&](mlir::func::FuncOp func) {
          return llvm::is_contained(entries, func.getSymName());
        },
        [&](mlir::func::FuncOp func) {
          uncallable_[func.getSymName()] =
              "it was not compiled (not one of CompileOptions::entries)";
        });
  }
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    auto signature = signatureOf(func);
    if (!signature) {
      uncallable_[func.getSymName()] = llvm::toString(signature.takeError());
      continue;
    }
    signatures_.push_back(
        std::make_shared<const Signature>(std::move(*signature)));
  }
  return llvm::Error::success();
}

/// Adds the lowering CompileOptions ask for to `pm`.
static void buildPipeline(mlir::PassManager &pm,
                          const CompileOptions &options) {
  LoweringOptions lowering;
  if (options.target == Target::cuda) {
    lowering.gpu.emplace();
    lowering.gpu->chip =
        options.chip.empty() ? cuda::deviceChip() : options.chip;
    lowering.gpu->tf32 = options.tf32;
  } else {
    lowering.cpu.threads = options.threads;
    lowering.cpu.parallelMinWork = options.parallelMinWork;
    lowering.cpu.adaptiveParallel = options.adaptiveParallel;
    lowering.cpu.workspace = options.workspace;
    lowering.cpu.workspaceShareBytes = options.workspaceShareBytes;
    lowering.cpu.outlineKernels = options.outlineKernels;
    lowering.cpu.dedupKernels = options.dedupKernels;
    lowering.cpu.ukernels = options.ukernels;
    lowering.cpu.ukernelRelayouts = options.ukernelRelayouts;
    lowering.cpu.overlapCollectives = options.overlapCollectives;
  }
  buildLoweringPipeline(pm, lowering);
}

void Executable::lookUpCode(PackedLookup packed, SymbolLookup plain,
                            std::shared_ptr<void> holder) {
  lookUpEntries(signatures_, entries_, notCompiled_,
                [&](llvm::StringRef name) {
                  auto it = renamed_.find(name);
                  return packed(it == renamed_.end() ? name
                                                     : llvm::StringRef(it->second));
                });
  lookUpShapeFunctions(signatures_, shapes_, entries_, notCompiled_, packed,
                       plain);
  code_ = holdCode(std::move(holder), plain);
  engineCompiled();
}

llvm::Error Executable::linkObjects(
    llvm::MutableArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects,
    llvm::ArrayRef<llvm::StringRef> sharedLibraries) {
  // CPU code's buffers of dynamic size, allocated per call, reuse freed
  // ones (CallAllocator.h).
  auto symbols = [](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map = runtimeSymbols(interner);
    addCallAllocatorSymbols(interner, map);
    return map;
  };
  auto jit = ObjectJit::load(objects, symbols, sharedLibraries);
  if (!jit)
    return jit.takeError();
  std::shared_ptr<ObjectJit> code = shareEngine(std::move(*jit));
  lookUpCode([&](llvm::StringRef name) { return code->lookupPacked(name); },
             [&](llvm::StringRef name) { return code->lookup(name); }, code);
  return llvm::Error::success();
}

llvm::Error Executable::compileObjects(
    mlir::ModuleOp module, const CompileOptions &options,
    llvm::TargetMachine &machine,
    llvm::ArrayRef<llvm::StringRef> sharedLibraries,
    std::optional<CompileCache> &cache, const std::string &key) {
  auto optimizeStart = std::chrono::steady_clock::now();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError(
        "JIT compilation failed: cannot translate the module to LLVM IR");
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  allocateWorkspacesOnFirstUse(*llvmModule);
  addPackedEntryPoints(*llvmModule);
  double translateSeconds = secondsSince(optimizeStart);
  unsigned compileThreads = options.compileThreads
                                ? options.compileThreads
                                : std::thread::hardware_concurrency();
  ObjectCompileTimes times;
  auto objects = compileCpuObjects(*llvmModule, "native", options.optLevel,
                                   compileThreads, &times);
  if (!objects)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(objects.takeError()));
  stats_.optimizeSeconds = translateSeconds + times.optimizeSeconds;
  auto loadStart = std::chrono::steady_clock::now();
  // The cache gets the bytes only once they linked.
  llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>> copies;
  if (cache)
    for (const auto &object : *objects)
      copies.push_back(llvm::MemoryBuffer::getMemBufferCopy(
          object->getBuffer(), object->getBufferIdentifier()));
  if (llvm::Error error = linkObjects(*objects, sharedLibraries))
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(std::move(error)));
  stats_.codegenSeconds = times.codegenSeconds + secondsSince(loadStart);
  if (cache && notCompiled_.empty())
    stats_.cacheStored = cache->store(key, copies);
  return llvm::Error::success();
}

namespace {
/// An ExecutionEngine and the arena its sections live in, which must
/// outlive it (members are destroyed in reverse order).
struct EngineInArena {
  JitArena arena;
  std::unique_ptr<mlir::ExecutionEngine> engine;
};
} // namespace

llvm::Error Executable::compileWithEngine(
    mlir::ModuleOp module, const CompileOptions &options,
    std::unique_ptr<llvm::TargetMachine> machine,
    llvm::ArrayRef<llvm::StringRef> sharedLibraries) {
  mlir::ExecutionEngineOptions engineOptions;
  engineOptions.sharedLibPaths = sharedLibraries;
  llvm::TargetMachine &targetMachine = *machine;
  unsigned optLevel = options.optLevel;
  auto transformer = [&](llvm::Module *llvmModule) {
    allocateWorkspacesOnFirstUse(*llvmModule);
    return tracec::optimizeCpuModule(*llvmModule, targetMachine, optLevel);
  };
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      options.optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
                            : llvm::CodeGenOptLevel::Default;
  // Sections within reach of each other, as ObjectJit's (JitArena.h).
  auto code = std::make_unique<EngineInArena>();
  if (!code->arena.reserved())
    return llvm::createStringError(
        "JIT compilation failed: cannot reserve address space for the code");
  engineOptions.sectionMemoryMapper = &code->arena;
  auto optimizeStart = std::chrono::steady_clock::now();
  auto created =
      mlir::ExecutionEngine::create(module, engineOptions, std::move(machine));
  if (!created)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(created.takeError()));
  stats_.optimizeSeconds = secondsSince(optimizeStart);
  auto codegenStart = std::chrono::steady_clock::now();
  code->engine = std::move(*created);
  std::shared_ptr<EngineInArena> shared = shareEngine(std::move(code));
  std::shared_ptr<mlir::ExecutionEngine> engine(shared, shared->engine.get());
  // Compiled trace.print calls back into this library.
  engine->registerSymbols(runtimeSymbols);
  if (options.target == Target::cuda) {
    // Host code calls the runtime shim; its global constructors load the
    // kernels, which is where a missing driver shows first.
    engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap symbols;
      for (const cuda::EntryPoint *entry = cuda::entryPoints(); entry->name;
           ++entry)
        symbols[interner(entry->name)] = {
            llvm::orc::ExecutorAddr::fromPtr(entry->address),
            llvm::JITSymbolFlags::Exported};
      return symbols;
    });
    cuda::beginCall();
    engine->initialize();
    std::string error = cuda::takeError();
    if (!error.empty())
      return llvm::createStringError("cannot load the GPU kernels: " + error);
  } else {
    engine->initialize();
  }
  // Everything is compiled now, not on first use: an Executable destroyed
  // at exit must not need LLVM's code generator (see EngineLifetime.h).
  lookUpCode([&](llvm::StringRef name) { return engine->lookupPacked(name); },
             [&](llvm::StringRef name) { return engine->lookup(name); },
             engine);
  stats_.codegenSeconds = secondsSince(codegenStart);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Executable>>
Executable::compile(const Module &module, const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  mlir::OwningOpRef<mlir::ModuleOp> copy(module.get().clone());
  mlir::MLIRContext *context = copy->getContext();

  std::unique_ptr<Executable> exe(new Executable());
  exe->target_ = options.target;
  {
    std::string diagnostics;
    mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &d) {
      llvm::raw_string_ostream(diagnostics) << formatDiagnostic(d) << "\n";
      return mlir::success();
    });
    if (mlir::failed(partitionShards(*copy)))
      return llvm::createStringError("compilation failed:\n" +
                                     llvm::StringRef(diagnostics).rtrim());
  }
  if (llvm::Error error = exe->selectEntries(*copy, options.entries))
    return std::move(error);
  // Entries keep their names for the caller; the code gets other names
  // where theirs are the C library's.
  exe->renamed_ = renameLibraryNameClashes(*copy);
  mlir::PassManager pm(context);
  buildPipeline(pm, options);

  // The host CPU's target machine: without it LLVM's optimizer knows no
  // vector registers and vectorizes nothing.
  auto machine = createCpuTargetMachine("native", options.optLevel);
  if (!machine)
    return llvm::createStringError("cannot target the host CPU: " +
                                   llvm::toString(machine.takeError()));

  // Parallel loops call libomp, which the code loads by path.
  std::string openmp;
  llvm::SmallVector<llvm::StringRef, 1> sharedLibraries;
  if (options.target == Target::cpu && options.threads != 1) {
    configureOpenMP();
    openmp = openmpLibraryPath();
    if (openmp.empty())
      return llvm::createStringError(
          "cannot find the OpenMP runtime (libomp) that parallel loops "
          "call; compile with threads = 1");
    sharedLibraries.push_back(openmp);
  }

  // GPU code loads its kernels in static constructors, which an object
  // linked by ObjectJit would not run: only CPU code is cached.
  std::optional<CompileCache> cache;
  if (options.target == Target::cpu)
    cache = CompileCache::open(options.useCache, options.cacheDirectory);
  std::string key;
  if (cache) {
    key = cacheKey(*copy, pm, options, **machine);
    bool rejected = false;
    auto objects = cache->lookup(key, rejected);
    if (!objects.empty()) {
      if (llvm::Error error = exe->linkObjects(objects, sharedLibraries)) {
        // Objects that passed the checks but do not link: compile anew.
        llvm::consumeError(std::move(error));
        rejected = true;
      } else {
        exe->stats_.cacheHit = true;
        exe->stats_.codegenSeconds = secondsSince(start);
        return exe;
      }
    }
    exe->stats_.cacheEntryRejected = rejected;
  }

  // Lower, collecting diagnostics with their locations.
  std::string diagnostics;
  {
    mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &d) {
      llvm::raw_string_ostream os(diagnostics);
      os << formatDiagnostic(d) << "\n";
      return mlir::success();
    });
    auto pipelineStart = std::chrono::steady_clock::now();
    if (mlir::failed(pm.run(*copy)))
      return llvm::createStringError("compilation failed:\n" +
                                     llvm::StringRef(diagnostics).rtrim());
    exe->stats_.pipelineSeconds = secondsSince(pipelineStart);
  }

  // CPU code: LLVM's optimizer and code generator on all cores, linked by
  // ObjectJit. GPU code (or CPU code with static constructors): MLIR's
  // ExecutionEngine, which runs them.
  bool hasConstructors = !copy->getOps<mlir::LLVM::GlobalCtorsOp>().empty() ||
                         !copy->getOps<mlir::LLVM::GlobalDtorsOp>().empty();
  llvm::Error error =
      options.target == Target::cpu && !hasConstructors
          ? exe->compileObjects(*copy, options, **machine, sharedLibraries,
                                cache, key)
          : exe->compileWithEngine(*copy, options, std::move(*machine),
                                   sharedLibraries);
  if (error)
    return std::move(error);
  return exe;
}

llvm::Expected<Function> Executable::function(llvm::StringRef name) const {
  for (const auto &signature : signatures_) {
    if (signature->name != name)
      continue;
    auto entry = entries_.find(name);
    if (entry == entries_.end())
      return llvm::createStringError("@" + name + " was not compiled: " +
                                     notCompiled_.lookup(name));
    return Function(signature, entry->second, shapes_.lookup(name), code_,
                    target_);
  }
  auto it = uncallable_.find(name);
  if (it != uncallable_.end())
    return llvm::createStringError("@" + name +
                                   " cannot be called from the host: " +
                                   it->second);
  std::string known;
  for (const std::string &n : functionNames())
    known += (known.empty() ? "@" : ", @") + n;
  return llvm::createStringError("no function @" + name + " in the module" +
                                 (known.empty() ? std::string()
                                                : " (it has " + known + ")"));
}

std::vector<std::string> Executable::functionNames() const {
  std::vector<std::string> names;
  for (const auto &signature : signatures_)
    names.push_back(signature->name);
  return names;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

namespace {
/// A memref descriptor in the unpacked form the lowered function takes:
/// allocated pointer, aligned pointer, offset, sizes, strides.
struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset = 0;
  llvm::SmallVector<int64_t, 4> sizes, strides;

  explicit Descriptor(Tensor &tensor)
      : allocated(tensor.rawData()), aligned(tensor.rawData()),
        sizes(tensor.shape()), strides(tensor.rank()) {
    int64_t stride = 1;
    for (int64_t d = tensor.rank() - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= sizes[d];
    }
  }

  /// Appends a pointer to each field, in order.
  void pack(llvm::SmallVectorImpl<void *> &args) {
    args.push_back(&allocated);
    args.push_back(&aligned);
    args.push_back(&offset);
    for (int64_t &size : sizes)
      args.push_back(&size);
    for (int64_t &stride : strides)
      args.push_back(&stride);
  }
};
} // namespace

static llvm::Error checkTensors(const Signature &signature, llvm::StringRef what,
                                const std::vector<TensorSpec> &specs,
                                llvm::ArrayRef<Tensor> tensors) {
  if (tensors.size() != specs.size())
    return llvm::createStringError(
        "@" + signature.name + " takes " + std::to_string(specs.size()) + " " +
        what + (specs.size() == 1 ? "" : "s") + ", got " +
        std::to_string(tensors.size()) + " (signature " + signature.str() + ")");
  for (size_t i = 0; i < specs.size(); ++i)
    if (!specs[i].matches(tensors[i]))
      return llvm::createStringError(
          what + " " + std::to_string(i) + " of @" + signature.name +
          ": expected " + specs[i].str() +
          (specs[i].isVariable ? " (a variable)" : "") + ", got " +
          tensors[i].typeString());
  return llvm::Error::success();
}

/// A variable's buffer is updated in place: no other argument or output may
/// share its storage, or the compiled code would read or write it behind
/// the variable's back.
static llvm::Error checkVariablesUnshared(const Signature &signature,
                                          llvm::ArrayRef<Tensor> inputs,
                                          llvm::ArrayRef<Tensor> outputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!signature.inputs[i].isVariable || inputs[i].sizeInBytes() == 0)
      continue;
    for (size_t j = 0; j < inputs.size(); ++j)
      if (j != i && inputs[j].sharesStorageWith(inputs[i]))
        return llvm::createStringError(
            "argument " + std::to_string(i) + " of @" + signature.name +
            " is a variable, updated in place, and shares its storage with "
            "argument " + std::to_string(j));
    for (size_t j = 0; j < outputs.size(); ++j)
      if (outputs[j].sharesStorageWith(inputs[i]))
        return llvm::createStringError(
            "argument " + std::to_string(i) + " of @" + signature.name +
            " is a variable, updated in place, and shares its storage with "
            "output " + std::to_string(j));
  }
  return llvm::Error::success();
}

/// "argument 0 dim 0 is {0} but ..." with the sizes in place.
static std::string formatCheck(llvm::StringRef message, int64_t lhs,
                               int64_t rhs) {
  std::string text = message.str();
  for (auto [placeholder, size] :
       {std::pair<llvm::StringRef, int64_t>{"{0}", lhs}, {"{1}", rhs}}) {
    size_t at = text.find(placeholder);
    if (at != std::string::npos)
      text.replace(at, placeholder.size(), std::to_string(size));
  }
  return text;
}

TRACEC_CALLS_JIT_CODE llvm::Error Function::checkInputs(
    llvm::ArrayRef<Tensor> inputs,
    std::vector<llvm::SmallVector<int64_t, 4>> *shapes) const {
  const Signature &sig = *signature_;
  if (auto error = checkTensors(sig, "argument", sig.inputs, inputs))
    return error;
  if (!shapes)
    return llvm::Error::success();
  shapes->clear();
  for (const TensorSpec &spec : sig.results)
    shapes->emplace_back(spec.shape);
  if (!shape_)
    return llvm::Error::success();
  // @__shape_f(<the arguments>, memref<Nxi64>): status, the sizes of the
  // failed check, then the results' dynamic dims.
  llvm::SmallVector<int64_t, 16> out(3 + shape_->dynamicResultDims, 0);
  llvm::SmallVector<Descriptor, 16> descriptors;
  descriptors.reserve(inputs.size());
  for (const Tensor &input : inputs)
    descriptors.emplace_back(const_cast<Tensor &>(input));
  llvm::SmallVector<void *, 96> args;
  for (Descriptor &descriptor : descriptors)
    descriptor.pack(args);
  void *outData = out.data();
  int64_t outOffset = 0, outSize = out.size(), outStride = 1;
  args.append({&outData, &outData, &outOffset, &outSize, &outStride});
  shape_->entry(args.data());
  if (int64_t status = out[0]) {
    llvm::StringRef message =
        static_cast<size_t>(status) <= shape_->checks.size()
            ? llvm::StringRef(shape_->checks[status - 1])
            : "the arguments' dims disagree";
    return llvm::createStringError("@" + sig.name + ": " +
                                   formatCheck(message, out[1], out[2]));
  }
  size_t next = 3;
  for (auto &shape : *shapes)
    for (int64_t &dim : shape)
      if (dim == TensorSpec::kDynamic)
        dim = out[next++];
  return llvm::Error::success();
}

llvm::Expected<std::vector<llvm::SmallVector<int64_t, 4>>>
Function::resultShapes(llvm::ArrayRef<Tensor> inputs) const {
  std::vector<llvm::SmallVector<int64_t, 4>> shapes;
  if (auto error = checkInputs(inputs, &shapes))
    return std::move(error);
  return shapes;
}

llvm::Error Function::call(llvm::ArrayRef<Tensor> inputs,
                           llvm::MutableArrayRef<Tensor> outputs) const {
  const Signature &sig = *signature_;
  if (!shape_) {
    if (auto error = checkInputs(inputs, nullptr))
      return error;
    if (auto error = checkTensors(sig, "output", sig.results, outputs))
      return error;
  } else {
    std::vector<llvm::SmallVector<int64_t, 4>> shapes;
    if (auto error = checkInputs(inputs, &shapes))
      return error;
    if (auto error = checkTensors(sig, "output", sig.results, outputs))
      return error;
    for (size_t i = 0; i < outputs.size(); ++i)
      if (outputs[i].shape() != llvm::ArrayRef(shapes[i]))
        return llvm::createStringError(
            "output " + std::to_string(i) + " of @" + sig.name + ": expected " +
            formatTensorType(sig.results[i].dtype, shapes[i]) +
            " for these arguments, got " + outputs[i].typeString());
  }
  if (auto error = checkVariablesUnshared(sig, inputs, outputs))
    return error;
  return invoke(inputs, outputs);
}

TRACEC_CALLS_JIT_CODE llvm::Error
Function::invoke(llvm::ArrayRef<Tensor> inputs,
                 llvm::MutableArrayRef<Tensor> outputs) const {
  const Signature &sig = *signature_;
  // The compiled code never writes its tensor inputs (trace-readonly-inputs),
  // so const_cast only satisfies the descriptor's pointer type. A variable's
  // buffer (trace-lower-state) is passed as is and updated in place: that is
  // the point of a variable, and why it is not copied.
  // Inline storage: a typical call allocates nothing.
  llvm::SmallVector<Descriptor, 16> descriptors;
  descriptors.reserve(inputs.size() + outputs.size());
  for (const Tensor &input : inputs)
    descriptors.emplace_back(const_cast<Tensor &>(input));
  for (Tensor &output : outputs)
    descriptors.emplace_back(output);
  llvm::SmallVector<void *, 192> args;
  for (Descriptor &descriptor : descriptors)
    descriptor.pack(args);
  if (target_ != Target::cuda) {
    applyChosenThreads();
    entry_(args.data());
    return llvm::Error::success();
  }
  // The shim records the first CUDA error of the call (see CudaRuntime.h).
  cuda::beginCall();
  entry_(args.data());
  std::string error = cuda::takeError();
  if (!error.empty())
    return llvm::createStringError("@" + sig.name + " failed on the GPU: " +
                                   error);
  return llvm::Error::success();
}

llvm::Expected<Tensor>
Function::newResult(size_t index, llvm::ArrayRef<int64_t> shape) const {
  DType dtype = signature_->results[index].dtype;
  llvm::Expected<Tensor> host = Tensor::empty(dtype, shape);
  if (!host || target_ != Target::cuda)
    return host;
  // (Where there is no device, host memory: the call reports why.)
  void *managed = tracec_cuda_alloc_managed(host->sizeInBytes());
  if (!managed)
    return host;
  return Tensor::borrow(
      dtype, shape, managed,
      std::shared_ptr<void>(managed, tracec_cuda_free_managed));
}

llvm::Expected<std::vector<Tensor>>
Function::operator()(llvm::ArrayRef<Tensor> inputs) const {
  auto shapes = resultShapes(inputs);
  if (!shapes)
    return shapes.takeError();
  std::vector<Tensor> outputs;
  for (auto [i, spec, shape] :
       llvm::enumerate(signature_->results, *shapes)) {
    auto output = newResult(i, shape);
    if (!output)
      return llvm::createStringError(
          "@" + signature_->name + ": result " + std::to_string(i) + ": " +
          llvm::toString(output.takeError()));
    outputs.push_back(std::move(*output));
  }
  // The inputs are checked (resultShapes) and the outputs fresh: the
  // shape function need not run a second time, as call() would.
  if (auto error = checkVariablesUnshared(*signature_, inputs, outputs))
    return std::move(error);
  if (auto error = invoke(inputs, outputs))
    return std::move(error);
  return outputs;
}
