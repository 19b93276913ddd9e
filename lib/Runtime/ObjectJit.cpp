//===- ObjectJit.cpp - Running object code from the compile cache ---------===//

#include "ObjectJit.h"

#include "JitArena.h"

#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"

#include <cstdlib>

using namespace tracec;
using namespace llvm::orc;

ObjectJit::~ObjectJit() = default;

/// With TRACEC_PERF_JIT=1, compiled code is described to `perf` (a jitdump
/// file for `perf record -k 1` and `perf inject --jit`), so profiles name
/// the kernels. Off by default: the listener writes a file per process.
static llvm::JITEventListener *perfListener() {
  static llvm::JITEventListener *listener = [] {
    const char *flag = std::getenv("TRACEC_PERF_JIT");
    return flag && llvm::StringRef(flag) == "1"
               ? llvm::JITEventListener::createPerfJITEventListener()
               : nullptr;
  }();
  return listener;
}

llvm::Expected<std::unique_ptr<ObjectJit>> ObjectJit::load(
    llvm::MutableArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects,
    SymbolsFn symbols, llvm::ArrayRef<llvm::StringRef> sharedLibraries,
    llvm::SectionMemoryManager::MemoryMapper *mapper) {
  std::unique_ptr<JitArena> arena;
  if (!mapper) {
    arena = std::make_unique<JitArena>();
    if (!arena->reserved())
      return llvm::createStringError(
          "cannot reserve address space for compiled code");
    mapper = arena.get();
  }
  auto jit = LLJITBuilder()
                 .setObjectLinkingLayerCreator([mapper](
                                                   ExecutionSession &session) {
                   auto layer = std::make_unique<RTDyldObjectLinkingLayer>(
                       session, [mapper](const llvm::MemoryBuffer &) {
                         // Within reach of each other (JitArena.h); an
                         // object's sections in one block.
                         return std::make_unique<llvm::SectionMemoryManager>(
                             mapper, /*ReserveAlloc=*/true);
                       });
                   if (llvm::JITEventListener *perf = perfListener())
                     layer->registerJITEventListener(*perf);
                   return layer;
                 })
                 .create();
  if (!jit)
    return jit.takeError();
  JITDylib &main = (*jit)->getMainJITDylib();
  auto process = DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  for (llvm::StringRef library : sharedLibraries) {
    auto generator = DynamicLibrarySearchGenerator::Load(
        library.str().c_str(), (*jit)->getDataLayout().getGlobalPrefix());
    if (!generator)
      return generator.takeError();
    main.addGenerator(std::move(*generator));
  }
  if (auto error = main.define(absoluteSymbols(symbols(MangleAndInterner(
          main.getExecutionSession(), (*jit)->getDataLayout())))))
    return std::move(error);
  for (std::unique_ptr<llvm::MemoryBuffer> &object : objects)
    if (auto error = (*jit)->addObjectFile(std::move(object)))
      return std::move(error);
  std::unique_ptr<ObjectJit> result(new ObjectJit());
  result->jit_ = std::move(*jit);
  result->arena_ = std::move(arena);
  return result;
}

llvm::Expected<void (*)(void **)>
ObjectJit::lookupPacked(llvm::StringRef name) {
  auto address = lookup("_mlir_" + name.str());
  if (!address)
    return address.takeError();
  return reinterpret_cast<void (*)(void **)>(*address);
}

llvm::Expected<void *> ObjectJit::lookup(llvm::StringRef name) {
  auto address = jit_->lookup(name);
  if (!address) {
    // The error refers to strings of the session: copy its text.
    return llvm::createStringError(llvm::toString(address.takeError()));
  }
  return address->toPtr<void *>();
}

void tracec::addPackedEntryPoints(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *> entries;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.hasExternalLinkage())
      entries.push_back(&function);
  llvm::IRBuilder<> builder(module.getContext());
  auto *packedType = llvm::FunctionType::get(
      builder.getVoidTy(), {builder.getPtrTy()}, /*isVarArg=*/false);
  for (llvm::Function *function : entries) {
    auto *packed =
        llvm::Function::Create(packedType, llvm::GlobalValue::ExternalLinkage,
                               "_mlir_" + function->getName(), module);
    builder.SetInsertPoint(
        llvm::BasicBlock::Create(module.getContext(), "", packed));
    llvm::Value *args = packed->getArg(0);
    auto pointerTo = [&](unsigned index) {
      llvm::Value *slot =
          builder.CreateConstGEP1_64(builder.getPtrTy(), args, index);
      return builder.CreateLoad(builder.getPtrTy(), slot);
    };
    llvm::SmallVector<llvm::Value *> values;
    for (llvm::Argument &arg : function->args())
      values.push_back(
          builder.CreateLoad(arg.getType(), pointerTo(arg.getArgNo())));
    llvm::Value *result = builder.CreateCall(function, values);
    if (!result->getType()->isVoidTy())
      builder.CreateStore(result, pointerTo(function->arg_size()));
    builder.CreateRetVoid();
  }
}
