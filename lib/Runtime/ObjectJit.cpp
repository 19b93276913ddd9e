//===- ObjectJit.cpp - Running object code from the compile cache ---------===//

#include "ObjectJit.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"

using namespace tracec;
using namespace llvm::orc;

ObjectJit::~ObjectJit() = default;

llvm::Expected<std::unique_ptr<ObjectJit>>
ObjectJit::load(std::unique_ptr<llvm::MemoryBuffer> object, SymbolsFn symbols,
                llvm::ArrayRef<llvm::StringRef> sharedLibraries) {
  auto jit = LLJITBuilder()
                 .setObjectLinkingLayerCreator([](ExecutionSession &session) {
                   return std::make_unique<RTDyldObjectLinkingLayer>(
                       session, [](const llvm::MemoryBuffer &) {
                         return std::make_unique<llvm::SectionMemoryManager>();
                       });
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
  if (auto error = (*jit)->addObjectFile(std::move(object)))
    return std::move(error);
  std::unique_ptr<ObjectJit> result(new ObjectJit());
  result->jit_ = std::move(*jit);
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
