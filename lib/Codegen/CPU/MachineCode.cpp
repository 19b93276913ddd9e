//===- MachineCode.cpp - Object code of optimized LLVM modules ------------===//

#include "tracec/Codegen/CPU/MachineCode.h"

#include "tracec/Codegen/CPU/CpuTarget.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <thread>

using namespace tracec;

llvm::Error tracec::emitMachineCode(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    llvm::CodeGenFileType kind,
                                    llvm::raw_pwrite_stream &os) {
  // LLVM's code generator still runs on the legacy pass manager.
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, /*DwoOut=*/nullptr, kind))
    return llvm::createStringError("the target cannot emit this file type");
  passes.run(module);
  return llvm::Error::success();
}

using Clock = std::chrono::steady_clock;

/// Kernels take memref descriptors whose fields are the same constants at
/// every call (static shapes): SROA and CSE fold the callers' descriptor
/// plumbing, IPSCCP moves the constants into the kernels and dead-argument
/// elimination drops them, so a kernel called thousands of times (a graph
/// unrolled over steps) takes its pointers only. Whole-module work, so
/// before the split: a partition sees only one side of most calls.
static llvm::Error shrinkKernelArguments(llvm::Module &module) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(
          passes, "function(sroa,early-cse),ipsccp,deadargelim"))
    return error;
  passes.run(module, modules);
  return llvm::Error::success();
}

/// Optimizes `module` and compiles it to an object file in memory;
/// `optimized` is when the optimizer was done.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
compileObject(llvm::Module &module, llvm::StringRef cpu, unsigned optLevel,
              Clock::time_point &optimized) {
  auto machine = createCpuTargetMachine(cpu, optLevel);
  if (!machine)
    return machine.takeError();
  if (llvm::Error error = optimizeCpuModule(module, **machine, optLevel))
    return std::move(error);
  optimized = Clock::now();
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream os(bytes);
  if (llvm::Error error = emitMachineCode(
          module, **machine, llvm::CodeGenFileType::ObjectFile, os))
    return std::move(error);
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(
      std::move(bytes), module.getModuleIdentifier(),
      /*RequiresNullTerminator=*/false);
}

/// What compiling `function` costs, about: its instructions but the
/// insertvalue/extractvalue of memref descriptors, which SROA removes at
/// once (they are most of an entry function's instructions).
static size_t compileCost(const llvm::Function &function) {
  size_t cost = 0;
  for (const llvm::Instruction &instruction : llvm::instructions(function))
    cost +=
        !llvm::isa<llvm::InsertValueInst, llvm::ExtractValueInst>(instruction);
  return cost;
}

/// The partition of each defined function: the costliest first, each to
/// the partition with the lowest cost so far. Global variables stay in
/// partition 0 (they are data: no code to generate).
static llvm::DenseMap<const llvm::GlobalValue *, unsigned>
assignPartitions(llvm::Module &module, unsigned partitions) {
  llvm::SmallVector<std::pair<size_t, llvm::Function *>> functions;
  llvm::DenseMap<llvm::Function *, unsigned> order;
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    order[&function] = order.size();
    functions.push_back({compileCost(function), &function});
  }
  // Biggest first; ties in module order (the sort is deterministic).
  llvm::sort(functions, [&](auto &a, auto &b) {
    return a.first != b.first ? a.first > b.first
                              : order.lookup(a.second) < order.lookup(b.second);
  });
  llvm::SmallVector<size_t> load(partitions, 0);
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> partitionOf;
  for (auto [size, function] : functions) {
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    partitionOf[function] = lightest;
    load[lightest] += size;
  }
  return partitionOf;
}

llvm::Expected<llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
tracec::compileCpuObjects(llvm::Module &module, llvm::StringRef cpu,
                          unsigned optLevel, unsigned threads,
                          ObjectCompileTimes *times) {
  Clock::time_point start = Clock::now();
  llvm::SmallVector<Clock::time_point> optimized(std::max(threads, 1u), start);
  auto recordTimes = [&] {
    if (!times)
      return;
    Clock::time_point end = Clock::now();
    Clock::time_point slowest =
        *std::max_element(optimized.begin(), optimized.end());
    times->optimizeSeconds =
        std::chrono::duration<double>(slowest - start).count();
    times->codegenSeconds =
        std::chrono::duration<double>(end - slowest).count();
  };
  llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  size_t defined = llvm::count_if(
      module, [](llvm::Function &f) { return !f.isDeclaration(); });
  unsigned partitions = std::max<size_t>(1, std::min<size_t>(threads, defined));
  // Aliases and comdats tie symbols together; none come out of the CPU
  // pipeline, but a module with them is compiled whole.
  if (!module.alias_empty() || !module.ifunc_empty() ||
      !module.getComdatSymbolTable().empty())
    partitions = 1;
  if (partitions == 1) {
    auto object = compileObject(module, cpu, optLevel, optimized[0]);
    if (!object)
      return object.takeError();
    objects.push_back(std::move(*object));
    recordTimes();
    return objects;
  }

  if (llvm::Error error = shrinkKernelArguments(module))
    return std::move(error);
  // Identical kernels are merged only within a module: before the split.
  llvm::MergeFunctionsPass::runOnModule(module);
  // Each partition defines its own functions and declares the others':
  // internal and link-once symbols (math-to-funcs' helpers) become hidden
  // external ones so that they link, and are kept where unused.
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || value.hasExternalLinkage())
      continue;
    if (!value.hasName())
      value.setName("__tracec_partition_symbol");
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
  auto partitionOf = assignPartitions(module, partitions);

  // Partition 0 is compiled here in `module`'s context; the others are
  // handed to their threads as bitcode, each read into its own context
  // (an LLVMContext is not thread safe).
  llvm::SmallVector<llvm::SmallVector<char, 0>> bitcodes(partitions);
  std::unique_ptr<llvm::Module> first;
  for (unsigned i = 0; i < partitions; ++i) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
          auto it = partitionOf.find(value);
          return (it == partitionOf.end() ? 0u : it->second) == i;
        });
    if (i == 0) {
      first = std::move(part);
      continue;
    }
    llvm::raw_svector_ostream os(bitcodes[i]);
    llvm::WriteBitcodeToFile(*part, os);
  }

  llvm::SmallVector<
      std::optional<llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>>>
      results(partitions);
  llvm::SmallVector<std::thread> workers;
  for (unsigned i = 1; i < partitions; ++i)
    workers.emplace_back([&, i] {
      llvm::LLVMContext context;
      auto part = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(
              llvm::StringRef(bitcodes[i].data(), bitcodes[i].size()),
              module.getModuleIdentifier()),
          context);
      if (!part)
        results[i].emplace(part.takeError());
      else
        results[i].emplace(compileObject(**part, cpu, optLevel, optimized[i]));
    });
  results[0].emplace(compileObject(*first, cpu, optLevel, optimized[0]));
  for (std::thread &worker : workers)
    worker.join();

  llvm::Error errors = llvm::Error::success();
  for (auto &result : results) {
    if (*result)
      objects.push_back(std::move(**result));
    else
      errors = llvm::joinErrors(std::move(errors), result->takeError());
  }
  if (errors)
    return std::move(errors);
  recordTimes();
  return objects;
}
