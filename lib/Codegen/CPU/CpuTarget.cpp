//===- CpuTarget.cpp - LLVM code generation for the host's CPUs -----------===//

#include "tracec/Codegen/CPU/CpuTarget.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"

#include <mutex>

using namespace tracec;

static void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Inline assembly (the AOT object's CPUID) is parsed when emitted.
    llvm::InitializeNativeTargetAsmParser();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
tracec::createCpuTargetMachine(llvm::StringRef cpu, unsigned optLevel) {
  initializeNativeTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("cannot target " + triple.str() + ": " +
                                   error);

  std::string cpuName = cpu.str();
  std::string features;
  if (cpu == "native") {
    cpuName = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures hostFeatures;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      hostFeatures.AddFeature(feature.first(), feature.second);
    features = hostFeatures.getString();
  } else {
    // Ask a generic subtarget: a target machine for an unknown CPU would
    // print LLVM's own warning and carry on.
    std::unique_ptr<llvm::MCSubtargetInfo> generic(
        target->createMCSubtargetInfo(triple, "", ""));
    if (!generic || !generic->isCPUStringValid(cpuName))
      return llvm::createStringError(
          "unknown CPU '" + cpuName + "' for " + triple.str() +
          " (try native, x86-64-v3, skylake-avx512)");
  }

  llvm::CodeGenOptLevel level =
      optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
      : optLevel == 0 ? llvm::CodeGenOptLevel::None
                      : llvm::CodeGenOptLevel::Default;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpuName, features, llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, level));
  if (!machine)
    return llvm::createStringError("cannot create a target machine for " +
                                   triple.str() + " (" + cpuName + ")");
  return machine;
}

/// What vectorized kernels need of LLVM: clean up the address arithmetic
/// and the memref descriptors, hoist what is invariant, fold shuffles.
/// (`instcombine` spelled in a pipeline string verifies that it reached a
/// fixpoint and aborts the process if not, as LLVM's tests want; the
/// standard pipelines do not check, and neither may a compiler.)
static constexpr const char kVectorKernelPipeline[] =
    "sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,"
    "loop-mssa(loop-rotate,licm<allowspeculation>),gvn,"
    "instcombine<no-verify-fixpoint>,simplifycfg";

/// MLIR 22's mpi-to-llvm names OpenMPI's reduction operations
/// `ompi_mpi_<op>` (ompi_mpi_sum, ...); OpenMPI's mpi.h defines MPI_SUM as
/// &ompi_mpi_op_sum. The declarations are renamed to the symbols the
/// library has (docs/upstream-bugs.md).
static void fixOpenMpiOperationNames(llvm::Module &module) {
  for (llvm::StringRef op :
       {"max", "min", "sum", "prod", "land", "band", "lor", "bor", "lxor",
        "bxor", "minloc", "maxloc", "replace", "null"}) {
    llvm::GlobalVariable *wrong =
        module.getGlobalVariable(("ompi_mpi_" + op).str());
    if (!wrong || !wrong->isDeclaration())
      continue;
    std::string right = ("ompi_mpi_op_" + op).str();
    if (llvm::GlobalVariable *existing = module.getGlobalVariable(right)) {
      wrong->replaceAllUsesWith(existing);
      wrong->eraseFromParent();
    } else {
      wrong->setName(right);
    }
  }
}

llvm::Error tracec::optimizeCpuModule(llvm::Module &module,
                                      llvm::TargetMachine &machine,
                                      unsigned optLevel) {
  fixOpenMpiOperationNames(module);
  if (optLevel == 0)
    return llvm::Error::success();
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  // The standard pipeline skips vector kernels: optnone (they are noinline
  // already) while it runs.
  auto isVectorKernel = [](const llvm::Function &function) {
    return function.getFnAttribute(kKernelAttrName).getValueAsString() ==
           kVectorKernel;
  };
  for (llvm::Function &function : module)
    if (isVectorKernel(function))
      function.addFnAttr(llvm::Attribute::OptimizeNone);

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassInstrumentationCallbacks callbacks;
  llvm::StandardInstrumentations instrumentations(module.getContext(),
                                                  /*DebugLogging=*/false);
  instrumentations.registerCallbacks(callbacks, &modules);
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &callbacks);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);

  // Identical kernels first, before any time goes into them.
  llvm::ModulePassManager standard;
  standard.addPass(llvm::MergeFunctionsPass());
  standard.addPass(builder.buildPerModuleDefaultPipeline(level));
  standard.run(module, modules);

  llvm::FunctionPassManager cleanup;
  if (llvm::Error error =
          builder.parsePassPipeline(cleanup, kVectorKernelPipeline))
    return error;
  // (The standard pipeline may have deleted kernels it found unused.)
  for (llvm::Function &kernel : module) {
    if (!isVectorKernel(kernel))
      continue;
    kernel.removeFnAttr(llvm::Attribute::OptimizeNone);
    if (kernel.isDeclaration())
      continue;
    functions.invalidate(kernel, llvm::PreservedAnalyses::none());
    cleanup.run(kernel, functions);
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
tracec::translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                          llvm::TargetMachine &machine, unsigned optLevel) {
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return llvm::createStringError("cannot translate the module to LLVM IR");
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  // Each function carries the CPU it is for: modules for different CPUs
  // may be linked into one object (lib/AOT/CpuDispatch.h).
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine.getTargetCPU());
    if (!machine.getTargetFeatureString().empty())
      function.addFnAttr("target-features", machine.getTargetFeatureString());
  }
  if (llvm::Error error = optimizeCpuModule(*llvmModule, machine, optLevel))
    return std::move(error);
  return llvmModule;
}

llvm::Expected<CpuVectorInfo> tracec::getCpuVectorInfo(llvm::StringRef cpu) {
  initializeNativeTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  llvm::StringMap<bool> features;
  if (cpu == "native") {
    features = llvm::sys::getHostCPUFeatures();
  } else {
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target)
      return llvm::createStringError("cannot target " + triple.str() + ": " +
                                     error);
    std::unique_ptr<llvm::MCSubtargetInfo> generic(
        target->createMCSubtargetInfo(triple, "", ""));
    if (!generic || !generic->isCPUStringValid(cpu))
      return llvm::createStringError(
          "unknown CPU '" + cpu.str() + "' for " + triple.str() +
          " (try native, x86-64-v3, skylake-avx512)");
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(triple, cpu, ""));
    for (const llvm::SubtargetFeatureKV &feature : info->getAllProcessorFeatures())
      if (info->checkFeatures(std::string("+") + feature.Key))
        features[feature.Key] = true;
  }
  auto has = [&](llvm::StringRef name) { return features.lookup(name); };
  CpuVectorInfo result;
  if (triple.isAArch64()) {
    result.vectorBits = 128;
    result.numRegisters = 32;
  } else if (has("avx512f")) {
    result.vectorBits = 512;
    result.numRegisters = 32;
  } else if (has("avx")) {
    result.vectorBits = 256;
  }
  if (triple.isX86()) {
    result.avx2 = has("avx2");
    result.fma = has("fma");
    result.avx512bf16 = result.vectorBits == 512 && has("avx512bf16");
  }
  return result;
}
