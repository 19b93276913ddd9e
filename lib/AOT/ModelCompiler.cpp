//===- ModelCompiler.cpp - A model's text to an object file and its header ===//

#include "tracec/AOT/ModelCompiler.h"

#include "tracec/AOT/AotCompiler.h"
#include "tracec/AOT/HeaderEmitter.h"
#include "tracec/AOT/ModelParser.h"
#include "tracec/AOT/Naming.h"
#include "tracec/Codegen/CPU/MachineCode.h"
#include "tracec/Runtime/Compiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;
using namespace tracec::aot;

llvm::Expected<CompiledModel>
tracec::aot::compileModel(llvm::StringRef source,
                          llvm::ArrayRef<std::string> entries,
                          const ModelOptions &options) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, options.modelName),
      llvm::SMLoc());
  Compiler compiler;
  mlir::MLIRContext &context = compiler.context();
  context.printOpOnDiagnostic(false);
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context,
                                           diagnosticStream);
  auto failed = [&] {
    // The Python bindings raise tracec.CompileError for this prefix.
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "compilation failed:\n" + diagnostics);
  };

  ArgumentNames names;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseModel(sourceMgr, &context, names);
  if (!module)
    return failed();
  std::vector<std::string> entryNames(entries.begin(), entries.end());
  if (!options.entryName.empty() && entries.size() == 1) {
    auto func = module->lookupSymbol<mlir::func::FuncOp>(entries[0]);
    if (func && mlir::failed(mlir::SymbolTable(*module).rename(
                    func, options.entryName)))
      return failed();
    names[options.entryName] = names[entries[0]];
    entryNames = {options.entryName};
  }
  auto cpus = parseTargetCpus(options.targetCpu);
  if (!cpus)
    return cpus.takeError();
  std::string stem = toCIdentifier(options.modelName, "model_");
  std::string prefix = llvm::StringRef(stem).lower();
  auto points = collectEntryPoints(*module, entryNames, prefix, names);
  if (mlir::failed(points))
    return failed();
  CompiledModel model;
  llvm::LLVMContext llvmContext;
  auto code = compileObjectCode(*module, *points, *cpus, prefix, llvmContext,
                                /*cuda=*/{}, options.threads);
  if (mlir::failed(code))
    return failed();
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream objectStream(object);
  if (auto error = emitMachineCode(*code->module, *code->machine,
                                   llvm::CodeGenFileType::ObjectFile,
                                   objectStream))
    return std::move(error);
  model.object.assign(object.begin(), object.end());
  llvm::raw_string_ostream header(model.header);
  emitHeader(header, *points,
             {options.modelName, prefix, toClassName(stem, "Model"), ""});
  model.prefix = prefix;
  if (!points->empty())
    model.argNames = points->front().argNames;
  return model;
}
