//===- MlirParseFuzzer.cpp - libFuzzer target: parsing a module -----------===//
//
// What tracec-opt, tracec and tracec-run do with user text before any
// pass: the parser-hazard scan, then MLIR's parser with every dialect and
// the verifiers. The trace dialect (its custom syntax, type inference and
// verifiers) is compiled into this target instrumented; MLIR's own parser
// is the prebuilt libMLIR. The input is split at `// -----` lines as
// -split-input-file does, so the lit tests' files are seeds. Any input
// must give modules or errors.
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Parser/ParserHazards.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <memory>

static std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registry.insert<mlir::trace::TraceDialect>();
  auto context = std::make_unique<mlir::MLIRContext>(registry);
  context->disableMultithreading();
  // Errors are expected; printing them would only slow the run.
  context->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  return context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context keeps every attribute and type it ever uniqued: a fresh one
  // now and then bounds the memory of a long run.
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned runs = 0;
  if (!context || ++runs % 1000 == 0)
    context = makeContext();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> chunks;
  text.split(chunks, "// -----");
  for (llvm::StringRef chunk : chunks) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(chunk, "fuzz.mlir"),
        llvm::SMLoc());
    if (mlir::succeeded(tracec::checkParserHazards(sourceMgr, context.get())))
      (void)mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, context.get());
  }
  return 0;
}
