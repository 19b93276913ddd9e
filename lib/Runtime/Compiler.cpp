//===- Compiler.cpp - Parsing trace modules for the JIT -------------------===//

#include "tracec/Runtime/Compiler.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "tracec/Dialect/Trace/Batching/Batching.h"
#include "tracec/Dialect/Trace/Gradients/Gradients.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Parser/ParserHazards.h"
#include "tracec/Transforms/Bufferization/BufferizableOpInterfaceImpl.h"
#include "tracec/Transforms/State/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;

std::string Module::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  get().print(os);
  return text;
}

Compiler::Compiler() {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  // Target::cuda: kernels (NVVM) to PTX, gpu.binary to embedded PTX and
  // launches to runtime calls.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::trace::TraceDialect>();
  mlir::trace::registerGradientRules(registry);
  mlir::trace::registerBatchingRules(registry);
  mlir::trace::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::trace::registerMpiMemoryEffects(registry);
  context_ = std::make_unique<mlir::MLIRContext>(registry);
  // The JIT compiles from any thread; keep MLIR's own thread pool off so a
  // host program's threads are not multiplied.
  context_->disableMultithreading();
}

Compiler::~Compiler() = default;

/// Parses the single buffer of `sourceMgr`; diagnostics go to the error.
static llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parse(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context) {
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (mlir::succeeded(checkParserHazards(sourceMgr, &context)))
    module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return llvm::createStringError(llvm::StringRef(diagnostics).rtrim());
  return module;
}

llvm::Expected<Module> Compiler::parseFile(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return llvm::createStringError(path + ": cannot read: " +
                                   file.getError().message());
  if ((*file)->getBuffer().trim().empty())
    return llvm::createStringError(
        path + ":1:1: error: empty input: expected an MLIR module");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  auto module = parse(sourceMgr, *context_);
  if (!module)
    return module.takeError();
  return Module(std::move(*module));
}

llvm::Expected<Module> Compiler::parseString(llvm::StringRef source,
                                             llvm::StringRef bufferName) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  auto module = parse(sourceMgr, *context_);
  if (!module)
    return module.takeError();
  return Module(std::move(*module));
}
