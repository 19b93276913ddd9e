//===- tracec-opt.cpp - mlir-opt with the trace dialect -------------------===//
//
// The upstream dialects and passes, plus ours: every mlir-opt flag works
// (--pass-pipeline, -split-input-file, -verify-diagnostics, ...). Unlike
// mlir-opt, an empty input file is an error: it is almost always a mistake
// (a failed redirect, a wrong path), and an empty module hides it.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tracec/Conversion/Passes.h"
#include "tracec/Dialect/Trace/Gradients/Gradients.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Pipelines/Pipelines.h"
#include "tracec/Codegen/CPU/Passes.h"
#include "tracec/Codegen/GPU/Passes.h"
#include "tracec/Transforms/Bufferization/BufferizableOpInterfaceImpl.h"
#include "tracec/Transforms/Bufferization/Passes.h"
#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/State/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

/// Reports a missing or empty input file; stdin ("-") is not checked.
static mlir::LogicalResult checkInputFile(llvm::StringRef filename) {
  if (filename == "-")
    return mlir::success();
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(filename, &error);
  if (!file) {
    llvm::errs() << filename << ": error: " << error << "\n";
    return mlir::failure();
  }
  if (file->getBuffer().trim().empty()) {
    llvm::errs() << filename
                 << ":1:1: error: empty input: expected an MLIR module\n";
    return mlir::failure();
  }
  return mlir::success();
}

int main(int argc, char **argv) {
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
  mlir::trace::registerBufferizableOpInterfaceExternalModels(registry);

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tracec optimizer driver\n", registry);
  if (mlir::failed(checkInputFile(inputFilename)))
    return 1;
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, inputFilename, outputFilename, registry));
}
