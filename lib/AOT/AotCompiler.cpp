//===- AotCompiler.cpp - Lowering a model to exported C entry points ------===//

#include "tracec/AOT/AotCompiler.h"

#include "BufferCache.h"
#include "WaitPolicy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "tracec/Codegen/CPU/CpuTarget.h"
#include "tracec/Pipelines/LibraryNames.h"
#include "tracec/Pipelines/Lowering.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tracec;
using namespace tracec::aot;

LogicalResult tracec::aot::lowerToCEntryPoints(
    ModuleOp module, llvm::ArrayRef<EntryPoint> entries, const CudaTarget &cuda,
    unsigned threads, llvm::StringRef targetCpu) {
  // Only the entries and what they use are compiled: a function that is
  // not exported may use ops the pipeline cannot lower.
  llvm::StringSet<> exported;
  for (const EntryPoint &entry : entries)
    exported.insert(entry.signature.name);
  keepOnlyEntriesPublic(module, [&](func::FuncOp func) {
    return exported.contains(func.getSymName());
  });
  // Result names are the header's business; the pipeline need not carry
  // them.
  for (auto func : module.getOps<func::FuncOp>())
    if (exported.contains(func.getSymName()))
      for (unsigned i = 0; i < func.getNumResults(); ++i)
        func.removeResultAttr(
            i, StringAttr::get(module.getContext(), "trace.name"));

  PassManager dce(module.getContext());
  dce.addPass(createSymbolDCEPass());
  if (failed(dce.run(module)))
    return failure();
  // The C functions keep the entries' names; the code gets other names
  // where theirs are the C library's.
  llvm::StringMap<std::string> renamed = renameLibraryNameClashes(module);
  PassManager pm(module.getContext());
  LoweringOptions lowering;
  if (!cuda.chip.empty()) {
    lowering.gpu.emplace();
    lowering.gpu->chip = cuda.chip;
    lowering.gpu->tf32 = cuda.tf32;
  } else {
    lowering.cpu.threads = threads;
    lowering.cpu.targetCpu = targetCpu.str();
  }
  buildLoweringPipeline(pm, lowering);
  if (failed(pm.run(module)))
    return failure();
  // Buffers of run-time size are reused across calls (GPU host code keeps
  // its buffers on the device).
  if (cuda.chip.empty() && failed(cacheHeapBuffers(module)))
    return failure();
  if (failed(setOpenMPWaitPolicy(module)))
    return failure();
  return addCEntryPoints(module, entries, renamed);
}

FailureOr<ObjectCode> tracec::aot::compileObjectCode(
    ModuleOp module, llvm::ArrayRef<EntryPoint> entries, const TargetCpus &cpus,
    llvm::StringRef prefix, llvm::LLVMContext &llvmContext,
    const CudaTarget &cuda, unsigned threads,
    llvm::function_ref<void(ModuleOp, llvm::StringRef)> lowered) {
  TargetCpus targets = cpus;
  if (!cuda.chip.empty())
    targets = {{cpus.cpus.front()}, /*dispatch=*/false};
  auto fail = [&](llvm::Error error) {
    emitError(module.getLoc()) << llvm::toString(std::move(error));
    return failure();
  };

  std::vector<std::unique_ptr<llvm::Module>> variants;
  for (const std::string &cpu : targets.cpus) {
    auto machine = createCpuTargetMachine(cpu);
    if (!machine)
      return fail(machine.takeError());
    // Every CPU but the last lowers a copy.
    OwningOpRef<ModuleOp> copy;
    ModuleOp variant = module;
    if (variants.size() + 1 < targets.cpus.size()) {
      copy = module.clone();
      variant = *copy;
    }
    if (failed(lowerToCEntryPoints(variant, entries, cuda, threads, cpu)))
      return failure();
    if (lowered)
      lowered(variant, cpu);
    auto llvmModule = translateToLLVMIR(variant, llvmContext, **machine);
    if (!llvmModule)
      return fail(llvmModule.takeError());
    variants.push_back(std::move(*llvmModule));
  }
  auto linked = linkCpuVariants(std::move(variants), targets, prefix);
  if (!linked)
    return fail(linked.takeError());
  // The dispatch runs on any x86-64 CPU; each variant's functions carry
  // their own CPU.
  auto machine =
      createCpuTargetMachine(targets.dispatch ? "x86-64" : targets.cpus[0]);
  if (!machine)
    return fail(machine.takeError());
  return ObjectCode{std::move(*machine), std::move(*linked)};
}
