//===- tracec-opt.cpp - mlir-opt with the trace dialect -------------------===//
//
// The upstream dialects and passes, plus ours: every mlir-opt flag works
// (--pass-pipeline, -split-input-file, -verify-diagnostics, ...). Unlike
// mlir-opt, an empty input file is an error: it is almost always a mistake
// (a failed redirect, a wrong path), and an empty module hides it; and input
// that MLIR's parser would crash on is refused with a location first.
//
//===----------------------------------------------------------------------===//

#include "../Common/ToolVersion.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tracec/Conversion/Passes.h"
#include "tracec/Dialect/Trace/Batching/Batching.h"
#include "tracec/Dialect/Trace/Gradients/Gradients.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Parser/ParserHazards.h"
#include "tracec/Pipelines/Pipelines.h"
#include "tracec/Codegen/CPU/Passes.h"
#include "tracec/Codegen/GPU/Passes.h"
#include "tracec/Transforms/Bufferization/BufferizableOpInterfaceImpl.h"
#include "tracec/Transforms/Bufferization/Passes.h"
#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/State/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

/// The input, read here so that it is checked before MLIR parses it: a
/// missing or empty file and what MLIR's parser would crash on
/// (ParserHazards.h) are errors with a location.
static std::unique_ptr<llvm::MemoryBuffer>
readCheckedInput(llvm::StringRef filename) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(filename, &error);
  if (!file) {
    llvm::errs() << filename << ": error: " << error << "\n";
    return nullptr;
  }
  llvm::StringRef name = file->getBufferIdentifier();
  if (file->getBuffer().trim().empty()) {
    llvm::errs() << name
                 << ":1:1: error: empty input: expected an MLIR module\n";
    return nullptr;
  }
  if (std::optional<tracec::ParserHazard> hazard =
          tracec::findParserHazard(file->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    llvm::MemoryBufferRef ref = file->getMemBufferRef();
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(ref),
                                 llvm::SMLoc());
    sourceMgr.PrintMessage(llvm::errs(), hazard->loc,
                           llvm::SourceMgr::DK_Error, hazard->message);
    return nullptr;
  }
  return file;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  tracec::setToolVersionPrinter("tracec-opt");
  // Upstream passes (every mlir-opt flag), ours, and the named pipelines.
  // The libraries register nothing: this tool is the one place that parses
  // passes by name.
  mlir::registerAllPasses();
  mlir::trace::registerTracecConversionPasses();
  mlir::trace::registerTracecDifferentiationPasses();
  mlir::trace::registerTracecStatePasses();
  mlir::trace::registerTracecBufferizationPasses();
  mlir::trace::registerTracecCPUCodegenPasses();
  mlir::trace::registerTracecGPUCodegenPasses();
  tracec::registerPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::trace::TraceDialect>();
  mlir::trace::registerGradientRules(registry);
  mlir::trace::registerBatchingRules(registry);
  mlir::trace::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::trace::registerMpiMemoryEffects(registry);

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tracec optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, inputFilename, outputFilename, registry));
  std::unique_ptr<llvm::MemoryBuffer> input = readCheckedInput(inputFilename);
  if (!input)
    return 1;
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << outputFilename << ": error: " << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
